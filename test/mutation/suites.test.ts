/**
 * The suite-vs-variants runner (activities/mutation/suites.ts) on a fixture whose answers are
 * known: one suite, gold, a mutant it kills, a mutant it cannot see, a mutant that kills the
 * whole Python process (charged as a crash, the rest continue in a new process); and a second
 * suite that fails gold (invalid). The same variants two at a time (suite_mutants.py --processes
 * 2): the same verdicts, the crash charged only after the rest ran again one at a time; the
 * second process starts beside gold, and what it ran beside a gold that fails the suite is not
 * counted; a suite
 * that creates a temp view under a fixed name passes on every variant (a session each); a suite
 * that stops Spark runs its variants one at a time.
 * The first case runs cold (a JVM per process, as LOCKIN_SPARK_MODE=cold runs it); the others
 * warm, the product's default, in slots of this file (one JVM start-up for all of them instead of
 * one per process: 53 s against 113 s for the file, 2026-12-05).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SUITE_SPARK_FILE, runSuiteOnVariants } from '../../activities/mutation/suites';
import { scoreSuite } from '../../activities/mutation/score';
import { TEST_SPARK_SETTINGS } from '../support/database';
import { stopAllSlots } from '../../activities/execution/slots';

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
  ['crash-1', false, 'crash', null],
  ['sort-1', true, 'completed', 0],
];

test('a valid suite (cold): kills the aggregate mutant, is charged the crash, misses the sort mutant', async () => {
  const runs = await runSuiteOnVariants({ suiteFile: path.join(dir, 'suite/test_solution.py'), variants: variants(), settings: TEST_SPARK_SETTINGS, outDir: path.join(dir, 'out-suite'), perTestTimeoutS: 120, processes: 1, sparkMode: 'cold' });
  expect(runs.map((r) => [r.variant, r.passed, r.status, r.exitCode])).toEqual(VALID_SUITE_RUNS);
  const score = scoreSuite('qx', 'one-pass', 'sha', [
    { id: 'aggregate-function-1', operator: 'aggregate-function', verdict: 'killable' },
    { id: 'crash-1', operator: 'crash', verdict: 'killable' },
    { id: 'sort-1', operator: 'sort', verdict: 'killable' },
    { id: 'rollup-1', operator: 'rollup', verdict: 'equivalent' },
  ], runs);
  expect([score.validOnGold, score.killed, score.total, score.equivalent, score.score]).toEqual([true, 2, 3, 1, 2 / 3]);
  expect(score.survivorsByOperator).toEqual({ sort: 1 });
  expect(fs.existsSync(path.join(dir, 'out-suite', 'junit-gold.xml'))).toBe(true);
  // One Spark record per process: the first ended on crash-1 (charged with it), a second ran the rest.
  const spark = fs.readFileSync(path.join(dir, 'out-suite', SUITE_SPARK_FILE), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { mode: string; order: string[]; charged?: string });
  expect(spark.map((r) => [r.order.join(','), r.charged ?? null])).toEqual([['gold,aggregate-function-1,crash-1,sort-1', 'crash-1'], ['sort-1', null]]);
  expect(spark.map((r) => r.mode)).toEqual(['cold', 'cold']);
}, 600_000);

test('a suite that fails gold is invalid: not run on the mutants by default, and its kills are not counted', async () => {
  const input = { suiteFile: path.join(dir, 'bad/test_solution.py'), variants: variants().filter((v) => v.id !== 'crash-1'), settings: TEST_SPARK_SETTINGS };
  const stopped = await runSuiteOnVariants({ ...input, outDir: path.join(dir, 'out-bad-stopped') });
  expect(stopped.map((r) => [r.variant, r.passed, r.status, r.exitCode])).toEqual([['gold', false, 'completed', 1], ['aggregate-function-1', false, 'not-run', null], ['sort-1', false, 'not-run', null]]);
  // Why it is invalid: gold's first failing test, from its JUnit report.
  expect(stopped[0].failure).toMatch(/^test_solution::test_expects_avg: assert \[\(1, 5\)\] == \[\(1, 2\.5\)\]/);
  const s0 = scoreSuite('qx', 'test-guided', 'sha', [
    { id: 'aggregate-function-1', operator: 'aggregate-function', verdict: 'killable' },
    { id: 'sort-1', operator: 'sort', verdict: 'killable' },
  ], stopped);
  expect([s0.validOnGold, s0.killed, s0.total, s0.score, s0.mutants.map((m) => [m.detected, m.killed, m.status])]).toEqual([false, 0, 2, null, [[false, false, 'not-run'], [false, false, 'not-run']]]);
  expect(s0.goldFailure).toBe(stopped[0].failure);
  // Asked to run them anyway, what it observes is kept (detected) and still not counted.
  const runs = await runSuiteOnVariants({ ...input, outDir: path.join(dir, 'out-bad'), stopIfGoldFails: false });
  expect(runs.map((r) => [r.variant, r.passed])).toEqual([['gold', false], ['aggregate-function-1', true], ['sort-1', false]]);
  const score = scoreSuite('qx', 'test-guided', 'sha', [
    { id: 'aggregate-function-1', operator: 'aggregate-function', verdict: 'killable' },
    { id: 'sort-1', operator: 'sort', verdict: 'killable' },
  ], runs);
  expect([score.validOnGold, score.goldExitCode, score.killed, score.total, score.score]).toEqual([false, 1, 0, 2, null]);
  expect(score.mutants.map((m) => [m.detected, m.killed])).toEqual([[false, false], [true, false]]);
}, 600_000);

test('two at once, the second process starts beside gold: gold and the next variant meet; under a suite that fails gold, what ran beside it is discarded (not-run)', async () => {
  // Each of gold and the first mutant waits up to 15 s, in solve, for the other to have started:
  // met, it aggregates with sum (what the suite expects), else with avg. Run one after the other
  // they would not meet: gold would fail the suite (invalid) and the mutant not run.
  const token = Date.now().toString(36);
  // (The meeting place is the job's private temp folder, named through tempfile: a literal /tmp
  // path would make the suite run one variant at a time, sharedState.ts.)
  const meeting = (me: string, other: string) => sol('sum', [
    '    import os, pathlib, tempfile, time',
    `    pathlib.Path(tempfile.gettempdir(), "meet-${token}-${me}").touch()`,
    '    t = time.time()',
    `    while not os.path.exists(os.path.join(tempfile.gettempdir(), "meet-${token}-${other}")) and time.time() - t < 15:`,
    '        time.sleep(0.05)',
    `    if not os.path.exists(os.path.join(tempfile.gettempdir(), "meet-${token}-${other}")):`,
    '        return tables["t"].groupBy("k").agg(F.avg("v").alias("total"))',
    '',
  ].join('\n'));
  const put = (id: string, text: string) => {
    fs.mkdirSync(path.join(dir, 'meet', id), { recursive: true });
    fs.writeFileSync(path.join(dir, 'meet', id, 'solution.py'), text);
    return { id, solutionFile: path.join(dir, 'meet', id, 'solution.py') };
  };
  const met = [put('gold', meeting('gold', 'm1')), put('m1', meeting('m1', 'gold')), { id: 'aggregate-function-1', solutionFile: path.join(dir, 'aggregate-function-1', 'solution.py') }];
  const runs = await runSuiteOnVariants({ suiteFile: path.join(dir, 'suite/test_solution.py'), variants: met, settings: TEST_SPARK_SETTINGS, outDir: path.join(dir, 'out-meet'), perTestTimeoutS: 120, processes: 2 });
  expect(runs.map((r) => [r.variant, r.passed, r.status])).toEqual([['gold', true, 'completed'], ['m1', true, 'completed'], ['aggregate-function-1', false, 'completed']]);

  // A slow gold (5 s) that fails the bad suite: the mutant the second process finished meanwhile
  // passes it, but gold failed, so it is reported not run, as one after the other.
  const slow = put('slow-gold', sol('sum', '    import time\n    time.sleep(5)\n'));
  const bad = await runSuiteOnVariants({
    suiteFile: path.join(dir, 'bad/test_solution.py'), settings: TEST_SPARK_SETTINGS, outDir: path.join(dir, 'out-bad-two'), processes: 2,
    variants: [{ id: 'gold', solutionFile: slow.solutionFile }, ...variants().filter((v) => v.id === 'aggregate-function-1' || v.id === 'sort-1')],
  });
  expect(bad.map((r) => [r.variant, r.passed, r.status, r.exitCode])).toEqual([['gold', false, 'completed', 1], ['aggregate-function-1', false, 'not-run', null], ['sort-1', false, 'not-run', null]]);
  expect(fs.readFileSync(path.join(dir, 'out-bad-two', 'suite.log'), 'utf8')).toContain('aggregate-function-1 ran beside gold, which failed: its result is discarded (not-run)');

  // The variant beside a failing gold ends the attempt (it kills the job's first process after
  // gold's verdict) before it has a row: it is not run, never run again without gold first.
  const killer = put('killer', sol('sum', '    import os, time\n    time.sleep(10)\n    os.kill(os.getppid(), 9)\n'));
  const ended = await runSuiteOnVariants({
    suiteFile: path.join(dir, 'bad/test_solution.py'), settings: TEST_SPARK_SETTINGS, outDir: path.join(dir, 'out-bad-ended'), processes: 2,
    variants: [{ id: 'gold', solutionFile: slow.solutionFile }, killer, ...variants().filter((v) => v.id === 'sort-1')],
  });
  expect(ended.map((r) => [r.variant, r.passed, r.status])).toEqual([['gold', false, 'completed'], ['killer', false, 'not-run'], ['sort-1', false, 'not-run']]);
  expect(sparkLines('out-bad-ended')).toHaveLength(1);
}, 600_000);

type SparkLine = { order: string[]; charged?: string; processes?: number };
const sparkLines = (out: string): SparkLine[] => fs.readFileSync(path.join(dir, out, SUITE_SPARK_FILE), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SparkLine);

test('two variants at once: the same verdicts; the crash ends the attempt, nothing is charged until the rest runs again one at a time', async () => {
  const runs = await runSuiteOnVariants({ suiteFile: path.join(dir, 'suite/test_solution.py'), variants: variants(), settings: TEST_SPARK_SETTINGS, outDir: path.join(dir, 'out-two'), perTestTimeoutS: 120, processes: 2 });
  expect(runs.map((r) => [r.variant, r.passed, r.status, r.exitCode])).toEqual(VALID_SUITE_RUNS);
  const lines = sparkLines('out-two');
  // The first attempt ran two processes and charged nothing; which process met crash-1 first is
  // a race, so the later attempts (one process each) are checked by what they must hold.
  expect([lines[0].order.join(','), lines[0].processes, lines[0].charged]).toEqual(['gold,aggregate-function-1,crash-1,sort-1', 2, undefined]);
  expect(lines.slice(1).every((l) => l.processes === undefined)).toBe(true);
  expect(lines.filter((l) => l.charged !== undefined).map((l) => l.charged)).toEqual(['crash-1']);
  expect(fs.existsSync(path.join(dir, 'out-two', 'junit-gold.xml'))).toBe(true);
}, 600_000);

test('each variant has a session of its own: a temp view created under a fixed name does not meet the last variant\'s; a suite that stops Spark runs one variant at a time', async () => {
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
  for (const processes of [1, 2] as const) {
    const runs = await runSuiteOnVariants({ suiteFile: once, variants: three, settings: TEST_SPARK_SETTINGS, outDir: path.join(dir, `out-once-${processes}`), perTestTimeoutS: 120, processes });
    expect(runs.map((r) => [r.variant, r.passed, r.exitCode])).toEqual([['gold', true, 0], ['aggregate-function-1', false, 1], ['sort-1', true, 0]]);
    expect(sparkLines(`out-once-${processes}`).map((l) => l.processes ?? 1)).toEqual([processes]);
  }
  const stops = path.join(dir, 'stops/test_solution.py');
  fs.mkdirSync(path.dirname(stops), { recursive: true });
  fs.writeFileSync(stops, `${SUITE}

def test_last(spark):
    assert True
    # a teardown some suites have
    if False:
        spark.stop()
`);
  const runs = await runSuiteOnVariants({ suiteFile: stops, variants: three, settings: TEST_SPARK_SETTINGS, outDir: path.join(dir, 'out-stops'), perTestTimeoutS: 120, processes: 2 });
  expect(runs.map((r) => [r.variant, r.passed])).toEqual([['gold', true], ['aggregate-function-1', false], ['sort-1', true]]);
  expect(sparkLines('out-stops').map((l) => l.processes ?? 1)).toEqual([1]);
  expect(fs.readFileSync(path.join(dir, 'out-stops', 'suite.log'), 'utf8')).toContain('one variant at a time: test_solution.py line 21 stops the SparkContext or session (spark.stop())');
}, 600_000);
