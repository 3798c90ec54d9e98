/**
 * Progress lines that travel with an activity's heartbeat, so that the command that started a
 * workflow can print them when another process's worker runs the activity (several lockin
 * commands against one Temporal server share its queues: `lockin data prepare` started while a
 * main job's worker was polling printed its `[data]` lines in the main job's terminal).
 *
 * An activity notes each line (noteProgress); its heartbeats (worker/createWorkers.ts
 * wrapActivity, activities/execution/activityContext.ts) carry `{ progress: { seq, lines } }`:
 * the number of lines noted so far and the last PROGRESS_KEPT of them. Temporal keeps the last
 * heartbeat's details, throttled to about one a minute (80 % of the heartbeat timeout, at most
 * the worker's maxHeartbeatThrottleInterval), so a relaying client sees them late, and only
 * the last PROGRESS_KEPT of a burst.
 */
import { Context } from '@temporalio/activity';

/** Lines a heartbeat carries at most. */
export const PROGRESS_KEPT = 40;

/** What a heartbeat carries: `seq` lines noted so far, the last of them in `lines`. */
export interface ProgressDetails {
  progress: { seq: number; lines: string[] };
}

const noted = new WeakMap<Context, ProgressDetails>();

/** The current activity's progress details (undefined outside an activity or before its first line). */
export function progressDetails(ctx?: Context): ProgressDetails | undefined {
  try {
    return noted.get(ctx ?? Context.current());
  } catch {
    return undefined;
  }
}

/** Notes `line` for the current activity and heartbeats with it; does nothing outside an activity. */
export function noteProgress(line: string): void {
  let ctx: Context;
  try {
    ctx = Context.current();
  } catch {
    return;
  }
  const d = noted.get(ctx) ?? { progress: { seq: 0, lines: [] } };
  d.progress.seq += 1;
  d.progress.lines = [...d.progress.lines, line].slice(-PROGRESS_KEPT);
  noted.set(ctx, d);
  ctx.heartbeat(d);
}

/**
 * The lines of `details` (a heartbeat's decoded details) not yet shown, given `shown` lines of
 * it were shown before. Input: details as decoded (anything), shown ≥ 0. Returns the new lines
 * (a gap of lines that fell out of the window is reported as one line) and the new count. Pure.
 */
export function unseenProgress(details: unknown, shown: number): { lines: string[]; seq: number } {
  const p = (details as Partial<ProgressDetails> | undefined)?.progress;
  if (!p || typeof p.seq !== 'number' || !Array.isArray(p.lines) || p.seq <= shown) return { lines: [], seq: shown };
  const firstKept = p.seq - p.lines.length; // seq of the line before lines[0]
  const fresh = p.lines.slice(Math.max(0, shown - firstKept)).map(String);
  const skipped = firstKept - shown;
  return { lines: skipped > 0 ? [`(${skipped} progress line(s) not relayed)`, ...fresh] : fresh, seq: p.seq };
}
