/**
 * Violations stored as diffs against gold (activities/tasks/violation.ts; tasks/README.md
 * "Executable obligations"): written from an edited copy, applied back exactly, refused with the
 * file named when they no longer apply; "Also violates" declarations; the layout problems
 * readTaskForms reports; cross-failures read from a run (check.ts crossFailures).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { crossFailures } from '../../activities/obligations/check';
import { readTaskForms } from '../../activities/tasks/executable';
import { applyViolation, parseViolationDiff, violationDiff, writeViolationSolutions } from '../../activities/tasks/violation';

const GOLD = ['"""Gold."""', 'def solve(spark, tables):', '    a = 1', '    b = 2', '    c = 3', '    d = 4', '    e = 5', '    return a + b', ''].join('\n');
const EDITED = GOLD.replace('    return a + b', '    return a - b');

test('an edited copy becomes a diff with one header line, and applies back to exactly the edited copy', () => {
  const text = violationDiff({ taskId: 'q9', id: 'O4', what: 'subtracts', gold: GOLD, edited: EDITED });
  expect(text.split('\n').slice(0, 5)).toEqual([
    '# Violation of O4 (subtracts) in the gold solution for q9.',
    '--- gold/solution.py',
    '+++ gold/solution.py',
    '@@ -5,4 +5,4 @@',
    '     c = 3',
  ]);
  expect(text.split('\n').filter((l) => /^[-+](?![-+])/.test(l))).toEqual(['-    return a + b', '+    return a - b']);
  expect(applyViolation(GOLD, text, 'v.diff', 'O4')).toBe(EDITED);
  expect(parseViolationDiff(text, 'v.diff', 'O4')).toMatchObject({ what: 'subtracts', also: [] });
});

test('a diff that no longer applies to gold, or names another obligation, is refused naming the file', () => {
  const text = violationDiff({ taskId: 'q9', id: 'O4', what: 'subtracts', gold: GOLD, edited: EDITED });
  expect(() => applyViolation(GOLD.replace('return a + b', 'return b + a'), text, 'tasks/q9/obligations/O4/violation.diff', 'O4')).toThrow(
    /^tasks\/q9\/obligations\/O4\/violation\.diff: no longer applies to gold\/solution\.py/,
  );
  expect(() => applyViolation(GOLD, text, 'x/O5/violation.diff', 'O5')).toThrow(/x\/O5\/violation\.diff \(line 1\): the header names O4, but the folder is O5/);
  expect(() => applyViolation(GOLD, text.split('\n').slice(1).join('\n'), 'v.diff', 'O4')).toThrow(/v\.diff \(line 1\): the first line must be a comment/);
  expect(() => violationDiff({ taskId: 'q9', id: 'O4', what: 'x', gold: GOLD, edited: GOLD })).toThrow(/unchanged/);
});

test('"Also violates" lines declare the other obligations a violation cannot help breaking', () => {
  const text = violationDiff({ taskId: 'q9', id: 'O4', what: 'subtracts', gold: GOLD, edited: EDITED, also: [{ id: 'O7', reason: 'the sign is the order key too' }] });
  expect(text.split('\n')[1]).toBe('# Also violates O7: the sign is the order key too');
  expect(parseViolationDiff(text, 'v.diff', 'O4').also).toEqual([{ id: 'O7', reason: 'the sign is the order key too' }]);
  expect(() => parseViolationDiff(text.replace('Also violates O7', 'Also violates O4'), 'v.diff', 'O4')).toThrow(/v\.diff \(line 2\): "Also violates O4" names the violation's own obligation/);
  expect(() => parseViolationDiff(text.replace('Also violates O7:', 'also violates O7 because'), 'v.diff', 'O4')).toThrow(/line 2/);
});

describe('in a task folder', () => {
  let dir: string;
  const ob = (id: string) => ({ id, statement: `s ${id}`, class: 'prompt-inferable' as const, kind: 'filter' as const, passage: 'p' });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-violation-'));
    fs.mkdirSync(path.join(dir, 'gold'));
    fs.writeFileSync(path.join(dir, 'gold', 'solution.py'), GOLD);
    fs.mkdirSync(path.join(dir, 'acceptance'));
    fs.writeFileSync(path.join(dir, 'acceptance', 'test_acceptance.py'), ['@pytest.mark.obligation("O1")', 'def test_one():', '    pass', '@pytest.mark.obligation("O2")', 'def test_two():', '    pass', ''].join('\n'));
    for (const id of ['O1', 'O2']) fs.mkdirSync(path.join(dir, 'obligations', id), { recursive: true });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('the applied violations are written for a run; a stale diff, a leftover violation.py and an unknown "Also violates" are problems', () => {
    fs.writeFileSync(path.join(dir, 'obligations', 'O1', 'violation.diff'), violationDiff({ taskId: 'q9', id: 'O1', what: 'subtracts', gold: GOLD, edited: EDITED, also: [{ id: 'O9', reason: 'r' }] }));
    fs.writeFileSync(path.join(dir, 'obligations', 'O2', 'violation.py'), EDITED);
    const f = readTaskForms(dir, 'q9', [ob('O1'), ob('O2')], 'obligations.yaml');
    expect(f.forms.map((x) => [x.id, x.status, x.also])).toEqual([['O1', 'executable', ['O9']], ['O2', 'incomplete', undefined]]);
    expect(f.problems.map((p) => p.message)).toEqual([
      '"Also violates O9": obligations.yaml does not define O9',
      'a violation is stored as violation.diff (a diff against gold): write it with `lockin obligations diff`',
      'O2 has acceptance tests but no obligations/O2/violation.diff',
    ]);
    const out = writeViolationSolutions(dir, ['O1'], path.join(dir, 'run'));
    expect(fs.readFileSync(out.get('O1')!, 'utf8')).toBe(EDITED);

    fs.writeFileSync(path.join(dir, 'gold', 'solution.py'), GOLD.replace('return a + b', 'return a * b'));
    const stale = readTaskForms(dir, 'q9', [ob('O1'), ob('O2')], 'obligations.yaml');
    expect(stale.problems[0]).toMatchObject({ file: expect.stringMatching(/obligations\/O1\/violation\.diff$/), message: expect.stringMatching(/^no longer applies to gold\/solution\.py/) });
    expect(() => writeViolationSolutions(dir, ['O1'], path.join(dir, 'run'))).toThrow(/obligations\/O1\/violation\.diff: no longer applies/);
  });
});

test('cross-failures: failing tests not marked with the violation\'s own obligation, per obligation they name', () => {
  const run = { variant: 'O1', exitCode: 1, passed: false, status: 'completed' as const, ms: 1, tests: [
    { name: 't1', obligations: ['O1'], outcome: 'failed' as const },
    { name: 't2', obligations: ['O2', 'O3'], outcome: 'error' as const },
    { name: 't3', obligations: ['O1', 'O4'], outcome: 'failed' as const },
    { name: 't4', obligations: ['O2'], outcome: 'failed' as const },
    { name: 't5', obligations: ['O5'], outcome: 'passed' as const },
  ] };
  expect(crossFailures(run, 'O1')).toEqual([{ id: 'O2', tests: ['t2', 't4'] }, { id: 'O3', tests: ['t2'] }]);
  expect(crossFailures(undefined, 'O1')).toEqual([]);
});
