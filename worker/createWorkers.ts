/**
 * Builds the lockin workers, one per task queue, sharing one workflow bundle.
 *
 * Concurrency (env overrides): LOCKIN_MODEL_CONCURRENCY (default 4) model calls per model queue
 * (one queue per live provider and one for local backends: protocol/queues.ts MODEL_QUEUES),
 * LOCKIN_SPARK_CONCURRENCY (default: warm one per two cores, cold one per core; activities/common/sparkConcurrency.ts) JVM activities,
 * LOCKIN_DEFAULT_CONCURRENCY (default 8) the rest. LOCKIN_MODEL_QUEUE_RPM caps the model calls
 * started per minute on each model queue by all workers together (the server-side task queue
 * rate limit; activities/model/config.ts).
 */
import * as os from 'os';
import { NativeConnection, Worker, WorkflowBundleWithSourceMap, Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import { cachedWorkflowBundle } from './bundle';
import { LockinLogger, parseLogLevel } from './log';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { ACTIVITIES } from './activities';
import { gatewayConfig } from '../activities/model/config';
import { cleanStaleSandboxFolders } from '../activities/execution/sandbox';
import { progressDetails } from '../activities/common/progressBeat';
import { sparkConcurrency } from '../activities/common/sparkConcurrency';
import { stopAllSlots } from '../activities/execution/slots';
import { resolveSparkMode } from '../activities/common/sparkMode';
import { sparkJitFromEnv } from '../activities/common/sparkJit';
import { MODEL_QUEUES, PROVIDER_MODEL_QUEUES, QUEUES } from '../protocol/queues';
import { ALL_QUEUES } from './queueSelection';

let bundlePromise: Promise<WorkflowBundleWithSourceMap> | undefined;
let runtimeInstalled = false;

/**
 * Installs the SDK runtime with lockin's logger (worker/log.ts) for the TypeScript side and the
 * native core alike (core logs forwarded, not printed raw), at LOCKIN_LOG_LEVEL (default ERROR).
 * Call it before anything creates the runtime (NativeConnection.connect, a test environment):
 * a runtime created earlier keeps the SDK's defaults. Idempotent.
 * @throws Error naming LOCKIN_LOG_LEVEL when it is not a log level.
 */
export function installQuietRuntime(): void {
  if (runtimeInstalled) return;
  const level = parseLogLevel(process.env.LOCKIN_LOG_LEVEL);
  runtimeInstalled = true;
  try {
    Runtime.install({ logger: new LockinLogger(level), telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: level, other: level }), forward: {} } } });
  } catch {
    /* already installed */
  }
}

/** The workflow bundle (built once per version of the workflow code and cached on disk: worker/bundle.ts; read once per process). */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundlePromise ??= cachedWorkflowBundle();
  return bundlePromise;
}

export interface WorkerSetOptions {
  connection: NativeConnection;
  namespace: string;
  /** Extra or replacement activities (tests inject scripted ones). */
  activityOverrides?: Record<string, (...args: any[]) => Promise<unknown>>;
  /** Task queue prefix (tests use a unique one per test). */
  queuePrefix?: string;
  /** The queues to serve (full names, worker/queueSelection.ts); default every queue. */
  queues?: readonly string[];
}

/** Error names that are permanent: retrying cannot help (bad input, leaks, budget, protocol). */
const PERMANENT = new Set(['InputError', 'LeakError', 'PreflightError', 'BudgetExceeded', 'ReplayMissingError']);

type ActivityFn = (...args: any[]) => Promise<unknown>;

/**
 * Wraps an activity: heartbeats every 5 s while it runs, or every third of its heartbeat timeout
 * when that is shorter (workflows/interceptors.ts), so a dead worker's activity is retried after
 * the heartbeat timeout, not the start-to-close timeout; and turns permanent errors into
 * non-retryable failures that keep the error's name.
 */
export function wrapActivity(fn: ActivityFn): ActivityFn {
  return async (...args: unknown[]) => {
    const ctx = Context.current();
    const timeoutMs = ctx.info.heartbeatTimeoutMs;
    const timer = setInterval(() => ctx.heartbeat(progressDetails(ctx)), Math.max(200, Math.min(5000, timeoutMs ? timeoutMs / 3 : 5000)));
    try {
      return await fn(...args);
    } catch (err) {
      const e = err as Error;
      if (e && PERMANENT.has(e.name) && !(e instanceof ApplicationFailure)) throw ApplicationFailure.nonRetryable(e.message, e.name);
      throw err;
    } finally {
      clearInterval(timer);
    }
  };
}

/**
 * Creates the workers (not yet running): the default queue (workflows), one per model queue, and
 * the Spark queue, in that order, or those of them `opts.queues` names; first removes sandbox
 * temp folders a killed worker left behind.
 */
export async function createWorkers(opts: WorkerSetOptions): Promise<Worker[]> {
  installQuietRuntime();
  sparkJitFromEnv(); // an unknown LOCKIN_SPARK_JIT stops the worker here, named, not each Spark job later
  cleanStaleSandboxFolders();
  const raw: Record<string, unknown> = { ...ACTIVITIES, ...(opts.activityOverrides ?? {}) };
  const acts = Object.fromEntries(Object.entries(raw).filter(([, f]) => typeof f === 'function').map(([k, f]) => [k, wrapActivity(f as ActivityFn)]));
  const prefix = opts.queuePrefix ?? '';
  // Heartbeats reach the server at most every 15 s (not the SDK's 60 s), so a command relaying
  // another worker's progress lines (activities/common/progressBeat.ts) shows them soon.
  const common = { connection: opts.connection, namespace: opts.namespace, activities: acts, maxHeartbeatThrottleInterval: '15s' as const };
  const queueRpm = gatewayConfig().queueRpm;
  const serve = new Set(opts.queues ?? ALL_QUEUES);
  const make: [string, () => Promise<Worker>][] = [
    [QUEUES.default, async () => Worker.create({
      ...common,
      taskQueue: prefix + QUEUES.default,
      workflowBundle: await workflowBundle(),
      maxConcurrentActivityTaskExecutions: Number(process.env.LOCKIN_DEFAULT_CONCURRENCY ?? 8),
    })],
    ...MODEL_QUEUES.map((queue): [string, () => Promise<Worker>] => [queue, () =>
      Worker.create({
        ...common,
        taskQueue: prefix + queue,
        maxConcurrentActivityTaskExecutions: queue === PROVIDER_MODEL_QUEUES.local ? Number(process.env.LOCKIN_LOCAL_MODEL_CONCURRENCY ?? 1) : Number(process.env.LOCKIN_MODEL_CONCURRENCY ?? 4),
        ...(queueRpm > 0 ? { maxTaskQueueActivitiesPerSecond: queueRpm / 60 } : {}),
      })]),
    [QUEUES.spark, () => Worker.create({
      ...common,
      taskQueue: prefix + QUEUES.spark,
      maxConcurrentActivityTaskExecutions: sparkConcurrency(resolveSparkMode().mode).jobs,
    })],
  ];
  return Promise.all(make.filter(([q]) => serve.has(q)).map(([, create]) => create()));
}

/** Runs the workers until `fn` settles, then shuts them down. */
export async function runWorkersDuring<T>(workers: Worker[], fn: () => Promise<T>): Promise<T> {
  let result: T | undefined;
  let error: unknown;
  const done = (async () => {
    try {
      result = await fn();
    } catch (e) {
      error = e;
    } finally {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
    }
  })();
  try {
    await Promise.all([...workers.map((w) => w.run()), done]);
  } finally {
    await stopAllSlots(); // the warm Spark slots die with the workers (activities/execution/slots.ts)
  }
  if (error) throw error;
  return result as T;
}
