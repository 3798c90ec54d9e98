/** defaultSlotCount (activities/common/sparkMode.ts): the warm pool's default size, worked examples; isWorkerDaemon (activities/execution/slots.ts): which processes a slot's reset lets leave. */
import { isWorkerDaemon } from '../../activities/execution/slots';
import { defaultSlotCount } from '../../activities/common/sparkMode';

const GiB = 1024 ** 3;

test('two Spark jobs at once on 23 GiB: five slots (pytest, executions and suites, up to two of each at once, in 5 × 4 GiB)', () => {
  expect(defaultSlotCount(2, 23 * GiB)).toBe(5);
});

test('memory caps the pool at one slot per 4 GiB, never below concurrency + 1', () => {
  expect(defaultSlotCount(2, 16 * GiB)).toBe(4);
  expect(defaultSlotCount(2, 8 * GiB)).toBe(3);
  expect(defaultSlotCount(4, 64 * GiB)).toBe(9);
  expect(defaultSlotCount(1, 2 * GiB)).toBe(2);
});

test('a concurrency that is not a positive number counts as one', () => {
  expect(defaultSlotCount(Number.NaN, 64 * GiB)).toBe(3);
  expect(defaultSlotCount(0, 64 * GiB)).toBe(3);
});

test('the worker daemons a reset waits for: lockin\'s and PySpark\'s, by module; nothing else', () => {
  expect(isWorkerDaemon('/work/main/.venv/bin/python -m spark_worker_daemon pyspark.worker')).toBe(true);
  expect(isWorkerDaemon('/usr/bin/python3 -m pyspark.daemon pyspark.worker')).toBe(true);
  expect(isWorkerDaemon('/usr/bin/python3 -m pyspark.daemon')).toBe(true);
  expect(isWorkerDaemon('/work/main/.venv/bin/python -m spark_worker_daemon_evil')).toBe(false);
  expect(isWorkerDaemon('/work/main/.venv/bin/python /tmp/x/spark_worker_daemon.py')).toBe(false);
  expect(isWorkerDaemon('sleep 1000')).toBe(false);
});
