/**
 * Model spec strings (`--model`): which backend answers a call.
 *   anthropic:<model-id>   the Messages API (default model id claude-sonnet-4-6); "anthropic" alone = default
 *   openai:<model-id>      an OpenAI-compatible chat-completions server (OPENAI_BASE_URL, OPENAI_API_KEY;
 *                          backends/openai.ts); the model id is required
 *   replay:<dir>           stored reply files (each states its provenance); <dir> absolute, or with a '/' relative to the repo root,
 *                          or a bare name under replay/ ("replay:lockin" = replay/lockin)
 */
import * as path from 'path';
import { InputError } from '../common/errors';
import { REPO_ROOT, replayRoot } from '../common/paths';
import type { ModelParams } from '../../protocol/types';

export const DEFAULT_MODEL_ID = 'claude-sonnet-4-6';

/** The study's sampling settings (docs/protocol.md §6: temperature 1.0, top-p 1.0, 1M context). */
export const DEFAULT_MODEL_PARAMS: ModelParams = { temperature: 1.0, topP: 1.0, maxTokens: 16000, longContext: true };

export type ParsedSpec = { backend: 'anthropic'; modelId: string } | { backend: 'openai'; modelId: string } | { backend: 'replay'; dir: string };

/**
 * Parses a model spec.
 * @throws InputError (field "model") for an unknown backend or an empty part.
 */
export function parseModelSpec(spec: string): ParsedSpec {
  if (spec === 'anthropic') return { backend: 'anthropic', modelId: DEFAULT_MODEL_ID };
  if (spec.startsWith('anthropic:')) {
    const modelId = spec.slice('anthropic:'.length).trim();
    return { backend: 'anthropic', modelId: modelId || DEFAULT_MODEL_ID };
  }
  if (spec.startsWith('openai:')) {
    const modelId = spec.slice('openai:'.length).trim();
    if (!modelId) throw new InputError('openai spec needs a model id, e.g. openai:gpt-4.1 or openai:Qwen/Qwen2.5-Coder-32B-Instruct', undefined, 'model');
    return { backend: 'openai', modelId };
  }
  if (spec.startsWith('replay:')) {
    const dir = spec.slice('replay:'.length).trim();
    if (!dir) throw new InputError('replay spec needs a directory, e.g. replay:lockin', undefined, 'model');
    return { backend: 'replay', dir: resolveReplayDir(dir) };
  }
  throw new InputError(`unknown model spec "${spec}" (expected anthropic:<model-id>, openai:<model-id>, or replay:<dir>)`, undefined, 'model');
}

/** Resolves a replay directory: absolute as is; with a '/' relative to the repo root; else under replay/. */
export function resolveReplayDir(dir: string): string {
  if (path.isAbsolute(dir)) return dir;
  if (dir.includes('/')) return path.resolve(REPO_ROOT, dir);
  return path.join(replayRoot(), dir);
}
