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
