/**
 * The local backend (`local[:<path-or-name>]`, protocol/model.ts): a GGUF model run on the
 * worker's machine by npm's node-llama-cpp (its prebuilt llama.cpp, CPU only), in a child process
 * (localHost.mjs: why a child, and its message protocol). Its calls go through the gateway like
 * every live model's: preflight, cache, ledger (a `sent` line before each generation), budgets;
 * the reply's provenance is `generated` with the model's name and the file's sha256.
 *
 * The request (types.ts LocalRequest) holds the model file's sha256, the generation settings
 * (ModelParams: max tokens, temperature, top-p, context size, stop sequences) and a seed derived
 * from the prompt and the draw (sample, replicate): a draw is reproducible, two samples of one
 * prompt are two requests with two seeds. Sampling is plain: top-k 0 (the whole vocabulary),
 * min-p 0, no repeat penalty (llama.cpp's defaults of 40, 0.05 and 1.1 are not used).
 * Prompt format (`?format=` in the spec): `completion` for a base model without a chat template
 * (the system prompt, a blank line, the stage's prompt, a blank line), `chat` (the file's
 * template), or `auto` (the default: chat when the file has a template).
 *
 * Errors (BackendError): a prompt over the context size is non-retryable and names the model, its
 * context size and the prompt's tokens; a model that does not load is non-retryable; a
 * generation past LOCKIN_MODEL_TIMEOUT_MS is stopped in the host (so a retry does not queue
 * behind it) and retryable; so is a host that died. An abandoned call (the activity cancelled)
 * stops its generation in the host too.
 * Environment: LOCKIN_LOCAL_THREADS (threads per generation, default 1: with two threads on two
 * cores shared with Spark, llama.cpp's threads wait on each other and 50 tokens took over 100 s
 * here, against 9 s with one), LOCKIN_MODEL_TIMEOUT_MS (gateway config).
 */
import { fork, type ChildProcess } from 'child_process';
import * as path from 'path';
import { InputError } from '../../common/errors';
import { canonicalJson, sha256 } from '../../common/hash';
import { modelFileSha256, resolveLocalModel } from '../../common/localModels';
import { REPO_ROOT } from '../../common/paths';
import { gatewayConfig } from '../config';
import { BackendError, type BackendReply, type LocalRequest, type ModelBackend, type PreparedRequest } from './types';

/** The host script (plain ESM, run from the sources: tsc does not compile it). */
export const LOCAL_HOST_SCRIPT = path.join(REPO_ROOT, 'activities', 'model', 'backends', 'localHost.mjs');

/** The context a local model gets when the study sets none: its training context, at most this many tokens. */
export const LOCAL_DEFAULT_MAX_CONTEXT = 32768;

const FORMATS = ['auto', 'chat', 'completion'] as const;

/** What the host answers for one generation (localHost.mjs). */
interface HostResult {
  text: string;
  stopReason: string;
  promptTokens: number;
  evaluatedPromptTokens: number;
  outputTokens: number;
  contextSize: number;
  trainContextSize: number;
  format: 'chat' | 'completion';
  loadMs: number;
  generateMs: number;
  generation: number;
}

interface HostError {
  code: 'context' | 'aborted' | 'load' | 'failed';
  message: string;
  promptTokens?: number;
  contextSize?: number;
  trainContextSize?: number;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/**
 * The local model host: one child process per worker process, started at the first local call
 * and kept (with its loaded models) until the process ends or stopLocalHost(). It holds the event
 * loop only while a request is pending.
 */
class LocalHost {
  private child: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail = '';

  private start(): ChildProcess {
    if (this.child) return this.child;
    const child = fork(LOCAL_HOST_SCRIPT, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: [], cwd: REPO_ROOT, serialization: 'json' });
    child.stderr?.on('data', (d: Buffer) => (this.stderrTail = (this.stderrTail + d.toString()).slice(-2000)));
    child.on('message', (msg: { type: string; id?: number } & Record<string, unknown>) => {
      const p = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
      if (!p) return;
      this.pending.delete(msg.id!);
      this.idle();
      if (msg.type === 'error') p.reject(Object.assign(new Error(String(msg.message)), { host: msg as unknown as HostError }));
      else p.resolve(msg);
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      const why = new Error(`the local model host exited (code ${code}, signal ${signal})${this.stderrTail ? `: ${this.stderrTail.trim().split('\n').slice(-3).join(' | ')}` : ''}`);
      for (const p of this.pending.values()) p.reject(why);
      this.pending.clear();
    });
    child.on('error', () => undefined); // 'exit' follows and rejects what is pending
    this.child = child;
    return child;
  }

  /** Lets the process end while nothing is pending. */
  private idle(): void {
    if (this.pending.size > 0 || !this.child) return;
    this.child.unref();
    this.child.channel?.unref();
    (this.child.stderr as unknown as { unref?: () => void })?.unref?.();
  }

  private busy(child: ChildProcess): void {
    child.ref();
    child.channel?.ref();
    (child.stderr as unknown as { ref?: () => void })?.ref?.();
  }

  /** Sends one request and waits for its answer; `onAbort` receives a function that abandons it. */
  request<T>(body: Record<string, unknown>, onAbort?: (abandon: () => void) => void): Promise<T> {
    const child = this.start();
    const id = this.nextId++;
    this.busy(child);
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      onAbort?.(() => {
        if (this.pending.has(id) && child.connected) child.send({ type: 'abort', id });
      });
      child.send({ ...body, id });
    });
  }

  /** Ends the host (its models are unloaded); the next local call starts a new one. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

const host = new LocalHost();

/** Stops the local model host of this process, if one runs (tests; a worker's shutdown). */
export function stopLocalHost(): Promise<void> {
  return host.stop();
}

/** How many generations this process's host has run, and the models it holds (tests: "two requests", "none again"). */
export function localHostStats(): Promise<{ generations: number; loaded: { path: string; contextSize: number | null }[] }> {
  return host.request({ type: 'stats' });
}

/** Threads per generation: LOCKIN_LOCAL_THREADS, default 1. @throws InputError naming the variable when it is not a positive integer. */
export function localThreads(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.LOCKIN_LOCAL_THREADS;
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new InputError(`must be a positive integer, got "${raw}"`, 'environment', 'LOCKIN_LOCAL_THREADS');
  return n;
}

/**
 * The request of one call to a local model.
 * @throws InputError (field "model") for a missing or non-GGUF file or an unknown `?name=` option.
 */
export function localRequest(modelPart: string, specParams: Readonly<Record<string, string>>, params: import('../../../protocol/model').ModelParams, draw: { sample?: number; replicate?: string }, prompt: { system: string; user: string }): PreparedRequest<LocalRequest> {
  for (const k of Object.keys(specParams)) if (k !== 'format') throw new InputError(`local model spec: unknown option "${k}" (local:<model>?format=auto|chat|completion)`, undefined, 'model');
  const format = (specParams.format ?? 'auto') as LocalRequest['body']['prompt_format'];
  if (!(FORMATS as readonly string[]).includes(format)) throw new InputError(`local model spec: format "${format}" is not one of ${FORMATS.join(', ')}`, undefined, 'model');
  const file = resolveLocalModel(modelPart);
  const modelSha = modelFileSha256(file.path);
  const stop = params.stop ?? [];
  const seedOf = { model_sha256: modelSha, system: prompt.system, user: prompt.user, sample: draw.sample ?? 1, replicate: draw.replicate ?? null };
  const body: LocalRequest['body'] = {
    model: file.name,
    model_sha256: modelSha,
    prompt_format: format,
    max_tokens: params.maxTokens,
    temperature: params.temperature,
    top_p: params.topP,
    top_k: 0,
    seed: parseInt(sha256(canonicalJson(seedOf)).slice(0, 8), 16),
    stop,
    context_size: params.contextSize ?? null,
    system: prompt.system,
    messages: [{ role: 'user', content: prompt.user }],
  };
  const notes = [
    `local model ${file.name} (${file.path}, ${(file.bytes / 1e6).toFixed(0)} MB, sha256 ${modelSha}) run by node-llama-cpp on the worker's machine`,
    `sent: temperature ${params.temperature}, top_p ${params.topP}, max_tokens ${params.maxTokens}${stop.length ? `, stop ${JSON.stringify(stop)}` : ''}; top_k 0 and min_p 0 (the whole vocabulary), no repeat penalty; seed ${body.seed} from the prompt and the draw`,
    params.contextSize ? `context size ${params.contextSize} tokens (the study's setting)` : `context size: the model's training context, at most ${LOCAL_DEFAULT_MAX_CONTEXT} tokens (the study sets none)`,
  ];
  if (params.longContext) notes.push('long context is an Anthropic request header; a local model uses its context size (nothing sent)');
  return { request: { backend: 'local', endpoint: `local ${file.path}`, headers: {}, body }, notes, source: file.path };
}

/**
 * Runs a prepared request in the host.
 * @param opts.signal the activity's cancellation: the generation is stopped in the host.
 * @throws BackendError (see the module doc).
 */
export async function generateLocal(prepared: PreparedRequest<LocalRequest>, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<BackendReply> {
  const b = prepared.request.body;
  const who = `local model ${b.model}`;
  const threads = localThreads();
  const timeoutMs = opts.timeoutMs ?? gatewayConfig().timeoutMs;
  let abandon: (() => void) | null = null;
  let why: string | null = null;
  const timer = setTimeout(() => {
    why = `no reply within ${timeoutMs} ms (LOCKIN_MODEL_TIMEOUT_MS); the generation was stopped`;
    abandon?.();
  }, timeoutMs);
  const onCancel = () => {
    why = 'the call was abandoned (its activity was cancelled); the generation was stopped';
    abandon?.();
  };
  opts.signal?.addEventListener('abort', onCancel, { once: true });
  try {
    if (opts.signal?.aborted) throw new BackendError(`${who}: the call was abandoned before it started`, null, true, []);
    const r = await host.request<HostResult>(
      {
        type: 'generate',
        model: { path: prepared.source, name: b.model, contextSize: b.context_size ?? undefined, threads },
        prompt: { format: b.prompt_format, system: b.system, user: b.messages.map((m) => m.content).join('\n\n') },
        sampling: { maxTokens: b.max_tokens, temperature: b.temperature, topP: b.top_p, topK: b.top_k, seed: b.seed, stop: b.stop },
      },
      (fn) => (abandon = fn),
    );
    const perSecond = r.generateMs > 0 ? (r.outputTokens / (r.generateMs / 1000)).toFixed(1) : 'n/a';
    return {
      text: r.text,
      stopReason: r.stopReason,
      responseModel: b.model,
      responseId: null,
      usage: { inputTokens: r.promptTokens, outputTokens: r.outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 },
      retries: 0,
      attempts: [],
      rateLimitWaitMs: 0,
      notes: [
        `prompt format: ${r.format}${b.prompt_format === 'auto' ? (r.format === 'chat' ? ' (the file has a chat template)' : ' (the file has no chat template: a base model)') : ''}`,
        `llama.cpp context ${r.contextSize} tokens (trained on ${r.trainContextSize}), ${threads} thread(s); ${r.promptTokens} prompt tokens (${r.evaluatedPromptTokens} evaluated, the rest reused from the previous prompt's common start), ${r.outputTokens} generated in ${r.generateMs} ms (${perSecond} tokens/s)${r.loadMs > 50 ? `; the model was loaded for this call in ${r.loadMs} ms` : ''}`,
        ...(r.stopReason === 'length' && r.outputTokens < b.max_tokens ? [`cut at the end of the context (${r.contextSize} tokens), before max_tokens ${b.max_tokens}`] : []),
      ],
    };
  } catch (e) {
    if (e instanceof BackendError) throw e;
    const h = (e as { host?: HostError }).host;
    if (h?.code === 'context') {
      throw new BackendError(
        `${who} (${prepared.source}): the prompt is ${h.promptTokens} tokens, over the model's context size of ${h.contextSize} tokens (${contextSource(b.context_size, h.contextSize)}; trained on ${h.trainContextSize}): raise the context size (--context-size) or shorten the prompt`,
        null,
        false,
        [{ attempt: 1, status: null, error: 'prompt over the context size', retryable: false, backoffMs: 0 }],
      );
    }
    const message = why ?? (e as Error).message;
    const retryable = h?.code !== 'load';
    throw new BackendError(`${who}: ${h?.code === 'load' ? 'the model did not load: ' : ''}${message}`, null, retryable, [{ attempt: 1, status: null, error: message.slice(0, 500), retryable, backoffMs: 0 }]);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCancel);
  }
}

/** Where a context size came from, for the over-context error. */
function contextSource(asked: number | null, got: number | undefined): string {
  if (asked === null) return `its training context, at most ${LOCAL_DEFAULT_MAX_CONTEXT}`;
  return asked === got ? "the study's contextSize" : `the study's contextSize ${asked}, as llama.cpp sized it`;
}

/** The local backend (`local[:<path-or-name>]`): a GGUF model on this machine, never priced. */
export const localBackend: ModelBackend<LocalRequest> = {
  live: true,
  idempotencyHeader: null,
  prepare: (spec, req, prompt) => localRequest(spec.model, spec.params, req.params, { sample: req.sample, replicate: req.replicate }, prompt),
  requestText: (request) => `${request.body.system}\n\n${request.body.messages.map((m) => m.content).join('\n\n')}`,
  answer: async (prepared, opts) => ({ reply: await generateLocal(prepared, { signal: opts.signal }), provenance: null }),
  price: () => ({ costUsd: 0, note: 'local model: no cost (run on this machine)' }),
  modelSha256: (request) => request.body.model_sha256,
};
