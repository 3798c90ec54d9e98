/**
 * The Spark mode lockin's jobs run in, as the environment and the machine decide it: warm (a pool
 * of long-lived JVMs, execution/slots.ts) unless LOCKIN_SPARK_MODE=cold, and cold where warm slots
 * are not possible (with the reason); and the size of the warm pool. Read by the worker (its Spark
 * queue's concurrency), the activities that start Spark jobs, the study's input (the mode recorded
 * in study.json) and `lockin doctor`. The JIT of the jobs' JVMs is read by common/sparkJit.ts.
 */
import { spawnSync } from 'child_process';
import * as os from 'os';
import type { SparkMode } from '../../protocol/settings';
import { envChoice } from './envChoice';
import { isolationMode } from './isolation';
import { sparkConcurrency } from './sparkConcurrency';

/**
 * The mode LOCKIN_SPARK_MODE names (warm | cold; default warm since the equivalence runs of the warm
 * Spark slots found every verdict identical: docs/timings.md "Tests and benchmarks"; resolveSparkMode runs a warm
 * job cold, and says why, where warm slots are not possible). @throws Error naming the variable
 * for any other value.
 */
export function sparkModeFromEnv(): SparkMode {
  return envChoice<SparkMode>('LOCKIN_SPARK_MODE', ['warm', 'cold'], 'warm');
}

let nsenterOk: boolean | undefined;

/**
 * Why a warm run is not possible here (null when it is): warm slots need bubblewrap, root (to
 * enter the slot's namespaces) and nsenter.
 */
export function warmUnavailable(): string | null {
  if (isolationMode() !== 'bwrap') return `isolation is ${isolationMode()}, warm slots need bubblewrap`;
  if ((process.getuid?.() ?? 1) !== 0) return 'lockin does not run as root: a job cannot enter a slot\'s namespaces';
  nsenterOk ??= spawnSync('sh', ['-c', 'command -v nsenter'], { stdio: 'ignore' }).status === 0;
  if (!nsenterOk) return 'nsenter is not installed';
  return null;
}

/** The mode a job runs in: the requested one, or cold (with the reason) when warm is not possible. */
export function resolveSparkMode(requested?: SparkMode): { mode: SparkMode; coldBecause?: string } {
  const mode = requested ?? sparkModeFromEnv();
  if (mode === 'cold') return { mode };
  const why = warmUnavailable();
  return why ? { mode: 'cold', coldBecause: why } : { mode };
}

/** Memory an idle slot is allowed for when sizing the pool, bytes (a slot's JVM idles at 0.6-2 GB on this project's jobs; 4 GiB leaves room for one that grew). */
const SLOT_MEMORY_BYTES = 4 * 1024 ** 3;

/**
 * The default number of warm slots: 2 × concurrency + 1, so the three kinds of job a study
 * interleaves (pytest, executions, suites), each up to `concurrency` at once, find their slot warm
 * instead of evicting each other; at most one slot per 4 GiB of the machine's memory, and never
 * fewer than concurrency + 1. Inputs: concurrency (Spark jobs at once), totalMemBytes.
 * Returns: a positive integer. Pure.
 */
export function defaultSlotCount(concurrency: number, totalMemBytes: number): number {
  const conc = Math.max(1, Number.isFinite(concurrency) ? Math.floor(concurrency) : 1);
  return Math.max(conc + 1, Math.min(2 * conc + 1, Math.floor(totalMemBytes / SLOT_MEMORY_BYTES)));
}

/** The most warm slots one worker process keeps (LOCKIN_SPARK_SLOTS, else defaultSlotCount of the Spark concurrency and memory): the pool of execution/slots.ts, and `lockin doctor`. */
export function warmSlotLimit(): number {
  const env = Number(process.env.LOCKIN_SPARK_SLOTS);
  if (Number.isInteger(env) && env > 0) return env;
  return defaultSlotCount(sparkConcurrency('warm').jobs, os.totalmem());
}
