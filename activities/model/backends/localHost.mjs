// The local model host: a child process that runs GGUF models with npm's node-llama-cpp (its
// prebuilt llama.cpp, CPU only) for the `local:` backend (activities/model/backends/local.ts).
//
// Why a child process: node-llama-cpp is an ES module whose graph has a top-level await, so the
// CommonJS worker cannot require() it (Node 20: ERR_REQUIRE_ASYNC_MODULE), and a dynamic import()
// is not available inside jest's module sandbox; a child also keeps a crash of native code out of
// the Temporal worker. Plain JavaScript (ESM), not compiled by tsc: it is run from this folder.
//
// Protocol (Node IPC, JSON messages; every request carries an `id`, every answer echoes it):
//   → {type: 'generate', id, model: {path, name, contextSize, threads}, prompt: {format, system, user},
//      sampling: {maxTokens, temperature, topP, topK, seed, stop}}
//   ← {type: 'result', id, text, stopReason, promptTokens, evaluatedPromptTokens, outputTokens,
//      contextSize, trainContextSize, format, loadMs, generateMs, generation}
//      (evaluatedPromptTokens: those not reused from the previous prompt's common start)
//   ← {type: 'error', id, code: 'context' | 'aborted' | 'load' | 'failed', message, promptTokens?, contextSize?}
//   → {type: 'abort', id}     stops that generation (or drops it from the queue): its answer is an
//                             `aborted` error, and the next generation starts at once
//   → {type: 'stats', id}     ← {type: 'stats', id, generations, loaded: [{path, contextSize}]}
// stopReason: 'stop' (end of text), 'stop_sequence' (one of `stop`), 'length' (maxTokens reached,
// or the end of the context).
// One generation at a time (one context sequence per model): the others wait in order. The
// process exits when its parent disconnects.
import { getLlama, LlamaChatSession, LlamaCompletion } from 'node-llama-cpp';

/** @type {Promise<import('node-llama-cpp').Llama> | null} */
let llamaPromise = null;
/** path|contextSize|threads → Promise<{model, context, sequence, trainContextSize, chatTemplate, loadMs}> */
const loaded = new Map();
/** id → AbortController of a queued or running generation. */
const inFlight = new Map();
let queue = Promise.resolve();
let generations = 0;

function llama() {
  // build 'never': use the prebuilt binary only, never download or compile llama.cpp at run time.
  llamaPromise ??= getLlama({ gpu: false, build: 'never', logLevel: 'error', progressLogs: false });
  return llamaPromise;
}

/** path → Promise<LlamaModel>: a model file is loaded once, whatever contexts it gets. */
const models = new Map();

async function loadModel(m) {
  const key = `${m.path}|${m.contextSize}|${m.threads}`;
  if (!loaded.has(key)) {
    const started = Date.now();
    const p = (async () => {
      if (!models.has(m.path)) {
        const mp = (await llama()).loadModel({ modelPath: m.path });
        models.set(m.path, mp);
        mp.catch(() => models.delete(m.path));
      }
      const model = await models.get(m.path);
      const trainContextSize = model.trainContextSize;
      const contextSize = m.contextSize ?? Math.min(trainContextSize, 32768);
      const context = await model.createContext({ contextSize, threads: m.threads, sequences: 1 });
      // One sequence kept for the context's life: a prompt that starts as the previous one did
      // (the same system prompt and template) is evaluated from where they differ (node-llama-cpp
      // adapts the sequence's state to the new tokens).
      const sequence = context.getSequence();
      const chatTemplate = typeof model.fileInfo.metadata?.tokenizer?.chat_template === 'string';
      return { model, context, sequence, trainContextSize, chatTemplate, loadMs: Date.now() - started };
    })();
    loaded.set(key, p);
    p.catch(() => loaded.delete(key));
  }
  return loaded.get(key);
}

class HostError extends Error {
  constructor(code, message, extra = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
  }
}

function mapStopReason(reason) {
  if (reason === 'maxTokens') return 'length';
  if (reason === 'customStopTrigger') return 'stop_sequence';
  if (reason === 'abort') return 'aborted';
  return 'stop';
}

async function generate(msg, signal) {
  const loadStarted = Date.now();
  let lm;
  try {
    lm = await loadModel(msg.model);
  } catch (e) {
    throw new HostError('load', e instanceof Error ? e.message : String(e));
  }
  const loadMs = Date.now() - loadStarted;
  if (signal.aborted) throw new HostError('aborted', 'the generation was abandoned before it started');
  const { model, context, sequence, trainContextSize, chatTemplate } = lm;
  const format = msg.prompt.format === 'auto' ? (chatTemplate ? 'chat' : 'completion') : msg.prompt.format;
  const text = format === 'chat' ? `${msg.prompt.system}\n${msg.prompt.user}` : completionText(msg.prompt);
  // The BOS token the model adds; the chat template adds a few more tokens than this counts.
  const promptTokens = model.tokenize(text).length + 1;
  if (promptTokens >= context.contextSize) {
    throw new HostError('context', `the prompt is ${promptTokens} tokens, over the context size of ${context.contextSize} tokens`, { promptTokens, contextSize: context.contextSize, trainContextSize });
  }
  const s = msg.sampling;
  const options = {
    signal,
    stopOnAbortSignal: false,
    maxTokens: s.maxTokens,
    temperature: s.temperature,
    topP: s.topP,
    topK: s.topK,
    minP: 0,
    seed: s.seed,
    repeatPenalty: false,
    customStopTriggers: s.stop.length ? s.stop : undefined,
    // Stop at the end of the context instead of dropping the start of the prompt (the reply is
    // then cut: stopReason 'length').
    disableContextShift: true,
  };
  const before = sequence.tokenMeter.getState();
  const started = Date.now();
  let out;
  let after;
  try {
    if (format === 'chat') {
      const session = new LlamaChatSession({ contextSequence: sequence, systemPrompt: msg.prompt.system, autoDisposeSequence: false });
      try {
        const r = await session.promptWithMeta(msg.prompt.user, options);
        out = { text: r.responseText, stopReason: mapStopReason(r.stopReason) };
      } finally {
        session.dispose({ disposeSequence: false });
      }
    } else {
      const completion = new LlamaCompletion({ contextSequence: sequence, autoDisposeSequence: false });
      try {
        const r = await completion.generateCompletionWithMeta(text, options);
        out = { text: r.response, stopReason: mapStopReason(r.metadata.stopReason) };
      } finally {
        completion.dispose({ disposeSequence: false });
      }
    }
  } finally {
    after = sequence.tokenMeter.getState();
  }
  generations++;
  const outputTokens = after.usedOutputTokens - before.usedOutputTokens;
  return {
    ...out,
    promptTokens,
    evaluatedPromptTokens: after.usedInputTokens - before.usedInputTokens,
    outputTokens,
    contextSize: context.contextSize,
    trainContextSize,
    format,
    loadMs,
    generateMs: Date.now() - started,
    generation: generations,
  };
}

/** A base model's prompt: the system prompt, the stage's prompt, and a blank line where the reply starts. */
function completionText(prompt) {
  return `${prompt.system}\n\n${prompt.user}\n\n`;
}

function send(message) {
  if (process.connected) process.send(message);
}

function onGenerate(msg) {
  const controller = new AbortController();
  inFlight.set(msg.id, controller);
  queue = queue.then(async () => {
    try {
      if (controller.signal.aborted) throw new HostError('aborted', 'the generation was abandoned before it started');
      send({ type: 'result', id: msg.id, ...(await generate(msg, controller.signal)) });
    } catch (e) {
      const code = e instanceof HostError ? e.code : controller.signal.aborted ? 'aborted' : 'failed';
      send({ type: 'error', id: msg.id, code, message: e instanceof Error ? e.message : String(e), ...(e instanceof HostError ? e.extra : {}) });
    } finally {
      inFlight.delete(msg.id);
    }
  });
}

process.on('message', (msg) => {
  if (msg?.type === 'generate') onGenerate(msg);
  else if (msg?.type === 'abort') inFlight.get(msg.id)?.abort(new Error('abandoned by the caller'));
  else if (msg?.type === 'stats') send({ type: 'stats', id: msg.id, generations, loaded: [...loaded.keys()].map((k) => ({ path: k.split('|')[0], contextSize: Number(k.split('|')[1]) || null })) });
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
