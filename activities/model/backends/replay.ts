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
 * the file, never a silent reuse of sample 1 — unless the corpus declares, in
 * `<corpus>/corpus.json`, `{ "samples": "repeat" }`: it records one reply per stage and every
 * sample replays it (a deterministic model such as the gold corpus); the call file then says
 * which file was replayed and the report says the samples do not vary.
 */
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { InputError } from '../../common/errors';
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

/** `<corpus>/corpus.json`: how the corpus answers samples k ≥ 2. */
export const CorpusFile = z.object({
  /** "distinct" (default): one file per sample; "repeat": every sample replays the sample-1 file. */
  samples: z.enum(['distinct', 'repeat']).default('distinct'),
  /** Why (shown in reports). */
  note: z.string().optional(),
});
export type CorpusFile = z.infer<typeof CorpusFile>;

/**
 * Reads `<dir>/corpus.json` (absent = { samples: "distinct" }).
 * @throws InputError naming the file and field when it is not valid JSON or not a CorpusFile.
 */
export function readCorpusFile(dir: string): CorpusFile {
  const file = path.join(dir, 'corpus.json');
  if (!fs.existsSync(file)) return { samples: 'distinct' };
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new InputError(`not JSON: ${(e as Error).message}`, file);
  }
  const out = CorpusFile.safeParse(raw);
  if (!out.success) throw new InputError(out.error.issues[0].message, file, out.error.issues[0].path.join('.') || 'samples');
  return out.data;
}

/**
 * The file a call replays: `replayFile(…)`, except that for sample k ≥ 2 of a corpus declaring
 * `samples: "repeat"` whose `.s<k>` file is absent, the sample-1 file (`repeated` true).
 * @throws InputError for a bad corpus.json.
 */
export function resolveReplayFile(dir: string, taskId: string, stage: Stage, condition: string, replicate?: string, sample?: number): { file: string; repeated: boolean } {
  const file = replayFile(dir, taskId, stage, condition, replicate, sample);
  if (!sample || sample < 2 || fs.existsSync(file) || readCorpusFile(dir).samples !== 'repeat') return { file, repeated: false };
  return { file: replayFile(dir, taskId, stage, condition, replicate), repeated: true };
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
