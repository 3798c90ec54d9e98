/**
 * The Spark modes a test file runs its cases in. Warm, the default mode of every study since the
 * equivalence runs of the warm Spark slots (activities/execution/slots.ts sparkModeFromEnv), always; cold
 * (LOCKIN_SPARK_MODE=cold, and the fallback where warm slots are not possible) in
 * `npm run test:full` (LOCKIN_TEST_FULL=1), to keep `npm test` under its 15 minutes on this
 * 2-core machine: each case in a mode costs its own JVM or slot start. Every other Spark test
 * names no mode and runs cold (test/support/sparkModeEnv.js), so `npm test` covers both paths.
 * Set LOCKIN_TEST_SPARK_MODES=cold,warm to run both here in `npm test`.
 */
import { SPARK_MODES, type SparkMode } from '../../protocol/settings';

export const MODES_UNDER_TEST: ReadonlyArray<SparkMode> = (() => {
  const asked = process.env.LOCKIN_TEST_SPARK_MODES;
  if (asked) {
    const modes = asked.split(',').map((m) => m.trim()).filter(Boolean);
    for (const m of modes) if (!(SPARK_MODES as ReadonlyArray<string>).includes(m)) throw new Error(`LOCKIN_TEST_SPARK_MODES: "${m}" is not one of ${SPARK_MODES.join(', ')}`);
    return modes as SparkMode[];
  }
  return process.env.LOCKIN_TEST_FULL === '1' ? SPARK_MODES : SPARK_MODES.filter((m) => m === 'warm');
})();
