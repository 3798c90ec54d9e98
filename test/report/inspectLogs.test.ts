/**
 * A study's Inspect AI eval logs (activities/report/inspect/): written with inspect_ai's own
 * writer and read back with its own reader (read_eval_log) and samples_df, in the project's venv.
 * Fixture: test/fixtures/inspect (q3 × one-pass and plan-audit of a real replay study; its README
 * works out the expected values). No Spark runs.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import execa from 'execa';
import { venvPython } from '../../activities/common/paths';
import { loadStudy } from '../../activities/scoring/study';
import { scoreRun } from '../../activities/scoring/analysis';
import { analyse } from '../../activities/report/writeReport';
import { writeInspectLogs } from '../../activities/report/inspect/writeLogs';
import { comparisonMarkdown, ComparisonDetailsSchema } from '../../activities/report/inspect/markdown';
import * as net from 'net';
import { viewLogDir, viewPort } from '../../client/commands/view';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'inspect');

/** What read_eval_log and samples_df see in a folder of logs, as JSON. */
const READ_BACK = `
import json, sys, glob
from inspect_ai.log import read_eval_log, resolve_sample_attachments
from inspect_ai.analysis import samples_df
out = {"logs": {}}
for f in sorted(glob.glob(sys.argv[1] + "/*.eval")):
    log = read_eval_log(f)
    s = resolve_sample_attachments(log.samples[0])
    out["logs"][log.eval.task] = {
        "status": log.status, "model": log.eval.model, "display": log.eval.task_display_name,
        "metrics": {sc.name: {k: m.value for k, m in sc.metrics.items()} for sc in log.results.scores},
        "sample": {"id": s.id, "epoch": s.epoch, "roles": [m.role for m in s.messages],
                   "stages": [m.metadata["stage"] for m in s.messages if m.role == "assistant"],
                   "scores": {k: v.value for k, v in s.scores.items()},
                   "answers": {k: v.answer for k, v in s.scores.items()},
                   "explanation": s.scores["reference_agreement"].explanation,
                   "sections": [e.source for e in s.events if e.event == "info"],
                   "artifacts": next(e.data for e in s.events if e.event == "info" and e.source == "frozen artifacts"),
                   "models": sum(1 for e in s.events if e.event == "model")}}
df = samples_df(sys.argv[1])
out["df"] = {"rows": len(df), "columns": sorted(c for c in df.columns if c.startswith("score_")),
             "false_pass": sorted(df["score_false_pass"].tolist())}
print(json.dumps(out))
`;

let tmp: string;
let read: {
  logs: Record<string, { status: string; model: string; display: string; metrics: Record<string, Record<string, number>>; sample: { id: string; epoch: number; roles: string[]; stages: string[]; scores: Record<string, number>; answers: Record<string, string>; explanation: string; sections: string[]; artifacts: string; models: number } }>;
  df: { rows: number; columns: string[]; false_pass: number[] };
};
let written: { file: string; samples: number }[];

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-inspect-'));
  fs.cpSync(path.join(FIXTURE, 'runs'), tmp, { recursive: true });
  const study = await loadStudy(path.join(tmp, 'ix1'), { tasksDir: path.join(FIXTURE, 'tasks') });
  const scored = study.runs.map(scoreRun);
  const reportDir = path.join(tmp, 'ix1', 'report');
  written = await writeInspectLogs(study, scored, [], analyse(scored, study.tasks, study.conditions).summary, reportDir, '2026-12-06T03:00:00Z');
  const r = await execa(venvPython(), ['-c', READ_BACK, path.join(reportDir, 'logs')]);
  read = JSON.parse(r.stdout);
}, 60_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('one log per condition, in Table I order, each read back by read_eval_log with the study metrics', () => {
  expect(written.map((w) => [path.basename(w.file), w.samples])).toEqual([['one-pass--replay-lockin.eval', 1], ['plan-audit--replay-lockin.eval', 1]]);
  const pa = read.logs['plan-audit'];
  expect(pa).toMatchObject({ status: 'success', model: 'replay/lockin', display: 'PlanAudit-Guided Revision' });
  expect(pa.metrics).toEqual({
    reference_agreement: { mean: 0, count: 0 },
    false_pass: { mean: 1, count: 1, conditional: 1 },
    tests_passed: { mean: 1, count: 1 },
    executed: { mean: 1 },
    plan_score: { mean: 10 / 12 },
    code_score: { mean: 11 / 12 },
    test_score: { mean: 0 },
  });
});

test('a sample holds the protocol calls in order, the artifacts, pytest, the comparison and the labels', () => {
  const s = read.logs['plan-audit'].sample;
  expect(s.id).toBe('q3');
  expect(s.epoch).toBe(1);
  expect(s.stages).toEqual(['generate', 'c1-extract', 'c2-assess', 'c2_5-ground', 'c3-audit', 'c4-recommend']);
  expect(s.roles).toEqual(['system', ...Array(6).fill(['user', 'assistant']).flat()]);
  expect(s.models).toBe(6);
  expect(read.logs['one-pass'].sample.stages).toEqual(['generate']);
  expect(s.sections).toEqual(['frozen artifacts', 'pytest', 'comparison with the reference', 'obligation labels', 'reply provenance']);
  expect(s.artifacts).toContain('**solution.py**');
  expect(s.artifacts).toContain('def solve(spark, tables)');
  expect(s.scores).toEqual({ reference_agreement: 0, false_pass: 1, tests_passed: 1, executed: 1, plan_score: 10 / 12, code_score: 11 / 12, test_score: 0 });
  expect(s.answers).toMatchObject({ reference_agreement: 'alias-mismatch', false_pass: 'false pass', tests_passed: '6/6 passed', executed: 'ok' });
  expect(s.explanation).toContain('| 4 | ext_price decimal(17,2) | sum_agg decimal(17,2) | name |');
  expect(s.explanation).toContain('**Rows**: candidate 20, reference 20; same multiset of rows');
});

test('samples_df reads every sample with one column per score', () => {
  expect(read.df).toEqual({
    rows: 2,
    columns: ['score_code_score', 'score_executed', 'score_false_pass', 'score_plan_score', 'score_reference_agreement', 'score_test_score', 'score_tests_passed'],
    false_pass: [1, 1],
  });
});

test('the comparison shows a sample of the differing rows with their multiplicities', () => {
  const d = ComparisonDetailsSchema.parse({
    primary: {
      agree: false,
      categories: ['values'],
      primaryCategory: 'values',
      schema: { equal: true, candidate: [{ name: 'k', type: 'int' }, { name: 'v', type: 'string' }], reference: [{ name: 'k', type: 'int' }, { name: 'v', type: 'string' }], differences: [] },
      rowCount: { candidate: 3, reference: 3 },
      rows: { alignment: 'identity', multisetEqual: false, missing: [{ row: [1, 'a|b'], count: 2 }], extra: [{ row: [1, null], count: 2 }], missingTotal: 2, extraTotal: 2, missingDistinct: 1, extraDistinct: 1 },
      summary: 'disagree [values]',
    },
  });
  const md = comparisonMarkdown(d);
  expect(md).toContain('**Reference rows the candidate lacks**: 2 (1 distinct):');
  expect(md).toContain('| 2 | 1 | a\\|b |');
  expect(md).toContain('**Candidate rows the reference lacks**: 2 (1 distinct):');
  expect(md).toContain('| 2 | 1 | NULL |');
});

test('lockin view finds a study folder\'s logs, says how to write them when there are none, and takes a free port', async () => {
  expect(viewLogDir(path.join(tmp, 'ix1'))).toBe(path.join(tmp, 'ix1', 'report', 'logs'));
  expect(viewLogDir(path.join(tmp, 'ix1', 'report', 'logs'))).toBe(path.join(tmp, 'ix1', 'report', 'logs'));
  const empty = fs.mkdtempSync(path.join(tmp, 'empty-'));
  expect(() => viewLogDir(empty)).toThrow(/no Inspect logs in .*report\/logs: .*npx lockin report/);
  expect(await viewPort(7600, '127.0.0.1')).toBe(7600);
  const first = await viewPort(undefined, '127.0.0.1');
  const busy = net.createServer();
  await new Promise<void>((r) => busy.listen(first, '127.0.0.1', () => r()));
  try {
    const next = await viewPort(undefined, '127.0.0.1');
    expect(next).not.toBe(first);
    expect(next).toBeGreaterThan(first);
  } finally {
    busy.close();
  }
});

test('a run whose candidate never ran (comparison.json with primary null: no solution.py) still gets its log, without a comparison', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-inspect-nocand-'));
  try {
    fs.cpSync(path.join(FIXTURE, 'runs'), dir, { recursive: true });
    const comparison = path.join(dir, 'ix1', 'tasks', 'q3', 'evaluation', 'one-pass', 'comparison.json');
    fs.writeFileSync(comparison, JSON.stringify({ candidate: null, reference: '/r/reference.arrow', primary: null, runtime: { status: 'missing-solution', reason: 'no solution.py in the frozen artifacts' }, ladder: null, tolerance: null }));
    const study = await loadStudy(path.join(dir, 'ix1'), { tasksDir: path.join(FIXTURE, 'tasks') });
    const scored = study.runs.map(scoreRun);
    const logs = await writeInspectLogs(study, scored, [], analyse(scored, study.tasks, study.conditions).summary, path.join(dir, 'ix1', 'report'), '2026-12-06T03:00:00Z');
    expect(logs.map((l) => [path.basename(l.file).split('--')[0], l.samples])).toEqual([
      ['one-pass', 1],
      ['plan-audit', 1],
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
