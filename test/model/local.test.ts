/**
 * The `local:` backend with the real test model (gemma3-270m, the 253 MB Gemma 3 270M base model
 * `npm run setup` installs; activities/model/backends/local.ts): real generations through the
 * gateway (cache, ledger, call files, provenance), a real cut reply, a real prompt over the
 * context, two samples, a repeated run that sends nothing, and a generation stopped in the host.
 * Replies are a few to a few dozen tokens, so the file takes seconds beyond loading the model.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApplicationFailure } from '@temporalio/common';
import { callModel } from '../../activities/model/gateway';
import { readLedger } from '../../activities/model/ledger';
import { generateLocal, localHostStats, localRequest, stopLocalHost } from '../../activities/model/backends/local';
import { readJson, stageRequest, tempEnv } from './support';

const REPO = path.resolve(__dirname, '..', '..');
/** Where `npm run setup` put the model (its LOCKIN_HOME, read before tempEnv replaces it). */
const MODELS = process.env.LOCKIN_MODELS_DIR ?? path.join(process.env.LOCKIN_HOME ? path.resolve(process.env.LOCKIN_HOME) : path.join(REPO, '.lockin'), 'models');
const MODEL_FILE = path.join(MODELS, 'gemma3-270m.gguf');
const MODEL_SHA = 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818';
const PROMPT = { system: 'You write PySpark code.', user: 'Count the rows of a DataFrame in PySpark.' };

let env: ReturnType<typeof tempEnv>;
const times: Record<string, number> = {};

beforeAll(() => {
  if (!fs.existsSync(MODEL_FILE)) throw new Error(`${MODEL_FILE} missing: run \`npm run setup\` (it installs the local test model)`);
  env = tempEnv();
  process.env.LOCKIN_MODELS_DIR = MODELS;
});
afterAll(async () => {
  await stopLocalHost();
  env.cleanup();
  delete process.env.LOCKIN_MODELS_DIR;
  process.stderr.write(`[local model test times, ms] ${JSON.stringify(times)}\n`);
});

/** A generate call of the fixture task to the local test model. */
function localCall(workDir: string, over: { maxTokens?: number; contextSize?: number; sample?: number; stop?: string[] } = {}) {
  return stageRequest({
    workDir,
    model: 'local:gemma3-270m',
    params: { temperature: 1, topP: 1, maxTokens: over.maxTokens ?? 8, longContext: false, ...(over.contextSize ? { contextSize: over.contextSize } : {}), ...(over.stop ? { stop: over.stop } : {}) },
    ...(over.sample ? { sample: over.sample } : {}),
  });
}

test('one real generation through the gateway: a generated reply with the model name and file hash, a sent and a paid ledger line; no three files is a recorded protocol error', async () => {
  const t0 = Date.now();
  const res = await callModel(localCall(env.dir('one'), { maxTokens: 16, contextSize: 2048 }));
  times.firstCallWithLoad = Date.now() - t0;
  expect(res.backend).toBe('local');
  expect(res.cacheHit).toBe(false);
  expect(res.costUsd).toBe(0);
  expect(res.usage.inputTokens).toBeGreaterThan(200); // the rendered generate prompt of q900
  expect(res.usage.outputTokens).toBeGreaterThan(0);
  expect(res.usage.outputTokens).toBeLessThanOrEqual(16);
  // 16 tokens of a base model are not three fenced files: a protocol error, recorded, no artifact.
  expect(res.ok).toBe(false);
  expect(res.protocolError).toMatch(/^(missing files? |unclosed code block |unexpected file |duplicated file )/);
  expect(res.artifacts).toBeUndefined();

  const call = readJson(res.callFile);
  expect(call.status).toBe('protocol-error');
  expect(call.provenance).toEqual({ provenance: 'generated', model: 'gemma3-270m', at: call.timing.startedAt, modelSha256: MODEL_SHA });
  expect(call.request.backend).toBe('local');
  expect(call.request.endpoint).toBe(`local ${MODEL_FILE}`);
  expect(call.request.body).toMatchObject({ model: 'gemma3-270m', model_sha256: MODEL_SHA, prompt_format: 'auto', max_tokens: 16, temperature: 1, top_p: 1, top_k: 0, context_size: 2048, stop: [] });
  expect(call.reply.text.length).toBeGreaterThan(0);
  expect(call.paramNotes.join('\n')).toContain('prompt format: completion (the file has no chat template: a base model)');
  expect(call.paramNotes.join('\n')).toMatch(/llama\.cpp context 2048 tokens \(trained on 32768\), 1 thread\(s\)/);
  const ledger = readLedger().filter((l) => l.backend === 'local');
  expect(ledger.map((l) => l.status)).toEqual(['sent', 'protocol-error']);
  expect(ledger[1].outputTokens).toBe(res.usage.outputTokens);
}, 120_000);

test('a real cut reply: max tokens reached is stop reason "length", marked cut in the call file and the result, and named in the protocol error', async () => {
  const t0 = Date.now();
  const res = await callModel(localCall(env.dir('cut'), { maxTokens: 6, contextSize: 2048 }));
  times.cutCall = Date.now() - t0;
  const call = readJson(res.callFile);
  expect(call.reply.stopReason).toBe('length');
  expect(call.usage.outputTokens).toBe(6);
  expect(call.cut).toBe(true);
  expect(res.cut).toBe(true);
  expect(res.protocolError).toContain('the reply was cut at its token limit: stop reason length');
  expect(call.costNote).toContain('reply cut at its token limit (stop reason length)');
}, 60_000);

test('a real prompt over the context: a non-retryable error naming the model, the context size and the prompt size; nothing generated', async () => {
  const before = (await localHostStats()).generations;
  const dir = env.dir('context');
  const err = await callModel(localCall(dir, { contextSize: 256 })).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApplicationFailure);
  const f = err as ApplicationFailure;
  expect(f.nonRetryable).toBe(true);
  expect(f.message).toMatch(/^local model gemma3-270m \(.*gemma3-270m\.gguf\): the prompt is \d{3,} tokens, over the model's context size of 256 tokens \(the study's contextSize; trained on 32768\): raise the context size/);
  const call = readJson(path.join(dir, 'calls', '01-generate.json'));
  expect(call.status).toBe('failed');
  expect(call.error).toBe(f.message);
  expect((await localHostStats()).generations).toBe(before);
}, 60_000);

test('two samples are two requests with two seeds and two different replies; the same calls again send nothing (all cache hits)', async () => {
  const before = (await localHostStats()).generations;
  const t0 = Date.now();
  const s1 = await callModel(localCall(env.dir('s1'), { contextSize: 2048, sample: 1 }));
  const s2 = await callModel(localCall(env.dir('s2'), { contextSize: 2048, sample: 2 }));
  times.twoSamples = Date.now() - t0;
  const c1 = readJson(s1.callFile);
  const c2 = readJson(s2.callFile);
  expect(c1.request.body.seed).not.toBe(c2.request.body.seed);
  expect(c1.reply.text).not.toBe(c2.reply.text);
  expect(c1.cacheKey).not.toBe(c2.cacheKey);
  expect((await localHostStats()).generations).toBe(before + 2);
  const sent = () => readLedger().filter((l) => l.status === 'sent' && l.backend === 'local').length;
  const sentBefore = sent();

  // A resumed study makes the same calls: every one is found in the cache, none is sent.
  const r1 = await callModel(localCall(env.dir('s1'), { contextSize: 2048, sample: 1 }));
  const r2 = await callModel(localCall(env.dir('s2'), { contextSize: 2048, sample: 2 }));
  expect([r1.cacheHit, r2.cacheHit]).toEqual([true, true]);
  expect(readJson(r1.callFile).reply.text).toBe(c1.reply.text);
  expect(readJson(r2.callFile).provenance).toMatchObject({ provenance: 'generated', model: 'gemma3-270m', modelSha256: MODEL_SHA });
  expect(sent()).toBe(sentBefore);
  expect((await localHostStats()).generations).toBe(before + 2);
}, 120_000);

test('an abandoned generation is stopped in the host, so the next one does not queue behind it; a timed-out one too', async () => {
  const prepared = localRequest('gemma3-270m', {}, { temperature: 1, topP: 1, maxTokens: 4000, longContext: false, contextSize: 2048 }, { sample: 7 }, PROMPT);
  const ac = new AbortController();
  const long = generateLocal(prepared, { signal: ac.signal });
  setTimeout(() => ac.abort(), 1500);
  await expect(long).rejects.toThrow('local model gemma3-270m: the call was abandoned (its activity was cancelled); the generation was stopped');

  const t0 = Date.now();
  const short = await generateLocal(localRequest('gemma3-270m', {}, { temperature: 1, topP: 1, maxTokens: 4, longContext: false, contextSize: 2048 }, {}, PROMPT));
  times.afterAbort = Date.now() - t0;
  expect(short.usage.outputTokens).toBe(4);
  expect(short.stopReason).toBe('length');
  // 4 tokens take well under the seconds 4000 would: the abandoned generation no longer runs.
  expect(times.afterAbort).toBeLessThan(20_000);

  await expect(generateLocal(prepared, { timeoutMs: 800 })).rejects.toThrow(/no reply within 800 ms \(LOCKIN_MODEL_TIMEOUT_MS\); the generation was stopped/);
}, 60_000);

test('a spec naming no model file, or a file that is not GGUF, is a clear error naming it', () => {
  expect(() => localRequest('no-such-model', {}, { temperature: 1, topP: 1, maxTokens: 4, longContext: false }, {}, PROMPT)).toThrow(`local model "no-such-model": no file at ${path.join(MODELS, 'no-such-model.gguf')}`);
  const notGguf = path.join(env.home, 'x.gguf');
  fs.writeFileSync(notGguf, 'not a model');
  expect(() => localRequest(notGguf, {}, { temperature: 1, topP: 1, maxTokens: 4, longContext: false }, {}, PROMPT)).toThrow('is not a GGUF file');
  expect(() => localRequest('gemma3-270m', { format: 'xml' }, { temperature: 1, topP: 1, maxTokens: 4, longContext: false }, {}, PROMPT)).toThrow('format "xml" is not one of auto, chat, completion');
});
