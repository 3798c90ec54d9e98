/**
 * How many Spark jobs one worker process runs at once (warm Spark slots, README "How long it takes"; README "The floor:
 * the cores"): LOCKIN_SPARK_CONCURRENCY when set; else, in the warm mode, one per two cores (at
 * least one), and in the cold mode one per core.
 *
 * Why one per two cores warm: a young JVM running small Spark queries keeps two cores busy (its
 * task threads, and its JIT compiler threads compiling Spark's code and each new plan's), so a
 * second warm JVM on the same two cores slows both; once warmed, a JVM serving one process keeps
 * about 1.3 of two cores busy, and suiteProcesses (below) fills the rest with a second process on
 * the same JVM instead. Measured on this 2-core machine
 * (2026-12-04): q36's Contract-First suite ran 29.2 times a minute in one warm JVM and 24.2 times
 * in two side by side together (bench/fixture_floor.py); the SF=1 equivalence bench's step 4 took
 * 379 s with one Spark job at a time against 450 s with two, its jobs' own work 268 s against
 * 604 s, every verdict identical.
 * Why one per core cold: a cold job starts its own JVM, and two start-ups side by side overlap
 * better than they contend: the same bench's cold step 4 took 1,296 s with one job at a time
 * against 1,110 s with two (the latter before local rows, which only made jobs faster).
 */
import * as os from 'os';
import type { SparkMode } from '../../protocol/settings';

/**
 * Spark jobs at once on this worker.
 *
 * Inputs: the mode its jobs run in (resolveSparkMode in activities/execution/slots.ts); the
 * environment (LOCKIN_SPARK_CONCURRENCY) and the machine's core count.
 * Returns: a positive integer; `source` says where it came from, for `lockin doctor`.
 * An unset, non-integer or non-positive LOCKIN_SPARK_CONCURRENCY takes the default.
 */
export function sparkConcurrency(mode: SparkMode): { jobs: number; source: 'env' | 'cores' } {
  const env = Number(process.env.LOCKIN_SPARK_CONCURRENCY);
  if (process.env.LOCKIN_SPARK_CONCURRENCY && Number.isInteger(env) && env > 0) return { jobs: env, source: 'env' };
  return { jobs: defaultSparkConcurrency(os.cpus().length, mode), source: 'cores' };
}

/** The default for `cores` cores in `mode`: warm one Spark job per two cores, cold one per core; at least one (module header). */
export function defaultSparkConcurrency(cores: number, mode: SparkMode): number {
  return Math.max(1, mode === 'warm' ? Math.floor(cores / 2) : cores);
}

/**
 * Processes one suite job runs its variants in (activities/python/suite_mutants.py
 * --processes): 2 when the worker's Spark jobs at once leave two cores per job, else 1;
 * LOCKIN_SUITE_PROCESSES (1 or 2) overrides. Why: one query on small fixtures keeps about one
 * core busy (its plan is built and its stages run one after another), so a second process on
 * the same JVM runs a second variant on the idle core. Measured on this 2-core machine
 * (2026-12-04, bench/suiteProcesses.ts: q36's acceptance tests on gold and its 11 violations
 * four times each, warm, second round): 101.3 s in one process, 61.1 s in two (1.66×), every
 * test outcome the same.
 *
 * Inputs: the mode (the worker's Spark jobs at once come from sparkConcurrency(mode)); the
 * environment; the core count. Returns 1 or 2. An unset or other LOCKIN_SUITE_PROCESSES value
 * takes the default.
 */
export function suiteProcesses(mode: SparkMode): 1 | 2 {
  const env = process.env.LOCKIN_SUITE_PROCESSES;
  if (env === '1' || env === '2') return Number(env) as 1 | 2;
  return defaultSuiteProcesses(os.cpus().length, sparkConcurrency(mode).jobs);
}

/** The default for `cores` cores and `jobs` Spark jobs at once: 2 when cores ≥ 2 × jobs, else 1 (suiteProcesses). */
export function defaultSuiteProcesses(cores: number, jobs: number): 1 | 2 {
  return cores >= 2 * jobs ? 2 : 1;
}

/**
 * Variants one job of executions of lockin's own programs (gold, its mutants, the obligation
 * violations: activities/python/mutant_outputs.py --at-once) runs at a time: on a database
 * smaller than SF=1, suiteProcesses(mode) (the same cores argument: a query on a small database
 * keeps about one core busy); at SF=1 and above 1, since one query there already keeps the cores
 * busy and two would share the driver's memory. LOCKIN_SUITE_PROCESSES overrides both.
 *
 * Inputs: the mode; the database's scale factor. Returns 1 or 2.
 */
export function outputVariantsAtOnce(mode: SparkMode, scale: number): 1 | 2 {
  return scale < 1 ? suiteProcesses(mode) : 1;
}
