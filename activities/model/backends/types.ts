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

/**
 * One agent session (claude-code backend, activities/model/backends/claudeCode.ts) as lockin starts
 * it: the Messages-API-shaped prompt (system and one user message, what the session is told) plus
 * everything else that decides the session: the folder it starts in, what it may write, its tools
 * and limits, the harness's versions. The whole object is recorded in the call file and is the
 * cache key (a session is cached whole). Paths are not in it (the folder is a fresh temporary one).
 */
export interface AgentRequest {
  backend: 'claude-code';
  /** "claude-agent-sdk query() → POST <ANTHROPIC_BASE_URL or https://api.anthropic.com>/v1/messages" (the requests the session makes are its own). */
  endpoint: string;
  headers: Record<string, string>;
  body: {
    model: string;
    /** The output-token limit of each of the session's API replies (CLAUDE_CODE_MAX_OUTPUT_TOKENS). */
    max_tokens: number;
    /** Appended to Claude Code's own system prompt (the `claude_code` preset). */
    system: string;
    messages: { role: 'user'; content: string }[];
    /** The session folder as it starts: file name → content (what the stage may see, and nothing else). */
    files: Record<string, string>;
    /** The files the session may create or change; any other write is refused (a permission deviation). */
    writable: string[];
    /** The tools offered (Claude Code's names; `mcp__lockin__run_pytest` is lockin's sandboxed pytest). */
    tools: string[];
    /** At most this many turns (the SDK's maxTurns). */
    max_turns: number;
    /** At most this many tokens (input, output and cache, over every API request of the session). */
    session_tokens: number;
    /** Beta features the session asks for (the 1M-token context window). */
    betas: string[];
    /** The harness: the Agent SDK's and its Claude Code's versions. */
    harness: { agentSdk: string; claudeCode: string };
  };
}

/** The request exactly as sent to (or, for replay, as it would be sent to) the backend. */
export type BackendRequest = AnthropicRequest | OpenAIRequest | LocalRequest | AgentRequest;

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
  /**
   * An agent session's answer is the files it left in its folder (file name → content), not
   * fenced blocks in `text`: the gateway checks them against the stage's reply protocol
   * (reply.ts parseFiles). Absent for a single-request backend.
   */
  files?: Record<string, string>;
  /** An agent session's record (claude-code): what it did, what was refused, its limits. Absent otherwise. */
  session?: AgentSession;
}

/** One tool use the session's permissions refused (activities/model/backends/claudeCodePolicy.ts). */
export interface RefusedToolUse {
  /** The turn (1-based API reply) that asked for it. */
  turn: number;
  tool: string;
  /** The file or command it named, as the model wrote it. */
  target: string;
  /**
   * permission: a write to a file of the folder the stage may not change (plan.md under
   * Test-Guided, the contract under Contract-First): a permission deviation, refused;
   * outside-folder: a path outside the session folder (a reference, another condition);
   * tool-not-offered: a tool the session does not have (Bash, web access).
   */
  kind: 'permission' | 'outside-folder' | 'tool-not-offered';
  reason: string;
}

/**
 * What an agent session did, recorded with its call (the call file's `session`). The transcript
 * itself (every message, tool use and tool result) is `transcript`, which the gateway writes to
 * `calls/NN-<stage>.transcript.jsonl` and replaces here by its path and sha256.
 */
export interface AgentSession {
  sessionId: string | null;
  /** How the session ended: end_turn, max_turns, session_tokens, timeout, error. */
  stop: string;
  /** API replies in the session (the Messages API requests it made). */
  turns: number;
  toolUses: number;
  /** Tool uses by tool name. */
  toolCounts: Record<string, number>;
  refused: RefusedToolUse[];
  /** pytest runs through lockin's sandbox (the run_pytest tool): outcome line of each. */
  pytestRuns: { turn: number; passed: boolean; summary: string }[];
  /** Token usage per API reply (what the limit counts). */
  usageByTurn: TokenUsage[];
  /** The cost Claude Code computed itself (its `total_cost_usd`), beside lockin's own price. */
  harnessCostUsd: number | null;
  limits: { maxTurns: number; sessionTokens: number; timeoutMs: number };
  durationMs: number;
  /** Every SDK message of the session, in order (written to a file by the gateway, never into a payload). */
  transcript?: unknown[];
  /** Set by the gateway once the transcript is written: `calls/NN-<stage>.transcript.jsonl` and its sha256. */
  transcriptFile?: { path: string; sha256: string; entries: number };
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
  /**
   * What an agent backend needs beside the request and that is not part of it (not hashed, not
   * recorded): the call's work folder, stage and study (where the session's pytest runs read
   * the study's Spark settings). Absent for other backends.
   */
  local?: { workDir: string; studyId: string; stage: string };
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
   * Prompt partials this backend replaces (partial name → the partial rendered instead), so the
   * stage prompt is the same for every backend but how to deliver: an agent session writes its
   * files in its folder instead of replying with fenced blocks. Absent: the templates as written.
   */
  readonly promptPartials?: Readonly<Record<string, string>>;
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
