/**
 * The replay backend: recorded raw replies instead of a model (the study runs end to end with no
 * network). Layout under the corpus directory, per task (and under `replicate-<r>/` for a
 * targeted replication):
 *   <task>/generate.md
 *   <task>/test-guided/revise-N.md
 *   <task>/plan-audit/<stage>.md        (c1-extract.md ... c5-revise-2.md)
 *   <task>/judge/<condition>.md
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Stage } from '../../../protocol/stages';
import { BackendError, BackendReply, ZERO_USAGE } from './types';

/** The reply file of a call in a replay corpus. Pure. */
export function replayFile(dir: string, taskId: string, stage: Stage, condition: string, replicate?: string): string {
  const base = replicate ? path.join(dir, taskId, `replicate-${replicate}`) : path.join(dir, taskId);
  if (stage === 'generate') return path.join(base, 'generate.md');
  if (stage === 'revise-1' || stage === 'revise-2') return path.join(base, 'test-guided', `${stage}.md`);
  if (stage === 'judge') return path.join(base, 'judge', `${condition}.md`);
  return path.join(base, 'plan-audit', `${stage}.md`);
}

/**
 * Reads a recorded reply. Usage is zero.
 * @throws BackendError (non-retryable) naming the file when it does not exist.
 */
export function readReplay(file: string): BackendReply {
  if (!fs.existsSync(file)) throw new BackendError(`replay reply not found: ${file}`, null, false, []);
  return {
    text: fs.readFileSync(file, 'utf8'),
    stopReason: 'replay',
    responseModel: 'replay',
    responseId: null,
    usage: { ...ZERO_USAGE },
    retries: 0,
    attempts: [],
    rateLimitWaitMs: 0,
  };
}
