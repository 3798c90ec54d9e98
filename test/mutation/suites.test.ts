/**
 * The suite-vs-variants runner (activities/mutation/suites.ts, activities/python/suite_zygote.py)
 * on a fixture whose answers are known: one suite, gold, a mutant it kills, a mutant it cannot
 * see, a mutant that ends its own process (a crash of that variant alone: since the blind variants each
 * variant is a child process of its own); a second suite that fails gold (invalid). The hostile
 * suites (docs/verdicts.md "Blindness"), in cold and warm Spark modes
 * (MODES_UNDER_TEST): one asserting its folder is named gold (it fails gold: invalid), one that
 * looks for other variants' files through the JVM and /tmp, and for a marker an earlier variant
 * left (it sees only its own, on every variant), one the reach check refuses (never run). A
 * suite that creates a temp view under a fixed name passes on every variant (a session each); a
 * suite that stops Spark ends its JVM, and the rest goes on in a new one.
 * The first case runs cold (a JVM per job, as LOCKIN_SPARK_MODE=cold runs it); the others warm,
 * the product's default, unless MODES_UNDER_TEST says cold too.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SUITE_SPARK_FILE, runSuiteOnVariants } from '../../activities/mutation/suites';
import { scoreSuite } from '../../activities/mutation/score';
import { TEST_SPARK_SETTINGS } from '../support/database';
import { stopAllSlots } from '../../activities/execution/slots';
import { MODES_UNDER_TEST } from '../support/modes';

const SUITE = `from solution import solve


def _t(spark):
    return {"t": spark.createDataFrame([(1, 2), (1, 3), (2, 5)], "k int, v int")}


def test_totals(spark):
    rows = sorted(tuple(r) for r in solve(spark, _t(spark)).collect())
    assert rows == [(1, 5), (2, 5)]


def test_columns(spark):
    assert solve(spark, _t(spark)).columns == ["k", "total"]
`;
const BAD_SUITE = `from solution import solve


def test_expects_avg(spark):
    df = spark.createDataFrame([(1, 2), (1, 3)], "k int, v int")
    assert [tuple(r) for r in solve(spark, {"t": df}).collect()] == [(1, 2.5)]
`;
const sol = (agg: string, extra = '') => `from pyspark.sql import functions as F


def solve(spark, tables):
${extra}    return tables["t"].groupBy("k").agg(F.${agg}("v").alias("total"))
`;

let dir: string;
const savedMode = process.env.LOCKIN_SPARK_MODE;
beforeAll(() => {
  process.env.LOCKIN_SPARK_MODE = 'warm';
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-mut-test-'));
  const write = (name: string, text: string) => {
    fs.mkdirSync(path.join(dir, path.dirname(name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  write('suite/test_solution.py', SUITE);
  write('bad/test_solution.py', BAD_SUITE);
  write('gold/solution.py', sol('sum'));
  write('aggregate-function-1/solution.py', sol('avg'));
  // Sorting differently: the suite sorts the rows itself, so it cannot see this.
  write('sort-1/solution.py', sol('sum').replace('.alias("total"))', '.alias("total")).orderBy(F.col("k").desc())'));
  write('crash-1/solution.py', sol('sum', '    import os\n    os._exit(3)\n'));
});
afterAll(async () => {
  await stopAllSlots();
  if (savedMode === undefined) delete process.env.LOCKIN_SPARK_MODE;
  else process.env.LOCKIN_SPARK_MODE = savedMode;
  fs.rmSync(dir, { recursive: true, force: true });
});

const variants = () => ['gold', 'aggregate-function-1', 'crash-1', 'sort-1'].map((id) => ({ id, solutionFile: path.join(dir, id, 'solution.py') }));
/** The valid suite on variants(): [variant, passed, status, exit code], worked out from the fixture above. */
const VALID_SUITE_RUNS = [
  ['gold', true, 'completed', 0],
  ['aggregate-function-1', false, 'completed', 1],
  ['crash-1', false, 'crash', 3],
  ['sort-1', true, 'completed', 0],
];

type SparkLine = { mode: string; order: string[]; ran: string[]; charged?: string };
const sparkLines = (out: string): SparkLine[] => fs.readFileSync(path.join(dir, out, SUITE_SPARK_FILE), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SparkLine);

test('a valid suite (cold): kills the aggregate mutant, the crash is that variant\'s alone, misses the sort mutant; one job, every variant in a random order', async () => {
  const runs = await runSuiteOnVariants({ suiteFile: path.join(dir, 'suite/test_solution.py'), variants: variants(), settings: TEST_SPARK_SETTINGS, outDir: path.join(dir, 'out-suite'), perTestTimeoutS: 120, sparkMode: 'cold', processes: 1 });
  expect(runs.map((r) => [r.variant, r.passed, r.status, r.exitCode])).toEqual(VALID_SUITE_RUNS);
  expect(runs[2].notPassedBecause).toBe('the process ended (exit 3) before pytest returned: the suite or the code under test ended it; a test\'s phases were not reported once each, in order: test_solution::test_totals (setup)');
  const score = scoreSuite('qx', 'one-pass', 'sha', [
    { id: 'aggregate-function-1', operator: 'aggregate-function', verdict: 'killable' },
    { id: 'crash-1', operator: 'crash', verdict: 'killable' },
    { id: 'sort-1', operator: 'sort', verdict: 'killable' },
    { id: 'rollup-1', operator: 'rollup', verdict: 'equivalent' },
  ], runs);
  expect([score.validOnGold, score.killed, score.total, score.equivalent, score.score]).toEqual([true, 2, 3, 1, 2 / 3]);
  expect(score.survivorsByOperator).toEqual({ sort: 1 });
  const spark = sparkLines('out-suite');
  expect(spark).toHaveLength(1);
  expect(spark[0].mode).toBe('cold');
  expect([...spark[0].ran].sort()).toEqual(['aggregate-function-1', 'crash-1', 'gold', 'sort-1']);
  expect(spark[0].charged).toBeUndefined();
}, 600_000);

test('a suite that fails gold is invalid: what comes after gold is not run, nothing counts, and why is gold\'s first failure', async () => {
  const input = { suiteFile: path.join(dir, 'bad/test_solution.py'), variants: variants().filter((v) => v.id !== 'crash-1'), settings: TEST_SPARK_SETTINGS };
  const stopped = await runSuiteOnVariants({ ...input, outDir: path.join(dir, 'out-bad-stopped') });
  expect([stopped[0].passed, stopped[0].status, stopped[0].exitCode]).toEqual([false, 'completed', 1]);
  // In a random order, a mutant before gold ran (aggregate-function-1 passes the bad suite, sort-1 fails it); one after it did not.
  expect(stopped.slice(1).map((r) => (r.status === 'not-run' ? 'not-run' : `${r.variant} ${r.passed}`)).every((x) => ['not-run', 'aggregate-function-1 true', 'sort-1 false'].includes(x))).toBe(true);
  expect(stopped[0].failure).toMatch(/^test_solution::test_expects_avg: AssertionError: assert \[\(1, 5\)\] == \[\(1, 2\.5\)\]/);
  const s0 = scoreSuite('qx', 'test-guided', 'sha', [
    { id: 'aggregate-function-1', operator: 'aggregate-function', verdict: 'killable' },
    { id: 'sort-1', operator: 'sort', verdict: 'killable' },
  ], stopped);
  expect([s0.validOnGold, s0.killed, s0.total, s0.score]).toEqual([false, 0, 2, null]);
  expect(s0.goldFailure).toBe(stopped[0].failure);
  const runs = await runSuiteOnVariants({ ...input, outDir: path.join(dir, 'out-bad'), stopIfGoldFails: false });
  expect(runs.map((r) => [r.variant, r.passed])).toEqual([['gold', false], ['aggregate-function-1', true], ['sort-1', false]]);
  const score = scoreSuite('qx', 'test-guided', 'sha', [
    { id: 'aggregate-function-1', operator: 'aggregate-function', verdict: 'killable' },
    { id: 'sort-1', operator: 'sort', verdict: 'killable' },
  ], runs);
  expect([score.validOnGold, score.goldExitCode, score.killed, score.total, score.score]).toEqual([false, 1, 0, 2, null]);
  expect(score.mutants.map((m) => [m.detected, m.killed])).toEqual([[false, false], [true, false]]);
}, 600_000);

describe.each(MODES_UNDER_TEST)('hostile suites, %s Spark', (mode) => {
  const three = () => variants().filter((v) => v.id !== 'crash-1');
  const suite = (name: string, text: string) => {
    const f = path.join(dir, `${mode}-${name}`, 'test_solution.py');
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, text);
    return f;
  };

  test('"my folder is named gold" fails gold (invalid, not a perfect score); looking for other variants (their files through the JVM and /tmp, the old shared mount, a marker an earlier variant left) finds only its own, on every variant', async () => {
    const f = suite('looks', [
      'import os',
      '',
      'from solution import solve',
      '',
      '',
      'def test_alone(spark):',
      '    here = os.path.dirname(os.path.abspath(__file__))',
      '    seen = spark.read.text("file:///tmp/*/solution.py").inputFiles()',
      '    assert [os.path.dirname(os.path.normpath(p[len("file:"):])) for p in seen] == [here]',
      '    assert not os.path.exists("/lockin/variants")',
      '',
      '',
      'def test_on_gold():',
      '    assert os.path.basename(os.path.dirname(os.path.abspath(__file__))) == "gold"',
      '',
      '',
      'def test_first():',
      '    first = not os.path.exists("/tmp/lockin-hostile-marker")',
      '    with open("/tmp/lockin-hostile-marker", "w") as fh:',
      '        fh.write("an earlier variant ran")',
      '    assert first',
      '',
      '',
      'def test_totals(spark):',
      '    df = spark.createDataFrame([(1, 2), (1, 3), (2, 5)], "k int, v int")',
      '    assert sorted(tuple(r) for r in solve(spark, {"t": df}).collect()) == [(1, 5), (2, 5)]',
      '',
    ].join('\n'));
    const runs = await runSuiteOnVariants({ suiteFile: f, variants: three(), settings: TEST_SPARK_SETTINGS, outDir: path.join(dir, `out-${mode}-looks`), sparkMode: mode, full: true, stopIfGoldFails: false });
    expect(runs.map((r) => [r.variant, r.passed, (r.tests ?? []).map((t) => `${t.name}:${t.outcome}`).join(' ')])).toEqual([
      ['gold', false, 'test_alone:passed test_on_gold:failed test_first:passed test_totals:passed'],
      ['aggregate-function-1', false, 'test_alone:passed test_on_gold:failed test_first:passed test_totals:failed'],
      ['sort-1', false, 'test_alone:passed test_on_gold:failed test_first:passed test_totals:passed'],
    ]);
    expect(runs[0].failure).toMatch(/^test_solution::test_on_gold: AssertionError: assert 'v[0-9a-f]+\.\.\.[0-9a-f]+' == 'gold'/);
    expect(scoreSuite('qx', 'one-pass', 'sha', [{ id: 'aggregate-function-1', operator: 'a', verdict: 'killable' }, { id: 'sort-1', operator: 's', verdict: 'killable' }], runs)).toMatchObject({ validOnGold: false, killed: 0, score: null });
  }, 600_000);

  test('a suite the reach check refuses is never run: every variant refused, invalid on gold with the reason', async () => {
    const f = suite('refused', 'import os\n\n\ndef test_x():\n    os._exit(0)\n');
    const runs = await runSuiteOnVariants({ suiteFile: f, variants: three(), settings: TEST_SPARK_SETTINGS, outDir: path.join(dir, `out-${mode}-refused`), sparkMode: mode });
    const why = 'reaches os._exit (not among the os attributes a test needs) (test_solution.py line 5)';
    expect(runs.map((r) => [r.variant, r.passed, r.status, r.notPassedBecause])).toEqual(three().map((v) => [v.id, false, 'refused', why]));
    expect(scoreSuite('qx', 'one-pass', 'sha', [{ id: 'aggregate-function-1', operator: 'a', verdict: 'killable' }, { id: 'sort-1', operator: 's', verdict: 'killable' }], runs)).toMatchObject({ validOnGold: false, goldFailure: why, killed: 0 });
    expect(fs.existsSync(path.join(dir, `out-${mode}-refused`, SUITE_SPARK_FILE))).toBe(false); // no job ran
  }, 600_000);
});

test('each variant has a session of its own: a temp view created under a fixed name does not meet another variant\'s; a suite that stops Spark ends the JVM and the rest goes on in a new one', async () => {
  const once = path.join(dir, 'once/test_solution.py');
  fs.mkdirSync(path.dirname(once), { recursive: true });
  fs.writeFileSync(once, `from solution import solve


def test_view_once(spark):
    df = spark.createDataFrame([(1, 2), (1, 3), (2, 5)], "k int, v int")
    df.createTempView("t_once")
    rows = sorted(tuple(r) for r in solve(spark, {"t": spark.table("t_once")}).collect())
    assert rows == [(1, 5), (2, 5)]
`);
  const three = variants().filter((v) => v.id !== 'crash-1');
  const runs = await runSuiteOnVariants({ suiteFile: once, variants: three, settings: TEST_SPARK_SETTINGS, outDir: path.join(dir, 'out-once'), perTestTimeoutS: 120, processes: 1 });
  expect(runs.map((r) => [r.variant, r.passed, r.exitCode])).toEqual([['gold', true, 0], ['aggregate-function-1', false, 1], ['sort-1', true, 0]]);
  expect(sparkLines('out-once')).toHaveLength(1);
  const stops = path.join(dir, 'stops/test_solution.py');
  fs.mkdirSync(path.dirname(stops), { recursive: true });
  fs.writeFileSync(stops, `${SUITE}

def test_zz_last(spark):
    spark.stop()
`);
  // gold stops the SparkContext in its last test (the mutant stops at its first failure): when gold
  // runs first the mutant runs in a new job (a new JVM); either way the verdicts are the same.
  const two = three.filter((v) => v.id !== 'sort-1');
  const stopped = await runSuiteOnVariants({ suiteFile: stops, variants: two, settings: TEST_SPARK_SETTINGS, outDir: path.join(dir, 'out-stops'), perTestTimeoutS: 120, processes: 1 });
  expect(stopped.map((r) => [r.variant, r.passed])).toEqual([['gold', true], ['aggregate-function-1', false]]);
  const log = fs.readFileSync(path.join(dir, 'out-stops', 'suite.log'), 'utf8');
  const goldFirst = log.includes('--- order: gold,');
  expect(sparkLines('out-stops')).toHaveLength(goldFirst ? 2 : 1);
  if (goldFirst) expect(log).toMatch(/after gold the JVM is not as it started \(/);
}, 600_000);
