/**
 * Waiting on the Temporal server without failing a durable study on a transient error (issue
 * 47: a whole `npm run study` failed after 36 minutes because the CLI's own wait for the main
 * job's result met "4 DEADLINE_EXCEEDED" on a loaded machine, not because the job failed).
 *
 * Two kinds of transient error:
 *   - the server answers too slowly (gRPC DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED: a loaded
 *     machine): the request is made again at once and again, for up to `slowForMs` (default one
 *     hour), one line when it starts and one every ten minutes;
 *   - the server does not answer (a lost connection, a restart): the request is made again after
 *     each of `delaysMs` (about 2 minutes in all), then given up with the resume command.
 * An answer of the server (the workflow failed, does not exist) is thrown at once.
 */
import { WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';

/** Waits between attempts to reach a Temporal server that stopped answering (about 2 minutes in all). */
export const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10_000, 15_000, 30_000, 30_000, 30_000];

/** How long a server that answers too slowly is waited for, ms. */
export const SLOW_SERVER_MS = 60 * 60_000;

/** The exact command that resumes a study, and what to do first when the server is away. */
export function resumeHint(studyId: string): string {
  return `The study is durable: once the server is back (\`npx lockin server start\`), resume it with: npx lockin study resume ${studyId}`;
}

/** gRPC status codes of a server that is there but too slow: DEADLINE_EXCEEDED (4), RESOURCE_EXHAUSTED (8). */
const SLOW_CODES = new Set([4, 8]);

/**
 * Whether an error says the server answered too slowly (its gRPC code, or the code's name in the
 * message of an error that wraps it, e.g. "Failed to get Workflow execution history: 4
 * DEADLINE_EXCEEDED: …"). Pure.
 */
export function isSlowServer(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'number' && SLOW_CODES.has(code)) return true;
    if (/\b(DEADLINE_EXCEEDED|RESOURCE_EXHAUSTED)\b/.test(String((e as Error).message ?? ''))) return true;
  }
  return false;
}

/**
 * Calls `fn` (a request to the Temporal server) until it answers, surviving a slow server and a
 * server restart (the module header's rules).
 * @param giveUp the error to throw when the server stays away, given the last error's first line
 * @param delaysMs waits between attempts while the server does not answer
 * @param write where the lines go (default stderr)
 * @param slowForMs how long a slow server is waited for (default SLOW_SERVER_MS)
 * @throws the server's answer as is, or `giveUp(cause)`.
 */
export async function whileServerAway<T>(fn: () => Promise<T>, giveUp: (cause: string) => Error, delaysMs: number[] = RECONNECT_DELAYS_MS, write: (line: string) => void = (l) => void process.stderr.write(l), slowForMs = SLOW_SERVER_MS): Promise<T> {
  let last: unknown;
  let attempt = 0;
  let slowSince: number | null = null;
  let slowSaid = 0;
  for (;;) {
    try {
      const res = await fn();
      if (attempt > 0 || slowSince !== null) write('[lockin] the Temporal server answers again\n');
      return res;
    } catch (err) {
      if (err instanceof WorkflowFailedError || err instanceof WorkflowNotFoundError) throw err;
      last = err;
      const first = (err as Error).message?.split('\n')[0] ?? String(err);
      if (isSlowServer(err)) {
        const now = Date.now();
        slowSince ??= now;
        if (now - slowSince > slowForMs) break;
        if (now - slowSaid >= 10 * 60_000) {
          write(`[lockin] the Temporal server answers too slowly (${first}; a loaded machine): the workflow goes on, waiting for it (${Math.round((now - slowSince) / 60_000)} min so far)\n`);
          slowSaid = now;
        }
        await new Promise((r) => setTimeout(r, Math.min(1000, delaysMs[0] ?? 1000)));
        continue;
      }
      slowSince = null;
      if (attempt === 0) {
        const total = Math.round(delaysMs.reduce((a, b) => a + b, 0) / 1000);
        write(`[lockin] the Temporal server is not answering (${first}); waiting for it up to ${total} s (restart it with \`npx lockin server start\`)\n`);
      }
      if (attempt >= delaysMs.length) break;
      await new Promise((r) => setTimeout(r, delaysMs[attempt]));
      attempt++;
    }
  }
  return Promise.reject(giveUp((last as Error)?.message?.split('\n')[0] ?? String(last)));
}
