/** The provider-neutral shape of one backend call (what the gateway records and caches). */
import type { TokenUsage } from '../../../protocol/types';

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
    messages: { role: 'system' | 'user'; content: string }[];
  };
}

/** The request exactly as sent to (or, for replay, as it would be sent to) the backend. */
export type BackendRequest = AnthropicRequest | OpenAIRequest;

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
