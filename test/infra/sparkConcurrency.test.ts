/**
 * activities/common/sparkConcurrency.ts: Spark jobs at once per worker. Expectations from its
 * rule (warm: one per two cores, cold: one per core, at least one; LOCKIN_SPARK_CONCURRENCY
 * overrides when it is a positive integer), worked by hand.
 */
import * as os from 'os';
import { defaultSparkConcurrency, sparkConcurrency } from '../../activities/common/sparkConcurrency';

const saved = process.env.LOCKIN_SPARK_CONCURRENCY;
afterEach(() => {
  if (saved === undefined) delete process.env.LOCKIN_SPARK_CONCURRENCY;
  else process.env.LOCKIN_SPARK_CONCURRENCY = saved;
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
