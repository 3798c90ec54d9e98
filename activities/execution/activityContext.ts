/**
 * The Temporal activity hooks a long sandboxed run needs, when there is an activity: a
 * heartbeat while it runs and the cancellation signal that kills it. Outside an activity
 * (tests, the CLI) both are absent.
 */
import { Context } from '@temporalio/activity';
import { CancelledFailure } from '@temporalio/common';
import { progressDetails } from '../common/progressBeat';

export interface ActivityHooks {
  signal?: AbortSignal;
  onAlive?: () => void;
}

/** `{ signal, onAlive }` of the current activity, or `{}` when not called from one. */
export function activityHooks(): ActivityHooks {
  try {
    const ctx = Context.current();
    return { signal: ctx.cancellationSignal, onAlive: () => ctx.heartbeat(progressDetails(ctx)) };
  } catch {
    return {};
  }
}

/** Throws the activity's cancellation (so Temporal records a cancellation, not an outcome). */
export function throwIfCancelled(cancelled: boolean): void {
  if (cancelled) throw new CancelledFailure('activity cancelled: the sandboxed process was killed');
}
