/**
 * Executable obligations (executable labels): the format reader, `obligations check` on a fixture task
 * whose answers are known (test/fixtures/obligations/tasks/q3, violations stored as diffs against
 * its gold: O8 a real violation, O9 a
 * violation that changes nothing, O12 a violation no SF=0.01 row exposes, a test marked with an
 * obligation that does not exist), and executable labels that a comment cannot move.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { measureLabellers } from '../../activities/obligations/accuracy';
import { formatAccuracy } from '../../client/commands/obligations';
import { reasonLine, type TaskObligationsCheck } from '../../activities/obligations/check';
import { executableLabels } from '../../activities/obligations/labels';
import { autoLabels } from '../../activities/scoring/autoLabels';
import { parseAcceptanceTests, readTaskForms } from '../../activities/tasks/executable';
import { loadTaskFolder } from '../../activities/tasks/load';
import { studyLabellerAccuracy } from '../../activities/obligations/studyAccuracy';
import { labellerCheckTask } from '../../activities/obligations';
import { ensureTestDatabase, TEST_SPARK_SETTINGS } from '../support/database';
import { stopAllSlots } from '../../activities/execution/slots';

const ROOT = path.join(__dirname, '..', 'fixtures', 'obligations', 'tasks');
const CANDIDATE = path.join(__dirname, '..', 'fixtures', 'obligations', 'candidate');

test('markers are read per test; a marker naming no id or no test is a problem', () => {
  const text = ['@pytest.mark.obligation("O1")', '@pytest.mark.obligation("O2", "O3")', 'def test_a(spark):', '    pass', '@pytest.mark.obligation()', 'def test_b():', '    pass', '@pytest.mark.obligation("O4")'].join('\n');
  const { tests, problems } = parseAcceptanceTests(text, 't.py');
  expect(tests).toEqual([
    { name: 'test_a', line: 3, obligations: ['O1', 'O2', 'O3'] },
    { name: 'test_b', line: 6, obligations: [] },
  ]);
  expect(problems.map((p) => p.field)).toEqual(['line 5', 'line 8']);
});

test('the fixture task: forms per obligation, and the test marked O99 is a problem naming the file', () => {
  const t = loadTaskFolder(path.join(ROOT, 'q3'));
  const f = readTaskForms(t.dir, t.taskId, t.obligations.obligations, t.obligationsFile);
  expect(f.forms.filter((x) => x.status === 'executable').map((x) => x.id)).toEqual(['O8', 'O9', 'O12']);
  expect(f.forms.filter((x) => x.status === 'not-executable')).toHaveLength(9);
  expect(f.problems).toHaveLength(1);
  expect(f.problems[0].file).toMatch(/acceptance\/test_acceptance\.py$/);
  expect(f.problems[0].message).toMatch(/obligation O99, which .* does not define/);
});

test('labellers are tallied against the known truth: gold satisfied, a violation violated on its own obligation only', () => {
  const ob = (id: string) => ({ id, statement: `s ${id}`, class: 'prompt-inferable' as const, kind: 'filter' as const, passage: 'p' });
  const forms = [{ id: 'O1', status: 'executable' as const, tests: ['t1'] }, { id: 'O2', status: 'executable' as const, tests: ['t2'] }];
  const run = (o1: 'passed' | 'failed', o2: 'passed' | 'failed') => ({ variant: 'v', exitCode: 1, passed: false, status: 'completed' as const, ms: 1,
    tests: [{ name: 't1', obligations: ['O1'], outcome: o1 }, { name: 't2', obligations: ['O2'], outcome: o2 }] });
  // The violation of O1 also fails O2's test: one wrong label (truth satisfied, labelled violated).
  const acc = measureLabellers([ob('O1'), ob('O2')], forms, [
    { variant: 'gold', violates: null, run: run('passed', 'passed'), solution: '' },
    { variant: 'O1', violates: 'O1', run: run('failed', 'failed'), solution: '' },
  ], 'q9');
  const exe = acc.find((a) => a.labeller === 'executable')!;
  expect(exe).toMatchObject({ n: 4, correct: 3, confusion: { satisfied: { satisfied: 2, violated: 1 }, violated: { violated: 1 } } });
  // The wrong label is named (new-user 3 finding 15), in the table's words too.
  expect(exe.errors).toEqual([{ task: 'q9', program: 'O1', obligation: 'O2', truth: 'satisfied', label: 'violated' }]);
  expect(formatAccuracy(acc).split('\n').filter((l) => l.includes('wrong:'))).toEqual(['               wrong: q9 violation O1: O2 (truth satisfied, labelled violated)']);
  expect(acc.find((a) => a.labeller === 'heuristic')!.n).toBe(0); // no output to label from
});

test('reasonLine: a Py4JJavaError shows its Java exception, other reasons their first line', () => {
  const py4j = 'Py4JJavaError: An error occurred while calling o1055.getResult.\n: org.apache.spark.SparkException: Not enough memory to build and broadcast the table\n\tat org.apache.spark.sql.X.y(X.scala:1)\n (solution.py line 21)';
  expect(reasonLine(py4j)).toBe('Py4JJavaError: org.apache.spark.SparkException: Not enough memory to build and broadcast the table');
  expect(reasonLine('ArithmeticException: [DIVIDE_BY_ZERO] Division by zero.\nmore')).toBe('ArithmeticException: [DIVIDE_BY_ZERO] Division by zero.');
  // No Java line after it: the first line stays.
  expect(reasonLine('Py4JJavaError: An error occurred while calling o7.collect.')).toBe('Py4JJavaError: An error occurred while calling o7.collect.');
  expect(reasonLine(undefined)).toBe('');
  expect(reasonLine(py4j, 40)).toBe('Py4JJavaError: org.apache.spark.SparkExc');
});

describe('on the SF=0.01 database', () => {
  beforeAll(() => ensureTestDatabase(0.01), 900_000);
  let home: string | undefined;
  let mode: string | undefined;
  beforeAll(async () => {
    home = process.env.LOCKIN_HOME;
    process.env.LOCKIN_HOME = (await ensureTestDatabase(0.01)).home;
    // Warm, as step 5 runs the labeller check by default: its suites and executions of gold and
    // the violations are jobs of slots (both tests share them; the cold path is
    // test/mutation/suites.test.ts's and generate.test.ts's).
    mode = process.env.LOCKIN_SPARK_MODE;
    process.env.LOCKIN_SPARK_MODE = 'warm';
  });
  afterAll(async () => {
    await stopAllSlots();
    if (home === undefined) delete process.env.LOCKIN_HOME;
    else process.env.LOCKIN_HOME = home;
    if (mode === undefined) delete process.env.LOCKIN_SPARK_MODE;
    else process.env.LOCKIN_SPARK_MODE = mode;
  });

  test('obligations check reports the known answers of the fixture, and a study\'s labeller check caches it per task', async () => {
    // Through the study's labeller check (studyAccuracy.ts), which stores each task's check in its cache.
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-obligations-cache-'));
    const lines: string[] = [];
    // Two at a time: q7 (no forms) ends first, yet the rows keep the order of the tasks.
    const study = await studyLabellerAccuracy({ tasks: ['q3', 'q7'], scale: 0.01, settings: TEST_SPARK_SETTINGS, root: ROOT, cacheDir, concurrency: 2, onProgress: (t, what) => lines.push(`${t}: ${what}`) });
    // Progress: the phases, the acceptance tests' outcome, and each executed program as it finishes (new-user 3 finding 13).
    expect(lines.map((l) => l.replace(/\(\d+ rows\) in \d+ ms$/, '(n rows) in t ms'))).toEqual([
      'q3: acceptance tests on gold and 3 violation(s)',
      'q3: acceptance tests ran on 4 program(s): gold passes, 2 of 3 violation(s) fail them',
      'q3: executing gold and 3 violation(s) on the SF=0.01 database, to compare each with the reference',
      'q3: executed [1/4] gold: ok (n rows) in t ms',
      'q3: executed [2/4] O8: ok (n rows) in t ms',
      'q3: executed [3/4] O9: ok (n rows) in t ms',
      'q3: executed [4/4] O12: ok (n rows) in t ms',
    ]);
    const cached = fs.readdirSync(cacheDir);
    expect(cached).toEqual([expect.stringMatching(/^q3-[0-9a-f]{24}\.json$/)]);
    const r = JSON.parse(fs.readFileSync(path.join(cacheDir, cached[0]), 'utf8')) as TaskObligationsCheck;
    const by = Object.fromEntries(r.obligations.map((o) => [o.id, o]));
    expect(r.ok).toBe(false);
    expect(r.goldFailures).toEqual([]);
    expect(by.O8).toMatchObject({ form: 'executable', goldPasses: true, killed: true, alsoFails: [], alsoDeclared: [], reference: 'disagrees', failures: [] });
    expect(by.O9).toMatchObject({ goldPasses: true, killed: false, reference: 'equivalent', failures: ['the violation passes its own acceptance tests'] });
    // q3 has 20 rows at SF=0.01: dropping LIMIT 100 changes nothing there, but the test sees it.
    expect(by.O12).toMatchObject({ killed: true, reference: 'equivalent', failures: [] });
    expect(by.O1).toMatchObject({ form: 'not-executable', goldPasses: null, killed: null });
    const exe = r.labellers.find((l) => l.labeller === 'executable')!;
    // 4 variants (gold, O8, O9, O12) x 3 executable obligations; the only miss: O9's no-op violation "satisfied".
    expect(exe).toMatchObject({ n: 12, correct: 11 });
    expect(exe.confusion.violated).toEqual({ violated: 2, satisfied: 1 });
    // The study file: q3 checked (12 obligations, 3 executable, 9 not executable), q7 has no form in this corpus.
    expect(study.tasks.map((t) => [t.taskId, t.checked, t.ok, t.obligations, t.executable, t.notExecutable, t.cached])).toEqual([
      ['q3', true, false, 12, 3, 9, false],
      ['q7', false, null, null, 0, 0, false],
    ]);
    // The violations that agree with the reference at SF=0.01 (the report's discrimination section).
    expect(study.tasks[0].equivalentViolations).toEqual(['O9', 'O12']);
    expect(study.labellers.find((l) => l.labeller === 'executable')).toMatchObject({ n: 12, correct: 11, confusion: { satisfied: { satisfied: 9 }, violated: { violated: 2, satisfied: 1 } } });
    // Again: read from the cache (no Spark), the same figures.
    const again = await studyLabellerAccuracy({ tasks: ['q3', 'q7'], scale: 0.01, settings: TEST_SPARK_SETTINGS, root: ROOT, cacheDir });
    expect(again.tasks[0].cached).toBe(true);
    expect(again.labellers).toEqual(study.labellers);
    // The mutation lanes' check of one task (labellerCheckTask) reads and fills the same cache:
    // q3 is cached now, q7 has no form (nothing to check), q5 is not the study's.
    const saved = { runs: process.env.LOCKIN_RUNS, tasks: process.env.LOCKIN_TASKS, cache: process.env.LOCKIN_OBLIGATIONS_CACHE };
    const runsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-check-runs-'));
    fs.mkdirSync(path.join(runsDir, 's'));
    fs.writeFileSync(path.join(runsDir, 's', 'study.json'), JSON.stringify({ tasks: ['q3', 'q7'], scale: 0.01, settings: TEST_SPARK_SETTINGS }));
    Object.assign(process.env, { LOCKIN_RUNS: runsDir, LOCKIN_TASKS: ROOT, LOCKIN_OBLIGATIONS_CACHE: cacheDir });
    try {
      expect(await labellerCheckTask({ studyId: 's', taskId: 'q3', scale: 0.01 })).toEqual({ taskId: 'q3', cached: true });
      expect(await labellerCheckTask({ studyId: 's', taskId: 'q7', scale: 0.01 })).toEqual({ taskId: 'q7', cached: false });
      await expect(labellerCheckTask({ studyId: 's', taskId: 'q5', scale: 0.01 })).rejects.toThrow("task q5 is not one of the study's tasks");
    } finally {
      for (const [k, v] of [['LOCKIN_RUNS', saved.runs], ['LOCKIN_TASKS', saved.tasks], ['LOCKIN_OBLIGATIONS_CACHE', saved.cache]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }, 900_000);

  test('a comment and assert True move the heuristic labels, not the executable ones', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-x-labels-'));
    for (const f of ['solution.py', 'test_solution.py']) fs.copyFileSync(path.join(CANDIDATE, f), path.join(dir, f));
    const runsBefore = process.env.LOCKIN_RUNS;
    process.env.LOCKIN_RUNS = path.join(dir, 'runs');
    const { labels } = await executableLabels({ taskId: 'q3', conditionDir: dir, settings: TEST_SPARK_SETTINGS, tasksDir: ROOT, reuseScope: 'labels-reuse' });
    // A second condition that kept the same artifacts, in the same study: its labels are copied, not run again.
    const twin = path.join(dir, 'twin');
    fs.mkdirSync(twin);
    for (const f of ['solution.py', 'test_solution.py']) fs.copyFileSync(path.join(CANDIDATE, f), path.join(twin, f));
    const again = await executableLabels({ taskId: 'q3', conditionDir: twin, settings: TEST_SPARK_SETTINGS, tasksDir: ROOT, reuseScope: 'labels-reuse' });
    expect(again.labels).toEqual(labels);
    const reusedFrom = (d: string, half: string) => {
      const f = path.join(d, 'executable-labels', half, 'reused.json');
      return fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')).from : null;
    };
    expect(reusedFrom(twin, 'acceptance')).toBe(path.join(dir, 'executable-labels', 'acceptance'));
    expect(reusedFrom(twin, 'suite')).toBe(path.join(dir, 'executable-labels', 'suite'));
    expect(JSON.parse(fs.readFileSync(path.join(twin, 'executable-labels.json'), 'utf8'))).toEqual(labels);
    // A condition that revised only its solution (here: to gold's) keeps the suite: its test labels
    // are copied, its code labels are run again, and now every obligation is satisfied.
    const revised = path.join(dir, 'revised');
    fs.mkdirSync(revised);
    fs.copyFileSync(path.join(ROOT, 'q3', 'gold', 'solution.py'), path.join(revised, 'solution.py'));
    fs.copyFileSync(path.join(CANDIDATE, 'test_solution.py'), path.join(revised, 'test_solution.py'));
    const rev = await executableLabels({ taskId: 'q3', conditionDir: revised, settings: TEST_SPARK_SETTINGS, tasksDir: ROOT, reuseScope: 'labels-reuse' });
    expect(reusedFrom(revised, 'acceptance')).toBeNull();
    expect(reusedFrom(revised, 'suite')).toBe(path.join(dir, 'executable-labels', 'suite'));
    expect(Object.fromEntries(Object.entries(rev.labels.code).map(([k, v]) => [k, v.label]))).toEqual({ O8: 'satisfied', O9: 'satisfied', O12: 'satisfied' });
    expect(rev.labels.test).toEqual(labels.test);
    if (runsBefore === undefined) delete process.env.LOCKIN_RUNS;
    else process.env.LOCKIN_RUNS = runsBefore;
    // The candidate lacks the manufacturer filter: O8 violated; its suite asserts nothing: nothing covered.
    expect(Object.fromEntries(Object.entries(labels.code).map(([k, v]) => [k, v.label]))).toEqual({ O8: 'violated', O9: 'satisfied', O12: 'satisfied' });
    expect(Object.fromEntries(Object.entries(labels.test).map(([k, v]) => [k, v.label]))).toEqual({ O8: 'not-covered', O9: 'not-covered', O12: 'not-covered' });
    const obligations = loadTaskFolder(path.join(ROOT, 'q3')).obligations.obligations.filter((o) => o.id === 'O8');
    const artifacts = { plan: '', solution: fs.readFileSync(path.join(dir, 'solution.py'), 'utf8'), tests: fs.readFileSync(path.join(dir, 'test_solution.py'), 'utf8') };
    const input = { obligations, artifacts, executed: true, outputSchema: null, comparison: { agree: false, categories: ['values' as const] }, judge: null };
    // Without executable labels the heuristic reads the comment and the assert True as evidence.
    expect(autoLabels(input)[0]).toMatchObject({ code: 'satisfied', test: 'covered', source: { code: 'heuristic', test: 'heuristic' } });
    expect(autoLabels({ ...input, executable: labels })[0]).toMatchObject({ code: 'violated', test: 'not-covered', source: { code: 'executable', test: 'executable' } });
    fs.rmSync(dir, { recursive: true, force: true });
  }, 900_000);
});
