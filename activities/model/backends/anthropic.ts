/**
 * The Anthropic Messages API backend (@anthropic-ai/sdk). The SDK's own retries are off
 * (maxRetries 0) so every retry is counted and recorded here: 429, 5xx, 529 (overloaded) and
 * connection errors back off exponentially (base LOCKIN_MODEL_BACKOFF_MS, doubled, 0-25% jitter,
 * honouring retry-after / retry-after-ms, capped) up to LOCKIN_MODEL_MAX_RETRIES; 400/401/403 and
 * other 4xx fail at once (non-retryable). The base URL comes from ANTHROPIC_BASE_URL (SDK default).
 */
import Anthropic from '@anthropic-ai/sdk';
import { gatewayConfig, type GatewayConfig } from '../config';
import { callCost } from '../pricing';
import type { ModelParams } from '../../../protocol/model';
import { sharedLimiter } from '../rateLimit';
import { contextLimitMessage, parseContextLimit } from './contextLimit';
import { AnthropicRequest, AttemptRecord, BackendError, BackendReply, type ModelBackend, type PreparedRequest, type Prompt } from './types';

/** Beta header value requesting the 1M-token context window (the paper's "[1m]" suffix). */
export const LONG_CONTEXT_BETA = 'context-1m-2025-08-07';

/** Is this HTTP status worth retrying? (429, 5xx incl. 529; null = connection error/timeout). */
export function isRetryableStatus(status: number | null): boolean {
  return status === null || status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Milliseconds a 429/5xx reply asks to wait (retry-after-ms, else retry-after in seconds or as a date), or null. */
export function retryAfterMs(headers: unknown): number | null {
  const get = (k: string): string | null => (headers && typeof (headers as Headers).get === 'function' ? (headers as Headers).get(k) : null);
  const ms = Number(get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const s = get('retry-after');
  if (s === null) return null;
  const secs = Number(s);
  if (Number.isFinite(secs)) return secs * 1000;
  const date = Date.parse(s);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : null;
}

/**
 * Sends one request, retrying transient failures.
 * @throws BackendError: retryable = false for permanent 4xx or a missing API key; retryable =
 *   true when transient failures outlast the retries (Temporal may retry the activity later).
 */
export async function callAnthropic(
  request: AnthropicRequest,
  cfg: GatewayConfig,
  signal?: AbortSignal,
  sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)),
): Promise<BackendReply> {
  if (!process.env.ANTHROPIC_API_KEY && !process.env.ANTHROPIC_AUTH_TOKEN) {
    throw new BackendError('ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) is not set', null, false, []);
  }
  const client = new Anthropic({ maxRetries: 0, timeout: cfg.timeoutMs });
  const limiter = sharedLimiter(`anthropic:${request.body.model}`, cfg.rpm);
  const attempts: AttemptRecord[] = [];
  let rateLimitWaitMs = 0;
  for (let attempt = 1; ; attempt++) {
    rateLimitWaitMs += await limiter.acquire();
    try {
      const msg = await client.messages.create(request.body, { headers: request.headers, timeout: cfg.timeoutMs, signal });
      const text = msg.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      return {
        text,
        stopReason: msg.stop_reason ?? null,
        responseModel: msg.model,
        responseId: msg.id ?? null,
        usage: {
          inputTokens: msg.usage?.input_tokens ?? 0,
          outputTokens: msg.usage?.output_tokens ?? 0,
          cacheReadTokens: msg.usage?.cache_read_input_tokens ?? 0,
          cacheWriteTokens: msg.usage?.cache_creation_input_tokens ?? 0,
        },
        retries: attempt - 1,
        attempts,
        rateLimitWaitMs,
      };
    } catch (e) {
      if (signal?.aborted) throw e; // the activity was cancelled: no retry
      const apiErr = e instanceof Anthropic.APIError ? e : null;
      const status = apiErr && typeof apiErr.status === 'number' ? apiErr.status : null;
      if (!apiErr && !(e instanceof Anthropic.AnthropicError)) throw e;
      const retryable = isRetryableStatus(status);
      const message = `${status ?? 'connection error'}: ${(e as Error).message}`.slice(0, 500);
      const limit = parseContextLimit(status, (e as Error).message);
      if (limit) {
        const chars = request.body.system.length + request.body.messages.reduce((n, m) => n + m.content.length, 0);
        throw new BackendError(contextLimitMessage(`anthropic:${request.body.model}`, limit, chars, (e as Error).message), status, false, [...attempts, { attempt, status, error: message, retryable: false, backoffMs: 0 }]);
      }
      const last = !retryable || attempt > cfg.maxRetries;
      let backoffMs = 0;
      if (!last) {
        const exp = Math.min(cfg.backoffMs * 2 ** (attempt - 1), cfg.backoffMaxMs);
        backoffMs = Math.round(exp * (1 - Math.random() * 0.25));
        const ra = retryAfterMs(apiErr?.headers);
        if (ra !== null) backoffMs = Math.min(Math.max(backoffMs, ra), cfg.backoffMaxMs);
      }
      attempts.push({ attempt, status, error: message, retryable, backoffMs });
      if (last) {
        const why = retryable ? `gave up after ${attempt} attempts` : 'not retryable';
        throw new BackendError(`Anthropic Messages API ${message} (${why})`, status, retryable, attempts);
      }
      await sleep(backoffMs);
    }
  }
}

/**
 * The Messages API request of one call (the anthropic backend's, and the shape a replay corpus
 * records). Current Claude models reject temperature and top_p together: temperature is sent,
 * top_p recorded in the notes; long context is the anthropic-beta header.
 */
export function messagesRequest(backend: AnthropicRequest['backend'], endpoint: string, model: string, params: ModelParams, prompt: Prompt): PreparedRequest<AnthropicRequest> {
  const headers: Record<string, string> = {};
  if (params.longContext) headers['anthropic-beta'] = LONG_CONTEXT_BETA;
  const notes = [`top_p ${params.topP} is the study's intended setting and is recorded, not sent (the API rejects temperature and top_p together)`];
  if (params.longContext) notes.push(`long context requested with anthropic-beta: ${LONG_CONTEXT_BETA}`);
  if (params.contextSize) notes.push(`context size ${params.contextSize} is not an API setting (nothing sent; the window is the model's${params.longContext ? ', 1M with the long-context header' : ''})`);
  const body = { model, max_tokens: params.maxTokens, temperature: params.temperature, ...(params.stop?.length ? { stop_sequences: params.stop } : {}), system: prompt.system, messages: [{ role: 'user' as const, content: prompt.user }] };
  return { request: { backend, endpoint, headers, body }, notes };
}

/** The text of a Messages API request the preflight checks: the system prompt, then every message. */
export function messagesRequestText(request: AnthropicRequest): string {
  return `${request.body.system}\n\n${request.body.messages.map((m) => m.content).join('\n\n')}`;
}

/** The anthropic backend (`anthropic[:<model-id>]`): the Messages API, priced from pricing.ts. */
export const anthropicBackend: ModelBackend<AnthropicRequest> = {
  live: true,
  idempotencyHeader: null, // the Messages API takes no idempotency key (sends.ts)
  prepare: (spec, req, prompt) => messagesRequest('anthropic', 'POST /v1/messages', spec.model, req.params, prompt),
  requestText: messagesRequestText,
  answer: async (prepared, opts) => ({ reply: await callAnthropic(prepared.request, gatewayConfig(), opts.signal), provenance: null }),
  price: (reply, spec) => callCost(reply.responseModel || spec.model, reply.usage),
};
