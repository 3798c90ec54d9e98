/**
 * The Spark modes a test file runs its cases in. Cold, the default mode of every study
 * (protocol/settings.ts), always; warm (LOCKIN_SPARK_MODE=warm, opt-in, issue 22) in
 * `npm run test:full` (LOCKIN_TEST_FULL=1), to shorten `npm test` (still over its 15 minutes on
 * this 2-core machine: 1,407 s after this cut): each warm case starts a warm slot of its own (about 20 s), and the warm
 * variants of the hostile, sandbox and reference-visibility cases took 257 s of a fresh clone's
 * 1696 s run. Set LOCKIN_TEST_SPARK_MODES=cold,warm to run both in `npm test`.
 */
import { SPARK_MODES, type SparkMode } from '../../protocol/settings';

export const MODES_UNDER_TEST: ReadonlyArray<SparkMode> = (() => {
  const asked = process.env.LOCKIN_TEST_SPARK_MODES;
  if (asked) {
    const modes = asked.split(',').map((m) => m.trim()).filter(Boolean);
    for (const m of modes) if (!(SPARK_MODES as ReadonlyArray<string>).includes(m)) throw new Error(`LOCKIN_TEST_SPARK_MODES: "${m}" is not one of ${SPARK_MODES.join(', ')}`);
    return modes as SparkMode[];
  }
  return process.env.LOCKIN_TEST_FULL === '1' ? SPARK_MODES : SPARK_MODES.filter((m) => m === 'cold');
})();
