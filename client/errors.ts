/** How the CLI words an error. */

/**
 * The message of an error and of its causes, outermost first, joined by ": " (a workflow's
 * failure wraps a child's, which wraps an activity's; the innermost says what went wrong).
 * Repeated and generic wrapper messages are left out. Pure.
 */
export function causeChain(err: unknown): string {
  const parts: string[] = [];
  let e = err as (Error & { cause?: unknown }) | undefined;
  for (let depth = 0; e && depth < 10; depth++, e = e.cause as (Error & { cause?: unknown }) | undefined) {
    const msg = (e.message ?? String(e)).trim();
    if (msg && !parts.includes(msg) && !/^(Workflow execution failed|Child Workflow execution failed|Activity task failed)$/i.test(msg)) parts.push(msg);
  }
  return parts.join(': ') || String(err);
}
