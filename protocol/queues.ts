/** Task queues (README "Architecture"; docs/protocol.md §7). */
import { tryParseModelSpec } from './model';

export const QUEUES = {
  /** Model calls of local backends (replay corpora, scripted test models): no network, no provider limits. */
  model: 'lockin-model',
  /** Anything that starts a JVM: pytest with Spark fixtures, candidate execution, reference builds. */
  spark: 'lockin-spark',
  /** Workflows, store, preflight, compare, scoring, reports. */
  default: 'lockin-default',
} as const;

/**
 * The model-call queue of each live provider: its own worker slots and its own server-side rate
 * limit, so that one provider's 429s (a call waiting out retry-after holds a slot) never stall
 * another provider's calls (a queue per provider; docs/protocol.md §7).
 */
export const PROVIDER_MODEL_QUEUES = {
  anthropic: 'lockin-model-anthropic',
  openai: 'lockin-model-openai',
  /**
   * Local GGUF models (`local:`): served by the workers of the machines that hold the model file,
   * one call at a time per worker by default (LOCKIN_LOCAL_MODEL_CONCURRENCY), since a generation
   * uses the machine's cores and a call waiting in the server's queue has no timeout running.
   */
  local: 'lockin-model-local',
} as const;

/** Every model-call queue a worker serves, local first. */
export const MODEL_QUEUES: readonly string[] = [QUEUES.model, PROVIDER_MODEL_QUEUES.anthropic, PROVIDER_MODEL_QUEUES.openai, PROVIDER_MODEL_QUEUES.local];

/**
 * The task queue of a model call: the provider's queue for a live backend (`anthropic`,
 * `anthropic:<id>`, `openai:<id>`, `local:<model>`; a `claude-code:<id>` session speaks to the Messages API too,
 * so it shares the anthropic queue and its limits), else `lockin-model` (replay corpora,
 * scripted models).
 * Input: a model spec as given to `--model` (protocol/model.ts). Pure; never throws
 * (an invalid spec fails later, in the gateway, with its own error).
 */
export function modelQueue(spec: string): string {
  const provider = tryParseModelSpec(spec)?.provider;
  if (provider === 'claude-code') return PROVIDER_MODEL_QUEUES.anthropic;
  return provider === 'anthropic' || provider === 'openai' || provider === 'local' ? PROVIDER_MODEL_QUEUES[provider] : QUEUES.model;
}
