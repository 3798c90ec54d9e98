/**
 * The OpenAI-compatible chat-completions backend (`openai:<model-id>`): OpenAI itself, and any
 * server speaking the same protocol (vLLM, Ollama, llama.cpp server, LiteLLM proxies).
 *   OPENAI_BASE_URL  the API root, e.g. http://localhost:8000/v1 (default https://api.openai.com/v1);
 *                    the request goes to `<root>/chat/completions`
 *   OPENAI_API_KEY   sent as `Authorization: Bearer …`; required for the default root, optional
 *                    for another (local servers often need none). Never written to a call file.
 * Retries as the Anthropic backend (anthropic.ts): 408/409/429/5xx and connection errors back
 * off exponentially (LOCKIN_MODEL_BACKOFF_MS doubled, 0–25 % jitter, at least retry-after /
 * retry-after-ms, capped at LOCKIN_MODEL_BACKOFF_MAX_MS) up to LOCKIN_MODEL_MAX_RETRIES; other
 * 4xx fail at once. A 200 whose body is not a chat completion (not JSON, no
 * `choices[0].message.content` string) is a non-retryable error quoting the body's start.
 * `finish_reason: "content_filter"` or a non-empty `message.refusal` is a refusal (stopReason
 * "refusal": recorded, never cached; gateway.ts); `finish_reason: "length"` is a cut reply (the
 * gateway marks it, reply.ts isCutReply). A 400 saying the prompt is over the context
 * (contextLimit.ts) is not retried and is explained with the model, the limit and the prompt's
 * size. A request past LOCKIN_MODEL_TIMEOUT_MS, or of a cancelled activity, is aborted: its
 * connection is closed, which stops the generation at a server that watches for it (llama.cpp's
 * server and vLLM do), so a retry does not queue behind it.
 */
import { gatewayConfig, type GatewayConfig } from '../config';
import { OPENAI_IDEMPOTENCY_HEADER } from '../sends';
import { sharedLimiter } from '../rateLimit';
import { isRetryableStatus, retryAfterMs } from './anthropic';
import { contextLimitMessage, parseContextLimit } from './contextLimit';
import { AttemptRecord, BackendError, BackendReply, OpenAIRequest, type ModelBackend } from './types';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** The API root from OPENAI_BASE_URL (trailing slashes dropped), else the default. */
export function openaiBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return (env.OPENAI_BASE_URL?.trim() || OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
}

/** A transport-level failure worth retrying (no HTTP status). */
class ConnectionError extends Error {}

/**
 * Reads a chat-completions reply body into a BackendReply (retries and attempts filled by the caller).
 * @throws BackendError (non-retryable) naming what is missing when the body is not a chat completion.
 */
export function parseChatCompletion(text: string): Omit<BackendReply, 'retries' | 'attempts' | 'rateLimitWaitMs'> {
  const malformed = (why: string) => new BackendError(`OpenAI-compatible chat completions: malformed reply body (${why}): ${JSON.stringify(text.slice(0, 200))}`, 200, false, []);
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw malformed('not JSON');
  }
  const choice = body?.choices?.[0];
  const message = choice?.message;
  const refused = choice?.finish_reason === 'content_filter' || (typeof message?.refusal === 'string' && message.refusal.length > 0);
  if (!refused && typeof message?.content !== 'string') throw malformed('no choices[0].message.content string');
  const u = body.usage ?? {};
  const cached = Number(u.prompt_tokens_details?.cached_tokens ?? 0) || 0;
  return {
    text: typeof message?.content === 'string' ? message.content : '',
    stopReason: refused ? 'refusal' : (choice?.finish_reason ?? null),
    responseModel: typeof body.model === 'string' ? body.model : '',
    responseId: typeof body.id === 'string' ? body.id : null,
    usage: { inputTokens: Math.max(0, (Number(u.prompt_tokens) || 0) - cached), outputTokens: Number(u.completion_tokens) || 0, cacheReadTokens: cached, cacheWriteTokens: 0 },
  };
}

/**
 * Sends one chat-completions request, retrying transient failures.
 * @param request the request as recorded (headers without the key; body exactly as sent).
 * @param extraHeaders headers sent with every attempt but not part of the recorded request (and
 *   so not of its cache key): the gateway's `Idempotency-Key` (activities/model/sends.ts).
 * @throws BackendError: retryable = false for a permanent 4xx, a malformed body or a missing key
 *   for the default root; retryable = true when transient failures outlast the retries.
 */
export async function callOpenAI(
  request: OpenAIRequest,
  cfg: GatewayConfig,
  signal?: AbortSignal,
  sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)),
  extraHeaders: Record<string, string> = {},
): Promise<BackendReply> {
  const base = openaiBaseUrl();
  const key = process.env.OPENAI_API_KEY?.trim();
  if (!key && base === OPENAI_DEFAULT_BASE_URL) throw new BackendError('OPENAI_API_KEY is not set (needed for api.openai.com; set OPENAI_BASE_URL for a local server)', null, false, []);
  const url = `${base}/chat/completions`;
  const limiter = sharedLimiter(`openai:${base} ${request.body.model}`, cfg.rpm);
  const attempts: AttemptRecord[] = [];
  let rateLimitWaitMs = 0;
  for (let attempt = 1; ; attempt++) {
    rateLimitWaitMs += await limiter.acquire();
    let status: number | null = null;
    let headers: Headers | null = null;
    let message: string;
    try {
      const timeout = AbortSignal.timeout(cfg.timeoutMs);
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...request.headers, ...extraHeaders, ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify(request.body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      }).catch((e: Error) => {
        throw new ConnectionError(e.message);
      });
      const text = await res.text().catch((e: Error) => {
        throw new ConnectionError(e.message);
      });
      if (res.ok) return { ...parseChatCompletion(text), retries: attempt - 1, attempts, rateLimitWaitMs };
      status = res.status;
      headers = res.headers;
      message = `${status}: ${text}`.slice(0, 500);
      const limit = parseContextLimit(status, text);
      if (limit) {
        const msg = contextLimitMessage(`openai:${request.body.model} (${base})`, limit, request.body.messages.reduce((n, m) => n + m.content.length, 0), text);
        throw new BackendError(msg, status, false, [...attempts, { attempt, status, error: message, retryable: false, backoffMs: 0 }]);
      }
    } catch (e) {
      if (signal?.aborted) throw e; // the activity was cancelled: no retry
      if (e instanceof BackendError) throw e.attempts.length ? e : new BackendError(e.message, e.status, e.retryable, attempts);
      if (!(e instanceof ConnectionError)) throw e;
      message = `connection error: ${e.message}`.slice(0, 500);
    }
    const retryable = isRetryableStatus(status);
    const last = !retryable || attempt > cfg.maxRetries;
    let backoffMs = 0;
    if (!last) {
      const exp = Math.min(cfg.backoffMs * 2 ** (attempt - 1), cfg.backoffMaxMs);
      backoffMs = Math.round(exp * (1 - Math.random() * 0.25));
      const ra = retryAfterMs(headers);
      if (ra !== null) backoffMs = Math.min(Math.max(backoffMs, ra), cfg.backoffMaxMs);
    }
    attempts.push({ attempt, status, error: message, retryable, backoffMs });
    if (last) {
      const why = retryable ? `gave up after ${attempt} attempts` : 'not retryable';
      throw new BackendError(`OpenAI-compatible chat completions ${message} (${why})`, status, retryable, attempts);
    }
    await sleep(backoffMs);
  }
}

/**
 * The openai backend (`openai:<model-id>`): an OpenAI-compatible chat-completions server; the
 * system prompt is the first message, top_p is sent, and the idempotency key goes as a header.
 * No price table: tokens are recorded, the cost is null.
 */
export const openaiBackend: ModelBackend<OpenAIRequest> = {
  live: true,
  idempotencyHeader: OPENAI_IDEMPOTENCY_HEADER,
  prepare: (spec, req, prompt) => ({
    request: {
      backend: 'openai',
      endpoint: `POST ${openaiBaseUrl()}/chat/completions`,
      headers: {},
      body: {
        model: spec.model,
        max_tokens: req.params.maxTokens,
        temperature: req.params.temperature,
        top_p: req.params.topP,
        ...(req.params.stop?.length ? { stop: req.params.stop } : {}),
        messages: [
          { role: 'system', content: prompt.system },
          { role: 'user', content: prompt.user },
        ],
      },
    },
    notes: [
      ...(req.params.longContext ? ['long context is an Anthropic request header; an OpenAI-compatible server uses its own context window (nothing sent)'] : []),
      ...(req.params.contextSize ? [`context size ${req.params.contextSize} is the server's setting (nothing sent): a prompt over the server's context is a non-retried HTTP 400, explained`] : []),
    ],
  }),
  requestText: (request) => request.body.messages.map((m) => m.content).join('\n\n'),
  answer: async (prepared, opts) => ({
    reply: await callOpenAI(prepared.request, gatewayConfig(), opts.signal, undefined, opts.idempotencyKey ? { [OPENAI_IDEMPOTENCY_HEADER]: opts.idempotencyKey } : {}),
    provenance: null,
  }),
  price: (_reply, spec) => ({ costUsd: null, note: `openai-compatible: no price table (tokens recorded; ${spec.model})` }),
};
