/**
 * The root cause of a failed child workflow or activity, as one line for the study's result,
 * `study status` and runs/<id>/failures.json (docs/protocol.md §7 "Failed runs").
 */

/**
 * Follows `cause` to the innermost error (ChildWorkflowFailure → ActivityFailure →
 * ApplicationFailure) and returns its message. Pure.
 * @param err anything thrown.
 * @returns the innermost message, or String(err) when it has none.
 */
export function rootCauseMessage(err: unknown): string {
  let cause = err as (Error & { cause?: unknown }) | undefined;
  while (cause && typeof cause === 'object' && cause.cause) cause = cause.cause as Error & { cause?: unknown };
  return cause?.message || String(err);
}
