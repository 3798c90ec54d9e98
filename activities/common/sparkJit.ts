/**
 * Which JIT compilers the JVMs of lockin's Spark jobs use (warm Spark slots, README "How long it takes"; README "The floor:
 * the cores"): LOCKIN_SPARK_JIT, `tiered` (the default) or `quick`.
 *
 * - `tiered`: the JVM's default (C1, then C2 for hot code).
 * - `quick`: `-XX:TieredStopAtLevel=1`, HotSpot's C1 compiler only: less CPU spent compiling,
 *   slower code once warm. Measured on this 2-core machine (2026-12-05, PySpark 4.1.2, Java 17),
 *   it gains clearly only where a JVM lives briefly: q33's Contract-First suite over gold and its 11
 *   violations five times in one fresh JVM, two processes, 44.4 s tiered and 31.7 s quick; but
 *   `node dist/bench/jit.js` (q36's acceptance tests on gold and 22 violations, three suite jobs in
 *   a warm slot, then the gold of q36, q51, q69 and q87 at SF=1) 125.1 s tiered and 132.0 s quick
 *   for the suites, 25.9 s and 23.1 s for the executions; cold (`--mode cold --jobs 2`) 144.7 s
 *   and 160.1 s, 49.1 s and 42.0 s; and the SF=1 equivalence bench, warm, steps 4 and 5 in
 *   324.8 s and 334.4 s quick, against 312.3 s and 292.3 s tiered the run before and 354.1 s and
 *   313.8 s the run after: within that bench's run-to-run spread (README "The floor: the
 *   cores"). No gain measured once JVMs are warm, where lockin's jobs run; hence the default.
 *
 * No effect on results: Java's semantics (floating point included, strict since Java 17) do not
 * depend on the compiler; the bench checks that every test outcome of every variant and every
 * execution's rows are the same both ways. Applies to the JVMs of jobs (pytest runs, executions,
 * label and mutation suites, warm slots), not to building the database and its references (step
 * 2) or re-executing the references (step 3), which always take the default.
 */

import { SPARK_JITS, type SparkJit } from '../../protocol/settings';
import { envChoice } from './envChoice';

export { SPARK_JITS, type SparkJit };

/**
 * The JIT of job JVMs named by the environment.
 * Inputs: LOCKIN_SPARK_JIT (unset or empty: tiered). Returns: 'tiered' | 'quick'.
 * Throws an Error naming LOCKIN_SPARK_JIT and the accepted values when it is anything else.
 */
export function sparkJitFromEnv(): SparkJit {
  return envChoice('LOCKIN_SPARK_JIT', SPARK_JITS, 'tiered');
}
