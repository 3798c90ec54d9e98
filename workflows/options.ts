/**
 * Activity options by kind of work: each with its own queue, timeouts and retry policy.
 * Permanent errors (bad input, leaks, protocol violations) are raised non-retryable by the
 * activities themselves.
 */
import type { ActivityOptions } from '@temporalio/workflow';
import { QUEUES, modelQueue } from '../protocol/queues';

/** A model call: slow, rate-limited, retried by the backend itself for 429/5xx. */
export const MODEL_CALL: ActivityOptions = {
  taskQueue: QUEUES.model,
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '30s',
  retry: { maximumAttempts: 3, initialInterval: '5s', backoffCoefficient: 2 },
};

/** MODEL_CALL on the queue of `spec`'s provider (protocol/queues.ts modelQueue). Pure. */
export function modelCallOptions(spec: string): ActivityOptions {
  return { ...MODEL_CALL, taskQueue: modelQueue(spec) };
}

/** A Spark or pytest run: bounded by its own wall-clock limit; one retry for worker crashes. */
export const SPARK_RUN: ActivityOptions = {
  taskQueue: QUEUES.spark,
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30s',
  retry: { maximumAttempts: 2, initialInterval: '2s' },
};

/** Store, comparison, scoring: quick and local. */
export const LOCAL_STEP: ActivityOptions = {
  taskQueue: QUEUES.default,
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30s',
  retry: { maximumAttempts: 3, initialInterval: '1s' },
};

/**
 * A long JVM step (SQL re-execution, a task's mutation analysis): hours, heartbeated (a dead
 * worker's step is retried 30 s later). Five attempts: each kill of the main job's process during
 * the step costs one (a new-user trial killed step 3 twice and the job failed with two).
 */
export const SPARK_LONG: ActivityOptions = {
  taskQueue: QUEUES.spark,
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '30s',
  retry: { maximumAttempts: 5, initialInterval: '10s' },
};

/**
 * Error types a command's step is not retried for: its code threw, and running it again would
 * throw again. When the CLI ran these steps itself, such an error ended the command at once; it
 * still does (the workflow fails with it). A step whose worker went away (a heartbeat or
 * start-to-close time-out, not an error type) is run once more.
 */
const COMMAND_STEP_ERRORS = ['Error', 'TypeError', 'RangeError', 'ReferenceError', 'SyntaxError', 'SubprocessError', 'ZodError', 'TaskLoadError', 'ViolationError', 'HarnessError'];

/**
 * A step a CLI command runs on demand through its workflow (workflows/commands.ts: the report,
 * the controls, the corpus check, the obligations checks): up to hours, heartbeated, on the
 * default queue (a command's `--concurrency` is its own, not the Spark queue's).
 */
export const COMMAND_STEP: ActivityOptions = {
  taskQueue: QUEUES.default,
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '30s',
  retry: { maximumAttempts: 2, initialInterval: '2s', nonRetryableErrorTypes: COMMAND_STEP_ERRORS },
};

/** COMMAND_STEP on the Spark queue, for a command's JVM step (the re-execution of the references). */
export const COMMAND_SPARK_STEP: ActivityOptions = { ...COMMAND_STEP, taskQueue: QUEUES.spark };
