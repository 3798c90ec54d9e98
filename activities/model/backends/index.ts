/**
 * The model backends by provider (protocol/model.ts PROVIDERS). Adding a backend: its file in
 * this folder exporting a ModelBackend (backends/types.ts), its entry here, and its provider in
 * protocol/model.ts (the spec grammar: how its spec is written, whether it is live).
 */
import type { Provider } from '../../../protocol/model';
import { anthropicBackend } from './anthropic';
import { claudeCodeBackend } from './claudeCode';
import { openaiBackend } from './openai';
import { replayBackend } from './replay';
import { localBackend } from './local';
import type { ModelBackend } from './types';

/** Every backend, by the provider a model spec names. */
export const BACKENDS: Readonly<Record<Provider, ModelBackend>> = {
  anthropic: anthropicBackend,
  openai: openaiBackend,
  replay: replayBackend,
  local: localBackend,
  'claude-code': claudeCodeBackend,
};
