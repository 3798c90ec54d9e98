/**
 * The report shows exactly the study's conditions (study.json `conditions`, in Table I order):
 * a two-condition study gets two rows in Tables I, III and VI and only its branch in Table IV
 * (no zero rows for the paper's other conditions), a four-condition study gets four. Both are
 * built from the hand-worked fixture study fx1 (test/fixtures/study/README.md): the two-condition
 * one keeps fx1's one-pass and plan-audit records; the four-condition one adds a Contract-First
 * run per task that is a copy of fx1's test-guided run (same record and labels), so its row must
 * equal the test-guided row worked out by hand (tests 4/4, false passes 3/4, calls 7, plan
 * 0.78125, code 0.78125, test 0.734375, 5 SCOs).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { writeReport } from '../../activities/report/writeReport';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'study');
const TASKS_DIR = path.join(FIXTURE, 'tasks');

/** A copy of fx1 under a temporary runs folder, its records and manifest rewritten by `edit`. */
function variant(edit: (records: Record<string, unknown>[], studyDir: string) => { records: Record<string, unknown>[]; conditions: string[] }): string {
  const runsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-conds-'));
  fs.cpSync(path.join(FIXTURE, 'runs'), runsDir, { recursive: true });
  const studyDir = path.join(runsDir, 'fx1');
  const recordsFile = path.join(studyDir, 'records.jsonl');
  const records = fs.readFileSync(recordsFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const out = edit(records, studyDir);
  fs.writeFileSync(recordsFile, out.records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const manifestFile = path.join(studyDir, 'study.json');
  fs.writeFileSync(manifestFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifestFile, 'utf8')), conditions: out.conditions }, null, 1));
  return runsDir;
}

/** The body rows of the first Markdown table after `heading` in report.md. */
function tableRows(md: string, heading: string): string[] {
  const lines = md.split('\n');
  let i = lines.findIndex((l) => l.startsWith(heading));
  expect(i).toBeGreaterThanOrEqual(0);
  while (!lines[i].startsWith('|')) i++;
  const rows: string[] = [];
  for (i += 2; i < lines.length && lines[i].startsWith('|'); i++) rows.push(lines[i]);
  return rows;
}
const firstCells = (rows: string[]) => rows.map((r) => r.split(' | ')[0].replace(/^\| /, ''));

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

test('a two-condition study (one-pass, plan-audit): exactly those two in every per-condition table', async () => {
  const runsDir = variant((records) => ({ records: records.filter((r) => r.condition !== 'test-guided'), conditions: ['plan-audit', 'one-pass'] }));
  dirs.push(runsDir);
  const res = await writeReport({ studyId: 'fx1', runsDir, tasksDir: TASKS_DIR });
  const md = fs.readFileSync(path.join(res.reportDir, 'report.md'), 'utf8');
  const two = ['Frozen One-Pass', 'PlanAudit-Guided Revision'];
  expect(firstCells(tableRows(md, '## Table I.'))).toEqual(two);
  expect(tableRows(md, '## Table III.')).toEqual([
    '| Frozen One-Pass | 2/4 | 3/4 | 1/4 | 1/4 | 25.00% [4.56%, 69.94%] | 50.00% (1/2) | 4 | 79.69% | 56.25% | 71.88% | 3 |',
    '| PlanAudit-Guided Revision | 4/4 | 4/4 | 2/4 | 2/4 | 50.00% [15.00%, 85.00%] | 50.00% (2/4) | 27 | 89.06% | 84.38% | 87.50% | 2 |',
  ]);
  // Table IV: the one branch of the study, its paired changes as in the three-condition report.
  const t4 = tableRows(md, '## Table IV.');
  expect(firstCells(t4)).toEqual(['PlanAudit-Guided Revision', 'PlanAudit-Guided Revision', 'PlanAudit-Guided Revision']);
  expect(t4[2]).toBe('| PlanAudit-Guided Revision | Test coverage | 4 | 15.63 | 3/4 | 1/4 | 0/4 | 15.63 | 6.25 | 25.00 | 18.75 |');
  expect(firstCells(tableRows(md, '## Table VI.'))).toEqual(two);
  expect(tableRows(md, '## Table VII.')[0]).toBe('| q1 (r1) | 5/6 F | 4/7 E |');
  expect(firstCells(tableRows(md, '**Model usage**'))).toEqual(two);
  expect(firstCells(tableRows(md, '## Trajectories'))).toEqual(['PlanAudit-Guided Revision']);
  expect(md).toContain('| Runs missing a record | none |');
  expect(md).not.toContain('Test-Guided');
  expect(Object.keys(res.summary)).toEqual(['one-pass', 'plan-audit']);
  expect(Object.keys(JSON.parse(fs.readFileSync(path.join(res.reportDir, 'summary.json'), 'utf8')).conditions)).toEqual(['one-pass', 'plan-audit']);
}, 120_000);

test('a four-condition study: four rows in Table III in Table I order, three branches in Table IV', async () => {
  const runsDir = variant((records, studyDir) => {
    const copies = records
      .filter((r) => r.condition === 'test-guided' && !r.replicate)
      .map((r) => {
        const from = path.join(studyDir, String(r.conditionDir));
        const to = path.join(path.dirname(from), 'contract-first');
        fs.cpSync(from, to, { recursive: true, filter: (src) => path.basename(src) !== 'calls' });
        return { ...r, condition: 'contract-first', conditionDir: path.relative(studyDir, to) };
      });
    return { records: [...copies, ...records], conditions: ['one-pass', 'test-guided', 'plan-audit', 'contract-first'] };
  });
  dirs.push(runsDir);
  const res = await writeReport({ studyId: 'fx1', runsDir, tasksDir: TASKS_DIR });
  const md = fs.readFileSync(path.join(res.reportDir, 'report.md'), 'utf8');
  const four = ['Frozen One-Pass', 'Test-Guided Revision', 'PlanAudit-Guided Revision', 'Contract-First Revision'];
  expect(firstCells(tableRows(md, '## Table I.'))).toEqual(four);
  const t3 = tableRows(md, '## Table III.');
  expect(firstCells(t3)).toEqual(four);
  expect(t3[1]).toBe('| Test-Guided Revision | 4/4 | 4/4 | 1/4 | 3/4 | 75.00% [30.06%, 95.44%] | 75.00% (3/4) | 7 | 78.13% | 78.13% | 73.44% | 5 |');
  expect(t3[3]).toBe('| Contract-First Revision | 4/4 | 4/4 | 1/4 | 3/4 | 75.00% [30.06%, 95.44%] | 75.00% (3/4) | 7 | 78.13% | 78.13% | 73.44% | 5 |');
  expect([...new Set(firstCells(tableRows(md, '## Table IV.')))]).toEqual(four.slice(1));
  expect(md).toContain('| Runs missing a record | none |');
  expect(Object.keys(res.summary)).toEqual(['one-pass', 'test-guided', 'plan-audit', 'contract-first']);
}, 120_000);
