/**
 * activities/common/sparkConcurrency.ts: Spark jobs at once per worker. Expectations from its
 * rule (warm: one per two cores, cold: one per core, at least one; LOCKIN_SPARK_CONCURRENCY
 * overrides when it is a positive integer), worked by hand.
 */
import * as os from 'os';
import { defaultSparkConcurrency, defaultSuiteProcesses, outputVariantsAtOnce, sparkConcurrency, suiteProcesses } from '../../activities/common/sparkConcurrency';

const saved = process.env.LOCKIN_SPARK_CONCURRENCY;
const savedProcesses = process.env.LOCKIN_SUITE_PROCESSES;
afterEach(() => {
  if (saved === undefined) delete process.env.LOCKIN_SPARK_CONCURRENCY;
  else process.env.LOCKIN_SPARK_CONCURRENCY = saved;
  if (savedProcesses === undefined) delete process.env.LOCKIN_SUITE_PROCESSES;
  else process.env.LOCKIN_SUITE_PROCESSES = savedProcesses;
});

test('warm: one Spark job per two cores; cold: one per core; at least one', () => {
  const cores = [1, 2, 3, 4, 5, 8, 16];
  expect(cores.map((c) => defaultSparkConcurrency(c, 'warm'))).toEqual([1, 1, 1, 2, 2, 4, 8]);
  expect(cores.map((c) => defaultSparkConcurrency(c, 'cold'))).toEqual([1, 2, 3, 4, 5, 8, 16]);
  expect(defaultSparkConcurrency(0, 'cold')).toBe(1);
});

test('LOCKIN_SPARK_CONCURRENCY overrides in both modes when it is a positive integer; otherwise the cores decide', () => {
  process.env.LOCKIN_SPARK_CONCURRENCY = '3';
  expect([sparkConcurrency('warm'), sparkConcurrency('cold')]).toEqual([{ jobs: 3, source: 'env' }, { jobs: 3, source: 'env' }]);
  const byCores = { jobs: defaultSparkConcurrency(os.cpus().length, 'warm'), source: 'cores' };
  for (const bad of ['0', '-2', '1.5', 'two', '']) {
    process.env.LOCKIN_SPARK_CONCURRENCY = bad;
    expect(sparkConcurrency('warm')).toEqual(byCores);
  }
  delete process.env.LOCKIN_SPARK_CONCURRENCY;
  expect(sparkConcurrency('warm')).toEqual(byCores);
  expect(sparkConcurrency('cold')).toEqual({ jobs: Math.max(1, os.cpus().length), source: 'cores' });
});

test('a suite job runs two variants at once when the Spark jobs at once leave two cores each; LOCKIN_SUITE_PROCESSES overrides', () => {
  // cores, jobs at once → processes
  expect([[1, 1], [2, 1], [2, 2], [4, 2], [4, 4], [8, 4], [3, 1], [3, 2]].map(([c, j]) => defaultSuiteProcesses(c, j))).toEqual([1, 2, 1, 2, 1, 2, 2, 1]);
  process.env.LOCKIN_SPARK_CONCURRENCY = '1';
  delete process.env.LOCKIN_SUITE_PROCESSES;
  expect(suiteProcesses('warm')).toBe(os.cpus().length >= 2 ? 2 : 1);
  process.env.LOCKIN_SUITE_PROCESSES = '1';
  expect(suiteProcesses('warm')).toBe(1);
  process.env.LOCKIN_SPARK_CONCURRENCY = String(os.cpus().length);
  process.env.LOCKIN_SUITE_PROCESSES = '2';
  expect(suiteProcesses('cold')).toBe(2);
  for (const bad of ['3', '0', 'two', '']) {
    process.env.LOCKIN_SUITE_PROCESSES = bad;
    expect(suiteProcesses('cold')).toBe(defaultSuiteProcesses(os.cpus().length, os.cpus().length));
  }
});

test('a job of executions runs two variants at once only on a database below SF=1, where a suite job would run two', () => {
  process.env.LOCKIN_SUITE_PROCESSES = '2';
  expect([0.01, 0.1, 0.99, 1, 10].map((scale) => outputVariantsAtOnce('warm', scale))).toEqual([2, 2, 2, 1, 1]);
  process.env.LOCKIN_SUITE_PROCESSES = '1';
  expect([0.01, 1].map((scale) => outputVariantsAtOnce('warm', scale))).toEqual([1, 1]);
  delete process.env.LOCKIN_SUITE_PROCESSES;
  process.env.LOCKIN_SPARK_CONCURRENCY = '1';
  expect(outputVariantsAtOnce('warm', 0.01)).toBe(os.cpus().length >= 2 ? 2 : 1);
});
