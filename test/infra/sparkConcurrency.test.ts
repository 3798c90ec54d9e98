/**
 * activities/common/sparkConcurrency.ts: Spark jobs at once per worker. Expectations from its
 * rule (one per two cores, at least one; LOCKIN_SPARK_CONCURRENCY overrides when it is a
 * positive integer), worked by hand.
 */
import * as os from 'os';
import { defaultSparkConcurrency, sparkConcurrency } from '../../activities/common/sparkConcurrency';

const saved = process.env.LOCKIN_SPARK_CONCURRENCY;
afterEach(() => {
  if (saved === undefined) delete process.env.LOCKIN_SPARK_CONCURRENCY;
  else process.env.LOCKIN_SPARK_CONCURRENCY = saved;
});

test('one Spark job per two cores, at least one', () => {
  expect([1, 2, 3, 4, 5, 8, 16].map(defaultSparkConcurrency)).toEqual([1, 1, 1, 2, 2, 4, 8]);
});

test('LOCKIN_SPARK_CONCURRENCY overrides when it is a positive integer; otherwise the cores decide', () => {
  process.env.LOCKIN_SPARK_CONCURRENCY = '3';
  expect(sparkConcurrency()).toEqual({ jobs: 3, source: 'env' });
  const byCores = { jobs: defaultSparkConcurrency(os.cpus().length), source: 'cores' };
  for (const bad of ['0', '-2', '1.5', 'two', '']) {
    process.env.LOCKIN_SPARK_CONCURRENCY = bad;
    expect(sparkConcurrency()).toEqual(byCores);
  }
  delete process.env.LOCKIN_SPARK_CONCURRENCY;
  expect(sparkConcurrency()).toEqual(byCores);
});
