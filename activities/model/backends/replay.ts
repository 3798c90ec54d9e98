/**
 * The replay backend: recorded raw replies instead of a model (the study runs end to end with no
 * network). Layout under the corpus directory, per task (and under `replicate-<r>/` for a
 * targeted replication):
 *   <task>/generate.md
 *   <task>/test-guided/revise-N.md
 *   <task>/plan-audit/<stage>.md        (c1-extract.md ... c5-revise-2.md)
 *   <task>/judge/<condition>.md
 * Sample k ≥ 2 of a stage (`--samples K`) is the same name with `.s<k>` before `.md`
 * (`generate.s2.md`, `test-guided/revise-1.s2.md`, …); a missing sample is an error naming
 * the file, never a silent reuse of sample 1.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Stage } from '../../../protocol/stages';
import { BackendError, BackendReply, ZERO_USAGE } from './types';

/**
 * The reply file of a call in a replay corpus. Pure.
 * @param sample 1-based sample index; absent or 1 = `<stage>.md`, k ≥ 2 = `<stage>.s<k>.md`.
 */
export function replayFile(dir: string, taskId: string, stage: Stage, condition: string, replicate?: string, sample?: number): string {
  const base = replicate ? path.join(dir, taskId, `replicate-${replicate}`) : path.join(dir, taskId);
  const name = (stem: string) => (sample && sample > 1 ? `${stem}.s${sample}.md` : `${stem}.md`);
  if (stage === 'generate') return path.join(base, name('generate'));
  if (stage === 'revise-1' || stage === 'revise-2') return path.join(base, 'test-guided', name(stage));
  if (stage === 'judge') return path.join(base, 'judge', name(condition));
  return path.join(base, 'plan-audit', name(stage));
}

/**
 * Reads a recorded reply. Usage is zero.
 * @throws BackendError (non-retryable) naming the file when it does not exist.
 */
export function readReplay(file: string): BackendReply {
  if (!fs.existsSync(file)) {
    const m = /\.s(\d+)\.md$/.exec(file);
    const hint = m ? ` (sample ${m[1]} of this stage: the corpus needs one reply file per sample)` : '';
    throw new BackendError(`replay reply not found: ${file}${hint}`, null, false, []);
  }
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
