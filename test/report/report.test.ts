/**
 * The report on the fixture study (test/fixtures/study: 4 tasks × 3 conditions, labels worked
 * out by hand, one adjudicated final label, one replicate task labelled by the heuristic).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import execa from 'execa';
import { mutationFigureCells, sensitivitySubsets, writeReport } from '../../activities/report/writeReport';
import { loadStudy } from '../../activities/scoring/study';
import { parseMutation } from '../../activities/report/sideFiles';
import { venvPython } from '../../activities/common/paths';
import { provenanceCaption, provenanceParagraph, runReplyProvenance } from '../../activities/report/provenance';
import { repeatsParagraph } from '../../activities/report/repeats';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'study');

/** The fixture study loaded from a copy of its runs folder. */
async function loadFixture(runs: string) {
  return { study: await loadStudy(path.join(runs, 'fx1'), { tasksDir: path.join(FIXTURE, 'tasks') }) };
}
let runsDir: string;
let reportDir: string;

beforeAll(async () => {
  runsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-report-'));
  fs.cpSync(path.join(FIXTURE, 'runs'), runsDir, { recursive: true });
  const res = await writeReport({ studyId: 'fx1', runsDir, tasksDir: path.join(FIXTURE, 'tasks') });
  reportDir = res.reportDir;
}, 120_000);

afterAll(() => fs.rmSync(runsDir, { recursive: true, force: true }));

test('writes every file', () => {
  for (const f of ['report.md', 'README.md', 'summary.json', 'figure1.svg', 'figure1.png', 'runs.csv', 'runs.parquet', 'labels.csv', 'labels.parquet', 'scores.csv', 'scores.parquet', 'trajectories.csv', 'trajectories.parquet'])
    expect(fs.statSync(path.join(reportDir, f)).size).toBeGreaterThan(0);
  expect(fs.readFileSync(path.join(reportDir, 'figure1.svg'), 'utf8')).toContain('<svg');
  expect(fs.readFileSync(path.join(reportDir, 'figure1.png')).subarray(1, 4).toString()).toBe('PNG');
});

test('report.md opens with the headline (Table III, Figure 1, the run view), then settings; the settings JSON is settings.json', () => {
  const md = fs.readFileSync(path.join(reportDir, 'report.md'), 'utf8');
  const at = (s: string) => md.indexOf(s);
  expect(at('## Table III.')).toBeGreaterThan(0);
  expect(at('## Table III.')).toBeLessThan(at('## Figure 1.'));
  expect(at('## Figure 1.')).toBeLessThan(at('## Every run, one by one'));
  expect(at('## Every run, one by one')).toBeLessThan(at('## Study and settings'));
  expect(at('## Study and settings')).toBeLessThan(at('## Table I.'));
  // Table III's rows come within the report's first 10 lines; no JSON block in the report.
  expect(md.split('\n').slice(0, 10).join('\n')).toContain('| Frozen One-Pass | 2/4 |');
  expect(md).not.toContain('```json');
  expect(md).toContain('`npx lockin view fx1` opens the 15 runs in Inspect\'s log viewer (logs/, 6 eval logs: one per model and condition, the targeted replication\'s apart)');
  const settings = JSON.parse(fs.readFileSync(path.join(reportDir, 'settings.json'), 'utf8'));
  expect(Object.keys(settings)[0]).toBe('settings');
  expect(settings.studyId).toBeUndefined();
});

test('summary.json numbers (worked by hand from the fixture labels and records)', () => {
  const s = JSON.parse(fs.readFileSync(path.join(reportDir, 'summary.json'), 'utf8'));
  expect(s).toMatchObject({ studyId: 'fx1', model: 'replay:fixture', replayed: true, tasks: ['q1', 'q3', 'q7', 'q12'] });
  const common = { tasks: 4, obligations: 32, missingRuns: 0 };
  expect(s.conditions['one-pass']).toEqual({
    ...common, testPassed: 2, executed: 3, referenceAgreement: 1, falsePasses: 1, falsePassRate: 0.25, conditionalFalsePassProportion: 0.5, modelCalls: 4,
    // plan (0.6875 [q1 O7 adjudicated ambiguous→present] + 0.8125 + 0.6875 + 1) / 4; code (0.625 + 0.625 + 0 [execution failed] + 1) / 4
    planScoreMean: 0.796875, codeScoreMean: 0.5625, testScoreMean: 0.71875, sco: 3,
  });
  expect(s.conditions['test-guided']).toEqual({
    ...common, testPassed: 4, executed: 4, referenceAgreement: 1, falsePasses: 3, falsePassRate: 0.75, conditionalFalsePassProportion: 0.75, modelCalls: 7,
    planScoreMean: 0.78125, codeScoreMean: 0.78125, testScoreMean: 0.734375, sco: 5,
  });
  expect(s.conditions['plan-audit']).toEqual({
    ...common, testPassed: 4, executed: 4, referenceAgreement: 2, falsePasses: 2, falsePassRate: 0.5, conditionalFalsePassProportion: 0.5, modelCalls: 27,
    planScoreMean: 0.890625, codeScoreMean: 0.84375, testScoreMean: 0.875, sco: 2,
  });
});

test('report.md: banner, tables and hand-worked cells', () => {
  const md = fs.readFileSync(path.join(reportDir, 'report.md'), 'utf8');
  expect(md).toContain('**REPLAYED**');
  for (const t of ['Table I.', 'Table II.', 'Table III.', 'Table IV.', 'Table V.', 'Table VI.', 'Table VII.', 'Figure 1.']) expect(md).toContain(t);
  // Samples and intervals: Frozen One-Pass has 1 false pass in 4 runs; Wilson 95 % [4.56 %, 69.93 %] by hand.
  expect(md).toContain('## Samples and intervals');
  expect(md).toMatch(/\| Frozen One-Pass \| 4 \| 1\/4 = 25\.0% \[4\.6%, 69\.9%\] \|/);
  expect(JSON.parse(fs.readFileSync(path.join(reportDir, 'intervals.json'), 'utf8')).models[0].conditions[0].rates.falsePass.wilson.x).toBe(1);
  // Table IV: Test-Guided code changes +12.5, 0, +75, 0 → median 6.25, hinges 0 and 43.75
  expect(md).toContain('| Test-Guided Revision | Code | 4 | 21.88 | 2/4 | 2/4 | 0/4 | 6.25 | 0.00 | 43.75 | 43.75 |');
  // the adjudicated label makes q1's Test-Guided plan score decrease
  expect(md).toContain('| Test-Guided Revision | Plan | 4 | -1.56 | 0/4 | 3/4 | 1/4 | 0.00 | -3.13 | 0.00 | 3.13 |');
  expect(md).toContain('| PlanAudit-Guided Revision | Test coverage | 4 | 15.63 | 3/4 | 1/4 | 0/4 | 15.63 | 6.25 | 25.00 | 18.75 |');
  // Table VI
  expect(md).toContain('| Frozen One-Pass | 1 | 3 | 2/3 | 1/3 |');
  expect(md).toContain('| Test-Guided Revision | 3 | 7 | 6/7 | 1/7 |');
  expect(md).toContain('| PlanAudit-Guided Revision | 2 | 5 | 2/5 | 3/5 |');
  // Table VII
  expect(md).toContain('| q1 (r1) | 5/6 F | 6/6 P | 4/7 E |');
  // Trajectories
  expect(md).toContain('| Test-Guided Revision | 7 (2) | 7 (1) | 0 (0) | 18 (5) |');
  expect(md).toContain('| PlanAudit-Guided Revision | 4 (2) | 10 (7) | 1 (1) | 17 (9) |');
  // Table II and V side files; mutation not run
  expect(md).toContain('| **Total** | 4 accept / 3 reject | 3 | 7 | 6/7 | 4 |');
  expect(md).toContain('Reproduced: 4/5 references; 3/4 study tasks.');
  expect(md).toContain('| SQL-reproduced references only | Frozen One-Pass | 3 | 24 | 1/3 | 0/3 | 1/3 | 100.00% | 72.92% | 41.67% | 62.50% |');
  expect(md).toContain('Mutation scores: not run');
  expect(md).toContain('## Deviations from the paper\n\nThis study:\n\n- This study\'s replies were replayed from `replay:fixture`');
  expect(md).toContain('- This study assigned 4 of the 30 study tasks (q1 q3 q7 q12).');
  expect(md).toContain('| Chosen by | 0 named by the paper; 4 chosen by the project (q1 q3 q7 q12) |');
  // the permission deviation of q1 × Test-Guided: a fixture value turned a failing test green
  expect(md).toContain('1 of 1 edits were not allowed by their condition; 1 of those changed fixture data or assertions of a test that failed on the snapshot and passes at the end.');
  expect(md).toContain('| q1 | Test-Guided Revision | test_solution.py | test-fixture-data | no | fixture data in rows: fixture literals changed: 5 -> 10; failing on the snapshot, passing at the end: test_total |');
  expect(md).toContain('| Final labels | plan, code, test: 0 raters-agreed, 1 adjudicated, 95 automated (docs/protocol.md §5 "Final labels": 1 decided rows of labels/final.csv used; no rater labels imported; else automated); 1 decided rows match no labelled run and were ignored: q3 one-pass O12 |');
});

test('sensitivity subsets come from the study setting (study.json), each named with its rule; nothing task-specific in the report code', () => {
  const md = fs.readFileSync(path.join(reportDir, 'report.md'), 'utf8');
  expect(md).toContain(
    [
      '- **Primary (all assigned tasks)** (4 tasks): every assigned task.',
      "- **Excluding q3** (3 tasks): every task but q3 (the fixture's stand-in for the paper's q11).",
      '- **SQL-reproduced references only** (3 tasks): only the tasks whose reference reproduces under SQL re-execution.',
      '- **SQL-reproduced, excluding q3** (2 tasks): both restrictions.',
    ].join('\n'),
  );
  expect(md).toContain('| Excluding q3 | Frozen One-Pass | 3 |');
  // the report's README recomputes each subset with pandas
  const readme = fs.readFileSync(path.join(reportDir, 'README.md'), 'utf8');
  expect(readme).toContain('subsets["Excluding q3"] = scores[~scores.task.isin(["q3"])]\nsubsets["SQL-reproduced references only"] = scores[(scores.reproduced == True)]\nsubsets["SQL-reproduced, excluding q3"] = scores[(scores.reproduced == True) & ~scores.task.isin(["q3"])]');
  const src = fs.readFileSync(path.join(__dirname, '..', '..', 'activities', 'report', 'writeReport.ts'), 'utf8');
  expect(src).not.toMatch(/['"]q\d+[ab]?['"]/);
});

test('without a recorded setting the paper\'s subsets apply (q11 is not in this study, so its two subsets are named as not computed); a bad setting names study.json and the field', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-report-sens-'));
  fs.cpSync(path.join(FIXTURE, 'runs'), dir, { recursive: true });
  const manifestFile = path.join(dir, 'fx1', 'study.json');
  const m = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  delete m.sensitivity;
  fs.writeFileSync(manifestFile, JSON.stringify(m));
  try {
    const { study } = await loadFixture(dir);
    expect(sensitivitySubsets(study).map((s) => [s.name, s.exclude, s.reproducedOnly])).toEqual([
      ['Excluding q11', ['q11'], false],
      ['SQL-reproduced references only', [], true],
      ['SQL-reproduced, excluding q11', ['q11'], true],
    ]);
    await writeReport({ studyId: 'fx1', runsDir: dir, tasksDir: path.join(FIXTURE, 'tasks') });
    const md = fs.readFileSync(path.join(dir, 'fx1', 'report', 'report.md'), 'utf8');
    expect(md).toContain('- not computed: Excluding q11 (excludes no task of this study).');
    expect(md).toContain('- **SQL-reproduced references only** (3 tasks):');
    fs.writeFileSync(manifestFile, JSON.stringify({ ...m, sensitivity: [{ name: 'x', rule: 'y', exclude: ['eleven'] }] }));
    const bad = await loadFixture(dir);
    expect(() => sensitivitySubsets(bad.study)).toThrow(`${manifestFile} (sensitivity.0.exclude.0):`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);

test('provenance of the replies: exact shares from the fixture call files, in the first paragraph, Table III caption and summary.json', () => {
  const md = fs.readFileSync(path.join(reportDir, 'report.md'), 'utf8');
  const first = md.split('\n\n')[1];
  expect(first).toBe(
    '> **REPLAYED**: Of the 7 model replies behind the recorded runs of this study (model `replay:fixture`), 1 (14.3%) recorded from a model before the study, 3 (42.9%) authored by hand by the project, 2 (28.6%) generated from the task obligations by lockin and 1 (14.3%) with no provenance in their call file. ' +
      'Only 1 (14.3%) came from a model (claude-sonnet-4-6). Authored replies, and replies generated from the obligations or the gold solutions, were written with the task references known: they demonstrate the instrument and are no evidence about any model. ' +
      'Rates over all replies mix the two; only a study whose replies all came from a model measures one.',
  );
  expect(md).toContain('Replies behind these outcomes (7): 14.3% recorded from a model before the study; 42.9% authored by hand by the project; 28.6% generated from the task obligations by lockin; 14.3% of unstated provenance. Only the generated and recorded replies are evidence about a model.');
  const s = JSON.parse(fs.readFileSync(path.join(reportDir, 'summary.json'), 'utf8'));
  expect(s.replyProvenance).toEqual({
    total: 7,
    byKind: { generated: 0, recorded: 1, authored: 3, 'generated-from-obligations': 2, 'generated-from-gold': 0, 'generated-from-faults': 0 },
    unstated: 1,
    models: ['claude-sonnet-4-6'],
    authoredPromptOnly: 0,
    withoutRecord: 0,
  });
});

test('provenance paragraph: an all-authored replay study and a live-model study', () => {
  const zero = { generated: 0, recorded: 0, authored: 0, 'generated-from-obligations': 0, 'generated-from-gold': 0, 'generated-from-faults': 0 };
  expect(provenanceParagraph({ total: 190, byKind: { ...zero, authored: 50, 'generated-from-obligations': 140 }, unstated: 0, models: [] }, 'replay:lockin')).toBe(
    'Of the 190 model replies in this study (model `replay:lockin`), 50 (26.3%) authored by hand by the project and 140 (73.7%) generated from the task obligations by lockin. ' +
      'None came from a model. Authored replies, and replies generated from the obligations or the gold solutions, were written with the task references known: they demonstrate the instrument and are no evidence about any model. The rates below describe this replay corpus, not a model.',
  );
  const live = { total: 12, byKind: { ...zero, generated: 12 }, unstated: 0, models: ['claude-sonnet-4-6'] };
  expect(provenanceParagraph(live, 'anthropic:claude-sonnet-4-6')).toBe('Of the 12 model replies in this study (model `anthropic:claude-sonnet-4-6`), 12 (100.0%) generated by a live model during the study. Every reply came from the model claude-sonnet-4-6.');
  expect(provenanceCaption(live)).toBe('Replies behind these outcomes (12): 100.0% generated by a live model during the study.');
});

test('runs.csv says which model answered each run, its sample and the provenance of its replies', () => {
  const lines = fs.readFileSync(path.join(reportDir, 'runs.csv'), 'utf8').trim().split('\n');
  const header = lines[0].split(',');
  expect(header.slice(0, 9)).toEqual(['study', 'task', 'condition', 'replicate', 'present', 'model', 'sample', 'replayed', 'reply_provenance']);
  // fx1's records are replay:fixture, sample 1 (absent = 1), replayed; they list no stages, so no provenance is read.
  const q1 = lines.find((l) => l.startsWith('fx1,q1,one-pass,,'))!.split(',');
  expect(q1.slice(4, 9)).toEqual(['true', 'replay:fixture', '1', 'true', '']);
});

test('runReplyProvenance: the distinct kinds of a run\'s call files, in report order', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-prov-'));
  try {
    const calls = path.join(dir, 'tasks', 'q1', 'test-guided', 'calls');
    fs.mkdirSync(calls, { recursive: true });
    const write = (f: string, body: unknown) => fs.writeFileSync(path.join(calls, f), JSON.stringify(body));
    write('01-generate.json', { stage: 'generate', status: 'ok', provenance: { provenance: 'generated-from-obligations', source: 'tasks/q1/obligations.yaml' } });
    write('02-revise-1.json', { stage: 'revise-1', status: 'ok', provenance: { provenance: 'authored' } });
    write('03-revise-2.json', { stage: 'revise-2', status: 'ok' });
    const rel = (f: string) => path.join('tasks', 'q1', 'test-guided', 'calls', f);
    // relative and absolute call files; a listed file that is gone is skipped
    expect(runReplyProvenance(dir, [{ callFile: rel('01-generate.json') }, { callFile: path.join(calls, '02-revise-1.json') }, { callFile: rel('09-gone.json') }])).toEqual(['authored', 'generated-from-obligations']);
    expect(runReplyProvenance(dir, [{ callFile: rel('03-revise-2.json') }, { callFile: rel('02-revise-1.json') }])).toEqual(['authored', 'unstated']);
    expect(runReplyProvenance(dir, [])).toEqual([]);
    fs.writeFileSync(path.join(calls, '04-bad.json'), '{');
    expect(() => runReplyProvenance(dir, [{ callFile: rel('04-bad.json') }])).toThrow(/04-bad\.json/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('exports read back with pandas/pyarrow and recompute Table III and the label pairing', async () => {
  const script = `
import json, sys, pandas as pd, pyarrow.parquet as pq
d = sys.argv[1]
labels = pq.read_table(d + "/labels.parquet")
runs = pd.read_parquet(d + "/runs.parquet"); lab = labels.to_pandas()
primary = runs[runs.replicate.isna()]
t3 = primary.groupby("condition").agg(tasks=("task", "size"), testPassed=("test_passed", "sum"), executed=("executed", "sum"),
    referenceAgreement=("reference_agreement", "sum"), falsePasses=("false_pass", "sum"), modelCalls=("calls_used", "sum"),
    planScoreMean=("plan_score", "mean"), codeScoreMean=("code_score", "mean"), testScoreMean=("test_score", "mean"), sco=("sco", "sum"))
t3["falsePassRate"] = t3.falsePasses / t3.tasks
t3["conditionalFalsePassProportion"] = t3.falsePasses / t3.testPassed
by_run = lab[lab.replicate.isna()].groupby(["condition"])["plan_weight"].mean()
o7 = lab[(lab.task == "q1") & (lab.condition == "one-pass") & (lab.obligation == "O7") & lab.replicate.isna()].iloc[0]
heur = int((lab.auto_plan_source == "heuristic").sum())
print(json.dumps({"rows": labels.num_rows, "t3": {k: {c: (float(v) if not isinstance(v, str) else v) for c, v in row.items()} for k, row in t3.to_dict("index").items()},
    "planFromLabels": by_run.to_dict(), "o7": [o7.auto_plan, o7.final_plan, o7.final_origin], "heuristic": heur, "runs": len(runs)}))
`;
  const out = await execa(venvPython(), ['-c', script, reportDir]);
  const r = JSON.parse(out.stdout.trim().split('\n').pop()!);
  expect(r.rows).toBe(120); // (12 primary + 3 replicate runs) × 8 obligations
  expect(r.runs).toBe(15);
  expect(r.o7).toEqual(['ambiguous', 'present', 'adjudicated']);
  expect(r.heuristic).toBe(24); // the replicate runs had no labels.json
  const s = JSON.parse(fs.readFileSync(path.join(reportDir, 'summary.json'), 'utf8'));
  for (const c of ['one-pass', 'test-guided', 'plan-audit']) {
    for (const k of ['tasks', 'testPassed', 'executed', 'referenceAgreement', 'falsePasses', 'modelCalls', 'sco', 'falsePassRate', 'conditionalFalsePassProportion', 'planScoreMean', 'codeScoreMean', 'testScoreMean'])
      expect(r.t3[c][k]).toBeCloseTo(s.conditions[c][k], 12);
    // every run has 8 obligations, so the mean label weight equals the mean task score
    expect(r.planFromLabels[c]).toBeCloseTo(s.conditions[c].planScoreMean, 12);
  }
}, 60_000);

test('with mutation.json: Figure 2 (cells framed where the run was a false pass); without it, Figure 2 is removed', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-report-mut-'));
  try {
    fs.cpSync(path.join(FIXTURE, 'runs'), dir, { recursive: true });
    const suite = (task: string, condition: string, validOnGold: boolean, killed: number, total: number) => ({ task, condition, suiteSha: 'x', validOnGold, goldExitCode: validOnGold ? 0 : 1, total, killed, equivalent: 0, undecided: 0, score: validOnGold ? killed / total : null, mutants: [], survivorsByOperator: {} });
    const suites = [suite('q1', 'one-pass', true, 3, 5), suite('q3', 'test-guided', false, 0, 4), suite('q12', 'plan-audit', true, 0, 4)];
    const mutationFile = { studyId: 'fx1', equivalenceScale: 0.01, confirmScale: null, maxPerOperator: 2, suites, mutants: {} };
    fs.writeFileSync(path.join(dir, 'fx1', 'mutation.json'), JSON.stringify(mutationFile));
    const opts = { studyId: 'fx1', runsDir: dir, tasksDir: path.join(FIXTURE, 'tasks') };
    const { reportDir: out } = await writeReport(opts);
    expect(fs.readFileSync(path.join(out, 'figure2-mutation.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(fs.readFileSync(path.join(out, 'figure2-mutation.svg'), 'utf8')).toContain('<svg');
    expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).toContain('](figure2-mutation.svg)');
    expect(
      mutationFigureCells(
        [{ taskId: 'q1', condition: 'one-pass', record: { falsePass: true } }, { taskId: 'q3', condition: 'test-guided', record: { falsePass: true } }, { taskId: 'q12', condition: 'plan-audit', record: { falsePass: false } }],
        parseMutation(mutationFile),
      ),
    ).toEqual([
      { task: 'q1', condition: 'one-pass', valid: true, killed: 3, total: 5, falsePass: true },
      { task: 'q3', condition: 'test-guided', valid: false, killed: 0, total: 4, falsePass: true },
      { task: 'q12', condition: 'plan-audit', valid: true, killed: 0, total: 4, falsePass: false },
    ]);
    fs.rmSync(path.join(dir, 'fx1', 'mutation.json'));
    await writeReport(opts);
    expect(['figure2-mutation.png', 'figure2-mutation.svg', 'mutation.csv'].filter((f) => fs.existsSync(path.join(out, f)))).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);

test('requests paid more than once: the fixture repeat (q3 test-guided revise-1) under Model usage and in summary.json', () => {
  const md = fs.readFileSync(path.join(reportDir, 'report.md'), 'utf8');
  const usage = md.slice(md.indexOf('**Model usage**'), md.indexOf('## Table IV.'));
  expect(usage).toContain(
    '**1 request(s) paid more than once**: sent again after a worker was killed while the first send was in flight (its reply was lost): q3 test-guided revise-1 (call 2). ' +
      'The lost requests are in the ledger (status sent, no completion) but in no record: the totals above leave them out; the repeats cost $0.0123, about what the lost requests cost on top. ' +
      'The API takes no idempotency key, so each was billed again.',
  );
  const s = JSON.parse(fs.readFileSync(path.join(reportDir, 'summary.json'), 'utf8'));
  expect(s.paidMoreThanOnce).toEqual([{ taskId: 'q3', condition: 'test-guided', stage: 'revise-1', callIndex: 2, sample: 1, replicate: null, idempotencyHeader: null, costUsd: 0.0123 }]);
});

test('repeats paragraph: none, and a keyed repeat of a second sample with an unpriced model', () => {
  expect(repeatsParagraph([])).toBe('No request was paid more than once (no call file records a repeat of a lost request).');
  expect(repeatsParagraph([{ taskId: 'q7', condition: 'plan-audit', stage: 'c3-audit', callIndex: 4, sample: 2, replicate: null, idempotencyHeader: 'Idempotency-Key', costUsd: null }])).toBe(
    '**1 request(s) paid more than once**: sent again after a worker was killed while the first send was in flight (its reply was lost): q7~s2 plan-audit c3-audit (call 4, sent with its Idempotency-Key). ' +
      'The lost requests are in the ledger (status sent, no completion) but in no record: the totals above leave them out; the repeats cost $0.0000 (1 unpriced), about what the lost requests cost on top. ' +
      "Each went out with the lost request's idempotency key (a server that honours it answers without billing again).",
  );
});
