/**
 * The report tells the truth about missing and failed runs (findings #15–#19, #17): built from the
 * hand-worked fixture study fx1 (test/fixtures/study/README.md) with task q7 failed as a whole
 * (no record of any condition; failures.json names it with its cause, as q4 in newuser2's study)
 * and q3 × plan-audit failed alone (failures.json `q3/plan-audit`). Two false passes are made
 * alias-only (q1 × one-pass and q1 × test-guided: alias-mismatch, ladder level 1), and q3's
 * test-guided revision reply says in its note that it was written from the task prompt alone.
 *
 * What is left, by condition (fx1's records, q7 and q3 × plan-audit removed):
 *   one-pass:    q1 pass, false pass (alias), q3 fail, q12 pass and agrees → tests 2/4, false passes 1/4
 *   test-guided: q1 false pass (alias), q3 false pass, q12 agrees          → tests 3/4, false passes 2/4
 *   plan-audit:  q1 false pass, q12 agrees                                  → tests 2/4, false passes 1/4
 * Wilson 95 % of 1/4: [4.56 %, 69.94 %]; of 2/4: [15.00 %, 85.00 %]; of 1/3 (the recorded one-pass runs): [6.1 %, 79.2 %].
 * Paired tasks: test-guided q1 q3 q12 (q7 missing); plan-audit q1 q12 (q3 q7 missing).
 * Replies behind recorded runs: q1 snapshot (authored), q1 plan-audit c1-extract and c2-assess
 * (generated from obligations; the judge call is not counted), q3 snapshot (authored), q3
 * test-guided revise-1 (authored, prompt alone) = 5; q7's snapshot (recorded) and revise-1
 * (unstated) are behind no record: 2 left out.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import execa from 'execa';
import { writeReport } from '../../activities/report/writeReport';
import { venvPython } from '../../activities/common/paths';
import { parseFailureKey } from '../../activities/report/failures';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'study');
const TASKS_DIR = path.join(FIXTURE, 'tasks');
const CAUSE = 'replay reply not found: /work/replay/lockin/q7/contract-first/cf-revise-2.md';

let runsDir: string;
let reportDir: string;
let md: string;

/** The body rows of the first Markdown table after `heading` in report.md. */
function tableRows(heading: string): string[] {
  const lines = md.split('\n');
  let i = lines.findIndex((l) => l.startsWith(heading));
  expect(i).toBeGreaterThanOrEqual(0);
  while (!lines[i].startsWith('|')) i++;
  const rows: string[] = [];
  for (i += 2; i < lines.length && lines[i].startsWith('|'); i++) rows.push(lines[i]);
  return rows;
}

/** A CSV export as objects (the fixture's cells hold no commas in the columns read here). */
function csv(name: string): Record<string, string>[] {
  const [head, ...rows] = fs.readFileSync(path.join(reportDir, name), 'utf8').trim().split('\n');
  const cols = head.split(',');
  return rows.map((r) => {
    const cells = r.split(',');
    return Object.fromEntries(cols.map((c, i) => [c, cells[i]]));
  });
}

beforeAll(async () => {
  runsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-missing-'));
  fs.cpSync(path.join(FIXTURE, 'runs'), runsDir, { recursive: true });
  const studyDir = path.join(runsDir, 'fx1');
  const recordsFile = path.join(studyDir, 'records.jsonl');
  const records = fs
    .readFileSync(recordsFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { taskId: string; condition: string; replicate?: string; comparison?: Record<string, unknown> })
    .filter((r) => r.taskId !== 'q7' && !(r.taskId === 'q3' && r.condition === 'plan-audit' && !r.replicate))
    .map((r) => (r.taskId === 'q1' && !r.replicate && (r.condition === 'one-pass' || r.condition === 'test-guided') ? { ...r, comparison: { ...r.comparison, ladderLevel: 1 } } : r));
  fs.writeFileSync(recordsFile, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  fs.writeFileSync(path.join(studyDir, 'failures.json'), JSON.stringify({ failed: [{ task: 'q7', error: CAUSE }, { task: 'q3/plan-audit', error: 'pytest timed out' }] }));
  const revise = path.join(studyDir, 'tasks', 'q3', 'test-guided', 'calls', '02-revise-1.json');
  const call = JSON.parse(fs.readFileSync(revise, 'utf8'));
  call.provenance = { provenance: 'authored', note: 'written by hand from the task prompt alone, never from the SQL or the reference' };
  fs.writeFileSync(revise, JSON.stringify(call));
  reportDir = (await writeReport({ studyId: 'fx1', runsDir, tasksDir: TASKS_DIR })).reportDir;
  md = fs.readFileSync(path.join(reportDir, 'report.md'), 'utf8');
}, 120_000);

afterAll(() => fs.rmSync(runsDir, { recursive: true, force: true }));

test('#15 Table IV and its sensitivity twin pair only tasks with both runs, and name the missing ones', () => {
  const t4 = tableRows('## Table IV.');
  expect(t4.map((r) => r.split(' | ').slice(0, 3).join(' | '))).toEqual([
    '| Test-Guided Revision | Plan | 3 (1 missing: q7)',
    '| Test-Guided Revision | Code | 3 (1 missing: q7)',
    '| Test-Guided Revision | Test coverage | 3 (1 missing: q7)',
    '| PlanAudit-Guided Revision | Plan | 2 (2 missing: q3 q7)',
    '| PlanAudit-Guided Revision | Code | 2 (2 missing: q3 q7)',
    '| PlanAudit-Guided Revision | Test coverage | 2 (2 missing: q3 q7)',
  ]);
  // Every count is over the paired tasks: improved + unchanged + decreased = paired tasks.
  for (const r of t4) {
    const cells = r.split(' | ');
    const n = Number(cells[2].split(' ')[0]);
    expect(cells.slice(4, 7).map((c) => Number(c.split('/')[0])).reduce((a, b) => a + b, 0)).toBe(n);
    expect(cells.slice(4, 7).every((c) => c.endsWith(`/${n}`))).toBe(true);
  }
  const twin = md.split('\n').filter((l) => l.startsWith('| Primary (all assigned tasks) | PlanAudit-Guided Revision | Code |'));
  expect(twin).toHaveLength(1);
  expect(twin[0].split(' | ')[3]).toBe('2 (2 missing: q3 q7)');
  expect(md).toContain('Paired tasks: tasks where both the branch\'s run and the one-pass run have a record');
});

test('#15 scores.csv: a change is empty (null) where the run or its one-pass partner is missing', () => {
  const rows = csv('scores.csv');
  const row = (t: string, c: string) => rows.find((r) => r.task === t && r.condition === c)!;
  for (const c of ['one-pass', 'test-guided', 'plan-audit']) expect([row('q7', c).present, row('q7', c).code_change_pp, row('q7', c).test_passed, row('q7', c).false_pass]).toEqual(['false', '', '', '']);
  expect([row('q3', 'plan-audit').present, row('q3', 'plan-audit').plan_change_pp, row('q3', 'plan-audit').plan_score]).toEqual(['false', '', '0']);
  expect(row('q3', 'test-guided').code_change_pp).not.toBe('');
  expect(row('q1', 'one-pass').code_change_pp).toBe('');
});

test('#16 runs.csv: a missing run has present=false and empty outcomes, not false', () => {
  const q7 = csv('runs.csv').filter((r) => r.task === 'q7' && r.replicate === '');
  expect(q7).toHaveLength(3);
  for (const r of q7)
    expect([r.present, r.test_passed, r.executed, r.reference_agreement, r.false_pass, r.calls_used, r.sco, r.deviations, r.plan_score]).toEqual(['false', '', '', '', '', '', '', '', '0']);
  const q1 = csv('runs.csv').find((r) => r.task === 'q1' && r.condition === 'one-pass' && r.replicate === '')!;
  expect([q1.present, q1.test_passed, q1.false_pass]).toEqual(['true', 'true', 'true']);
});

test('#16 Table III: the rate over all assigned runs with its Wilson interval, and both sections name their denominators', () => {
  expect(tableRows('## Table III.').map((r) => r.split(' | ').slice(0, 7).join(' | '))).toEqual([
    '| Frozen One-Pass | 2/4 | 3/4 | 1/4 | 1/4 | 25.00% [4.56%, 69.94%] | 50.00% (1/2)',
    '| Test-Guided Revision | 3/4 | 3/4 | 1/4 | 2/4 | 50.00% [15.00%, 85.00%] | 66.67% (2/3)',
    '| PlanAudit-Guided Revision | 2/4 | 2/4 | 1/4 | 1/4 | 25.00% [4.56%, 69.94%] | 50.00% (1/2)',
  ]);
  const missing = 'q3 × plan-audit, q7 × one-pass, q7 × test-guided, q7 × plan-audit';
  expect(md).toContain(`4 assigned run(s) have no record (${missing}): here each counts in every denominator as a run that neither passed, executed nor matched, and scores zero on every dimension; "Samples and intervals" below leaves them out, so its rates are over the runs with a record.`);
  expect(md).toContain(`## Samples and intervals\n\nOnly runs with a record count here: the 4 run(s) without one (${missing}) are left out, so a rate's denominator is the recorded runs, while Table III's is every assigned run.`);
  // The intervals section: one-pass 1 false pass of its 3 recorded runs (Wilson by hand: [6.1 %, 79.2 %]).
  expect(md).toMatch(/\| Frozen One-Pass \| 3 \| 1\/3 = 33\.3% \[6\.1%, 79\.2%\] \|/);
});

test('#17 the failed runs are named with their cause, in their own section and under "This study"', () => {
  expect(tableRows('## Failed runs')).toEqual([`| q7 | every condition (the task run failed) | ${CAUSE} |`, '| q3 | PlanAudit-Guided Revision | pytest timed out |']);
  expect(md).toContain('2 task run(s) or condition(s) ended without a run record (runs/<id>/failures.json).');
  expect(md).toContain(`- 2 task run(s) or condition(s) failed and have no run record: q7 (${CAUSE}); q3/plan-audit (pytest timed out). See "Failed runs"; the paper's analysis has every assigned run.`);
  expect(parseFailureKey('q4~s2/contract-first')).toEqual({ task: 'q4~s2', condition: 'contract-first' });
  expect(parseFailureKey('q4@r1')).toEqual({ task: 'q4@r1', condition: null });
});

test('#18 provenance: only replies behind recorded runs, authored ones split by what their authors knew', () => {
  const first = md.split('\n\n')[1];
  expect(first).toBe(
    '> **REPLAYED**: Of the 5 model replies behind the recorded runs of this study (model `replay:fixture`) (2 further replies of runs that have no record are not counted), ' +
      '3 (60.0%) authored by hand by the project (2 with the task references known, 1 from the task prompt alone, as its front matter says) and 2 (40.0%) generated from the task obligations by lockin. ' +
      'None came from a model. Replies authored with the references known, and replies generated from the obligations or the gold solutions, were written with the task references known; the one reply authored from the task prompt alone was not, but it too was written by the project, not sampled from a model. None of these is evidence about any model: they demonstrate the instrument. ' +
      'The rates below describe this replay corpus, not a model.',
  );
  expect(md).toContain('Replies behind these outcomes (5): 60.0% authored by hand by the project (1 of them from the task prompt alone); 40.0% generated from the task obligations by lockin.');
  const s = JSON.parse(fs.readFileSync(path.join(reportDir, 'summary.json'), 'utf8'));
  expect(s.replyProvenance).toEqual({ total: 5, byKind: { generated: 0, recorded: 0, authored: 3, 'generated-from-obligations': 2, 'generated-from-gold': 0, 'generated-from-faults': 0 }, unstated: 0, models: [], authoredPromptOnly: 1, withoutRecord: 2 });
});

test('#19 alias-only false passes are counted per condition under Table III', () => {
  expect(md).toContain(
    'Alias-only false passes (the result differs from the reference only in column names: primary category alias-mismatch, and the normalization ladder agrees at level 1, after renaming): Frozen One-Pass: 1 of 1 false pass is alias-only (all of them); Test-Guided Revision: 1 of 2 false passes is alias-only. Column names are compared (lower-cased), as in the paper; a prompt that does not give a column\'s name makes such a false pass likely.',
  );
});

test('the README recipes run on exports with missing runs and give Table III and Table IV', async () => {
  const readme = fs.readFileSync(path.join(reportDir, 'README.md'), 'utf8');
  const block = readme.split('```python\n')[1].split('```')[0];
  const s = JSON.parse(fs.readFileSync(path.join(reportDir, 'summary.json'), 'utf8'));
  // With pandas' default types, and with the nullable ones the README offers (Int64, boolean).
  for (const prefix of ['', 'import functools, pandas\npandas.read_parquet = functools.partial(pandas.read_parquet, dtype_backend="numpy_nullable")\n']) {
    const script = `${prefix}${block}
import json
print(json.dumps({"t3": {k: {c: float(v) for c, v in row.items()} for k, row in t3.to_dict("index").items()},
                  "pa": {k: (float(v) if v == v else None) for k, v in paired(scores, "plan-audit", "code").items()}}))
`;
    const out = await execa(venvPython(), ['-c', script], { cwd: reportDir });
    const r = JSON.parse(out.stdout.trim().split('\n').pop()!);
    for (const c of ['one-pass', 'test-guided', 'plan-audit'])
      for (const k of ['tasks', 'testPassed', 'executed', 'referenceAgreement', 'falsePasses', 'modelCalls', 'sco', 'falsePassRate', 'planScoreMean', 'codeScoreMean', 'testScoreMean']) expect(r.t3[c][k]).toBeCloseTo(s.conditions[c][k], 12);
    expect([r.pa.n, r.pa.missing]).toEqual([2, 2]);
  }
}, 90_000);

test('#18 a study folder copied elsewhere (records pointing at the old folder) still finds the replies behind its runs', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-moved-'));
  try {
    fs.cpSync(path.join(FIXTURE, 'runs'), dir, { recursive: true });
    const recordsFile = path.join(dir, 'fx1', 'records.jsonl');
    // Primary runs (all labelled in the fixture, so nothing is written there) point at the fixture's own folder.
    const moved = fs
      .readFileSync(recordsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { replicate?: string; conditionDir: string })
      .map((r) => (r.replicate ? r : { ...r, conditionDir: path.join(FIXTURE, 'runs', 'fx1', r.conditionDir) }));
    expect(fs.existsSync(moved[0].conditionDir)).toBe(true);
    fs.writeFileSync(recordsFile, moved.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const out = (await writeReport({ studyId: 'fx1', runsDir: dir, tasksDir: TASKS_DIR })).reportDir;
    const s = JSON.parse(fs.readFileSync(path.join(out, 'summary.json'), 'utf8'));
    expect([s.replyProvenance.total, s.replyProvenance.withoutRecord]).toEqual([7, 0]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
