/**
 * The JIT of the jobs' JVMs (activities/common/sparkJit.ts, LOCKIN_SPARK_JIT): under
 * LOCKIN_SPARK_JIT=quick a warm slot's JVM compiles with C1 only (-XX:TieredStopAtLevel=1 among
 * the JVM's input arguments; the slot path carries it through its profile, the cold path through
 * the sandbox's environment, the same variable); an unknown value is refused, named. The default
 * (no flag) is asserted by warm.test.ts's CLEAN suite. One slot start-up.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runPytest } from '../../activities/execution/pytest';
import { stopAllSlots } from '../../activities/execution/slots';
import { sparkJitFromEnv } from '../../activities/common/sparkJit';
import { DEFAULT_SPARK_SETTINGS, type SparkSettings } from '../../protocol/settings';

const SETTINGS: SparkSettings = { ...DEFAULT_SPARK_SETTINGS, master: 'local[1]', shufflePartitions: 2, defaultParallelism: 1, driverMemory: '1g' };

/** A suite whose one test passes only when the JVM compiles with C1 only (-XX:TieredStopAtLevel=1). */
const C1_ONLY = [
  'def test_jit(spark):',
  '    args = str(spark._jvm.java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().toString())',
  '    assert "-XX:TieredStopAtLevel=1" in args, args',
  '',
].join('\n');

let work: string;
const saved = process.env.LOCKIN_SPARK_JIT;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-jit-test-'));
});
afterEach(async () => {
  if (saved === undefined) delete process.env.LOCKIN_SPARK_JIT;
  else process.env.LOCKIN_SPARK_JIT = saved;
  await stopAllSlots();
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));


test('LOCKIN_SPARK_JIT: unset or empty is tiered; tiered and quick are taken; anything else is refused, named', () => {
  delete process.env.LOCKIN_SPARK_JIT;
  expect(sparkJitFromEnv()).toBe('tiered');
  process.env.LOCKIN_SPARK_JIT = ' ';
  expect(sparkJitFromEnv()).toBe('tiered');
  process.env.LOCKIN_SPARK_JIT = 'quick';
  expect(sparkJitFromEnv()).toBe('quick');
  process.env.LOCKIN_SPARK_JIT = 'c2';
  expect(() => sparkJitFromEnv()).toThrow('LOCKIN_SPARK_JIT: "c2" is not tiered or quick');
});

test('a warm slot\'s JVM compiles with C1 only under LOCKIN_SPARK_JIT=quick (the default JIT, the JVM\'s own, is checked by test/execution/warm.test.ts\'s clean suite)', async () => {
  process.env.LOCKIN_SPARK_JIT = 'quick';
  const dir = path.join(work, 'artifacts');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'solution.py'), 'def solve(spark, tables):\n    return None\n');
  fs.writeFileSync(path.join(dir, 'test_solution.py'), C1_ONLY);
  // The suite reads the JVM's arguments through its gateway (the reach check would refuse it: what is tested is the JVM).
  const quick = await runPytest({ dir, settings: SETTINGS, timeoutMs: 180_000, runLabel: 'initial', sparkMode: 'warm', perTestTimeoutS: 120, reachCheck: false });
  expect(quick).toMatchObject({ status: 'completed', passed: true });
  expect(quick.spark).toMatchObject({ mode: 'warm', jit: 'quick', jvmStarted: true });
}, 600_000);
