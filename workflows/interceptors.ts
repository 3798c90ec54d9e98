/**
 * Workflow interceptors bundled with every lockin workflow: shorter activity timeouts for one
 * workflow tree when its starter asks for them in the memo.
 *
 * The activity options of workflows/options.ts (heartbeat timeout 30 s, retries after 1–10 s)
 * decide how soon an activity whose worker died is tried again. A workflow started with the memo
 * `{ [ACTIVITY_TIMEOUTS_MEMO]: { heartbeatTimeout: '3s', initialInterval: '500ms' } }` schedules
 * every activity with that heartbeat timeout and first retry interval instead, and passes the
 * memo on to the child workflows it starts, so a whole main job or study follows it. The tests
 * that SIGKILL workers use it (test/workflows/crash.test.ts, longSteps.test.ts) to wait seconds,
 * not half-minutes, for the lost activities; nothing else sets it.
 *
 * Deterministic: the memo is fixed when the workflow starts, so a replay schedules the same
 * options. A history without the memo replays unchanged.
 */
import type { ActivityInput, Next, StartChildWorkflowExecutionInput, WorkflowInterceptorsFactory, WorkflowOutboundCallsInterceptor } from '@temporalio/workflow';
import { workflowInfo } from '@temporalio/workflow';
import type { Duration } from '@temporalio/common';

/** The memo key a starter sets to shorten the activity timeouts of a workflow tree. */
export const ACTIVITY_TIMEOUTS_MEMO = 'lockinActivityTimeouts';

/** The memo's value: either field may be left out (the workflow's own option stays). */
export interface ActivityTimeouts {
  /** Replaces every activity's heartbeatTimeout. */
  heartbeatTimeout?: Duration;
  /** Replaces every activity's retry.initialInterval. */
  initialInterval?: Duration;
}

function requested(): ActivityTimeouts | undefined {
  const v = workflowInfo().memo?.[ACTIVITY_TIMEOUTS_MEMO];
  return v && typeof v === 'object' ? (v as ActivityTimeouts) : undefined;
}

class ActivityTimeoutsInterceptor implements WorkflowOutboundCallsInterceptor {
  scheduleActivity(input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>): Promise<unknown> {
    const t = requested();
    if (!t) return next(input);
    const options = { ...input.options };
    if (t.heartbeatTimeout !== undefined) options.heartbeatTimeout = t.heartbeatTimeout;
    if (t.initialInterval !== undefined) options.retry = { ...options.retry, initialInterval: t.initialInterval };
    return next({ ...input, options });
  }

  async startChildWorkflowExecution(
    input: StartChildWorkflowExecutionInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'startChildWorkflowExecution'>,
  ): Promise<[Promise<string>, Promise<unknown>]> {
    const t = requested();
    if (!t) return next(input);
    return next({ ...input, options: { ...input.options, memo: { ...input.options.memo, [ACTIVITY_TIMEOUTS_MEMO]: t } } });
  }
}

/** The interceptors of every lockin workflow (registered by worker/createWorkers.ts through the bundle). */
export const interceptors: WorkflowInterceptorsFactory = () => ({ outbound: [new ActivityTimeoutsInterceptor()] });
