/** The provider-neutral shape of one backend call (what the gateway records and caches) and of a backend. */
import type { StageRequest, TokenUsage } from '../../../protocol/types';
import type { ParsedModelSpec } from '../../../protocol/model';
import type { Provenance } from '../../../protocol/provenance';

/** A Messages API request exactly as sent to (or, for replay, as it would be sent to) the backend. */
export interface AnthropicRequest {
  backend: 'anthropic' | 'replay';
  /** Anthropic: "POST /v1/messages"; replay: the reply file read. */
  endpoint: string;
  headers: Record<string, string>;
  body: {
    model: string;
    max_tokens: number;
    temperature: number;
    /** Present only when the study sets stop sequences. */
    stop_sequences?: string[];
    system: string;
    messages: { role: 'user'; content: string }[];
  };
}

/** An OpenAI-compatible chat-completions request exactly as sent (the API key is never recorded). */
export interface OpenAIRequest {
  backend: 'openai';
  /** "POST <OPENAI_BASE_URL>/chat/completions". */
  endpoint: string;
  headers: Record<string, string>;
  body: {
    model: string;
    max_tokens: number;
    temperature: number;
    top_p: number;
    /** Present only when the study sets stop sequences. */
    stop?: string[];
    messages: { role: 'system' | 'user'; content: string }[];
  };
}

/**
 * A local GGUF model's request exactly as the local model host runs it (backends/local.ts): the
 * model file by path and sha256, the generation settings, and the prompt. The worker's thread
 * count is not part of it (recorded in the reply's notes).
 */
export interface LocalRequest {
  backend: 'local';
  /** "local <absolute path of the .gguf file>". */
  endpoint: string;
  headers: Record<string, string>;
  body: {
    /** The model's name: the file name without .gguf. */
    model: string;
    /** sha256 of the model file (so a changed file is a different request). */
    model_sha256: string;
    /** "completion" (a base model: system prompt, stage prompt, blank line), "chat" (the file's chat template), or "auto" (chat when the file has a template). */
    prompt_format: 'auto' | 'chat' | 'completion';
    max_tokens: number;
    temperature: number;
    top_p: number;
    /** 0: the whole vocabulary (llama.cpp's default of 40 is not used). */
    top_k: number;
    /** The sampler's seed, derived from the prompt and the draw: a draw is reproducible, two draws differ. */
    seed: number;
    stop: string[];
    /** Tokens of context, prompt and reply together; null: the model's training context, at most 32,768. */
    context_size: number | null;
    system: string;
    messages: { role: 'user'; content: string }[];
  };
}

/** The request exactly as sent to (or, for replay, as it would be sent to) the backend. */
export type BackendRequest = AnthropicRequest | OpenAIRequest | LocalRequest;

/** One attempt that failed and was retried (or was final). */
export interface AttemptRecord {
  attempt: number;
  status: number | null;
  error: string;
  retryable: boolean;
  /** Milliseconds waited before the next attempt (0 when final). */
  backoffMs: number;
}

export interface BackendReply {
  text: string;
  stopReason: string | null;
  /** The model id the backend reports (Anthropic's `model` field) or 'replay'. */
  responseModel: string;
  responseId: string | null;
  usage: TokenUsage;
  /** Retries performed (attempts - 1). */
  retries: number;
  attempts: AttemptRecord[];
  /** Milliseconds waited on the rate limiter. */
  rateLimitWaitMs: number;
  /** What the backend says about how it answered (a local model: the prompt format used, threads, load and generation times); the call file's `paramNotes` gets them. */
  notes?: string[];
}

/** A failed backend call. `retryable` false: a 400/401/403 (or other permanent 4xx) or a missing replay file. */
export class BackendError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
    readonly attempts: AttemptRecord[],
  ) {
    super(message);
    this.name = retryable ? 'ModelBackendError' : 'ModelRequestRejected';
  }
}

export const ZERO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** The rendered prompt of one call: the system prompt and the stage's user message. */
export interface Prompt {
  system: string;
  user: string;
}

/** A request ready to go, with what the gateway records beside it. */
export interface PreparedRequest<R extends BackendRequest = BackendRequest> {
  /** Exactly as sent (for a local backend: as it would be sent); recorded and hashed into the cache key. */
  request: R;
  /** How the study's intended parameters were (or were not) sent, for the call file's `paramNotes`. */
  notes: string[];
  /** Where a local backend reads its reply (replay: the reply file); absent for a live backend. */
  source?: string;
}

/** A backend's reply and, for a local backend whose reply files state it, the reply's provenance (null: generated by the model). */
export interface Answered {
  reply: BackendReply;
  provenance: Provenance | null;
}

/**
 * One model backend: what the gateway (activities/model/gateway.ts) needs from a provider. A
 * backend is one file in this folder exporting one of these, registered by provider in
 * backends/index.ts. It builds requests and answers them; the gateway does everything else
 * (preflight, cache, ledger, call file), the same way for every backend.
 */
export interface ModelBackend<R extends BackendRequest = BackendRequest> {
  /**
   * true: requests go over the network; the gateway caches replies, announces each paid request
   * in the ledger before it goes out, and prices it. false: answered locally (a replay corpus),
   * never cached or paid.
   */
  readonly live: boolean;
  /** The header that carries the gateway's idempotency key (activities/model/sends.ts), or null when the API has none. */
  readonly idempotencyHeader: string | null;
  /**
   * The request of one call. @throws InputError for a request this backend cannot make (a bad
   * corpus.json, a bad base URL): the call fails without retry.
   */
  prepare(spec: ParsedModelSpec, req: StageRequest, prompt: Prompt): PreparedRequest<R>;
  /** The text of a request the preflight checks: every message, the system prompt included. */
  requestText(request: R): string;
  /**
   * Answers a prepared request: sends it (a live backend, with `idempotencyKey` where the API
   * takes one) or reads the stored reply. @throws BackendError (retryable or not).
   */
  answer(prepared: PreparedRequest<R>, opts: { signal?: AbortSignal; idempotencyKey: string | null }): Promise<Answered>;
  /** What a reply cost in USD (null: no price known) with a note for the call file. */
  price(reply: BackendReply, spec: ParsedModelSpec): { costUsd: number | null; note?: string };
  /** The sha256 of the model file a request runs (a local model), recorded in the reply's `generated` provenance; absent: a model behind an API, known by its id. */
  modelSha256?(request: R): string;
}
