/**
 * The Spark mode a job runs in (activities/execution/slots.ts): warm unless LOCKIN_SPARK_MODE
 * says cold (the default since the equivalence runs of the warm Spark slots), and cold, with the reason, wherever
 * warm slots are not possible.
 */
import { resolveSparkMode, sparkModeFromEnv } from '../../activities/common/sparkMode';

const saved = { mode: process.env.LOCKIN_SPARK_MODE, isolation: process.env.LOCKIN_ISOLATION };
afterEach(() => {
  for (const [k, v] of [['LOCKIN_SPARK_MODE', saved.mode], ['LOCKIN_ISOLATION', saved.isolation]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

test('LOCKIN_SPARK_MODE: unset or empty is warm, cold and warm as named, anything else an error naming the variable', () => {
  delete process.env.LOCKIN_SPARK_MODE;
  expect(sparkModeFromEnv()).toBe('warm');
  process.env.LOCKIN_SPARK_MODE = ' ';
  expect(sparkModeFromEnv()).toBe('warm');
  process.env.LOCKIN_SPARK_MODE = 'cold';
  expect(sparkModeFromEnv()).toBe('cold');
  process.env.LOCKIN_SPARK_MODE = ' warm ';
  expect(sparkModeFromEnv()).toBe('warm');
  process.env.LOCKIN_SPARK_MODE = 'hot';
  expect(() => sparkModeFromEnv()).toThrow('LOCKIN_SPARK_MODE: "hot" is not warm or cold');
});

test('without bubblewrap the default warm mode runs cold and says why; cold asked for is cold without a reason', () => {
  process.env.LOCKIN_ISOLATION = 'checked-only';
  delete process.env.LOCKIN_SPARK_MODE;
  expect(resolveSparkMode()).toEqual({ mode: 'cold', coldBecause: 'isolation is checked-only, warm slots need bubblewrap' });
  expect(resolveSparkMode('cold')).toEqual({ mode: 'cold' });
  process.env.LOCKIN_SPARK_MODE = 'cold';
  expect(resolveSparkMode()).toEqual({ mode: 'cold' });
});
