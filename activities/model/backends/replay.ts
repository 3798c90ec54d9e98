/**
 * The replay backend: stored reply files instead of a model (the study runs end to end with no
 * network). Layout under the corpus directory, per task (and under `replicate-<r>/` for a
 * targeted replication):
 *   <task>/generate.md
 *   <task>/test-guided/revise-N.md
 *   <task>/plan-audit/<stage>.md        (c1-extract.md ... c5-revise-2.md)
 *   <task>/contract-first/<stage>.md    (c0-contract.md, cf-revise-1.md, cf-revise-2.md)
 *   <task>/judge/<condition>.md
 * Sample k ≥ 2 of a stage (`--samples K`) is the same name with `.s<k>` before `.md`
 * (`generate.s2.md`, `test-guided/revise-1.s2.md`, …); a missing sample is an error naming
 * the file, never a silent reuse of sample 1 — unless the corpus declares, in
 * `<corpus>/corpus.json`, `{ "samples": "repeat" }`: it records one reply per stage and every
 * sample replays it (a deterministic model such as the gold corpus); the call file then says
 * which file was replayed and the report says the samples do not vary.
 * Every reply file opens with a front matter stating its provenance (protocol/provenance.ts):
 *   ---
 *   provenance: recorded
 *   model: claude-sonnet-4-6
 *   recorded: 2026-07-14
 *   ---
 * The front matter is not part of the reply: the text after it is what the stage parses.
 */
import * as fs from 'fs';
import * as path from 'path';
import YAML from 'yaml';
import { z } from 'zod';
import { InputError } from '../../common/errors';
import type { Stage } from '../../../protocol/stages';
import { Provenance } from '../../../protocol/provenance';
import { BackendError, BackendReply, ZERO_USAGE, type AnthropicRequest, type ModelBackend } from './types';
import { messagesRequest, messagesRequestText } from './anthropic';
import { replayCorpusDir } from '../../common/paths';

/** A replay file split into its provenance and the reply text. */
export interface ReplayText {
  provenance: Provenance;
  text: string;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

/**
 * Splits a replay file into its front matter (validated as a Provenance) and the reply after it.
 * Pure. @throws Error naming the file and field when the front matter is missing or invalid.
 */
export function parseReplayText(text: string, file: string): ReplayText {
  const m = FRONT_MATTER.exec(text);
  if (!m) throw new Error(`${file}: no provenance front matter (the file must open with "---", a "provenance:" line, and "---"; see activities/model/backends/replay.ts)`);
  let raw: unknown;
  try {
    raw = YAML.parse(m[1]);
  } catch (e) {
    throw new Error(`${file}: front matter is not YAML: ${(e as Error).message}`);
  }
  const p = Provenance.safeParse(raw);
  if (!p.success) {
    const issue = p.error.issues[0];
    throw new Error(`${file}: front matter field "${issue.path.join('.') || 'provenance'}": ${issue.message}`);
  }
  return { provenance: p.data, text: text.slice(m[0].length) };
}

/** Renders a front matter for a provenance (the inverse of parseReplayText's split). Pure. */
export function renderFrontMatter(p: Provenance, comment?: string): string {
  return `---\n${comment ? `# ${comment}\n` : ''}${YAML.stringify(p).trimEnd()}\n---\n`;
}

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
  if (stage === 'c0-contract' || stage === 'cf-revise-1' || stage === 'cf-revise-2') return path.join(base, 'contract-first', name(stage));
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
 * Reads a replay reply and its provenance. Usage is zero.
 * @throws BackendError (non-retryable) naming the file when it does not exist or its front
 *   matter is missing or invalid.
 */
export function readReplay(file: string): BackendReply & { provenance: Provenance } {
  if (!fs.existsSync(file)) {
    const m = /\.s(\d+)\.md$/.exec(file);
    const hint = m ? ` (sample ${m[1]} of this stage: the corpus needs one reply file per sample)` : '';
    throw new BackendError(`replay reply not found: ${file}${hint}`, null, false, []);
  }
  let parsed: ReplayText;
  try {
    parsed = parseReplayText(fs.readFileSync(file, 'utf8'), file);
  } catch (e) {
    throw new BackendError((e as Error).message, null, false, []);
  }
  return {
    provenance: parsed.provenance,
    text: parsed.text,
    stopReason: 'replay',
    responseModel: 'replay',
    responseId: null,
    usage: { ...ZERO_USAGE },
    retries: 0,
    attempts: [],
    rateLimitWaitMs: 0,
  };
}

/**
 * The replay backend (`replay:<dir>`): the request a Messages API call would send, answered by
 * the corpus's reply file for the call (resolveReplayFile), whose front matter states the
 * reply's provenance. Local: never cached, never paid.
 */
export const replayBackend: ModelBackend<AnthropicRequest> = {
  live: false,
  idempotencyHeader: null,
  prepare: (spec, req, prompt) => {
    const { file, repeated } = resolveReplayFile(replayCorpusDir(spec.model), req.taskId, req.stage, req.condition, req.replicate, req.sample);
    const prepared = messagesRequest('replay', `replay ${file}`, 'replay', req.params, prompt);
    if (repeated) prepared.notes.push(`sample ${req.sample}: the corpus declares samples "repeat" (corpus.json), so this replays the sample-1 reply`);
    return { ...prepared, source: file };
  },
  requestText: messagesRequestText,
  answer: async (prepared) => {
    const { provenance, ...reply } = readReplay(prepared.source!);
    return { reply, provenance };
  },
  price: () => ({ costUsd: 0, note: 'replay: no cost' }),
};
