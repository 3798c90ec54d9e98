/**
 * The openai: backend against a local HTTP stub of an OpenAI-compatible chat-completions server
 * (OPENAI_BASE_URL): the request as sent, 429 retried after retry-after, 5xx retried, permanent
 * 4xx and malformed bodies as clear errors, refusals, nothing cached on failure, the call's
 * idempotency key sent as Idempotency-Key, a reply cut at `length`, a 400 for a prompt over the
 * context explained, and a timed-out request's connection closed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApplicationFailure } from '@temporalio/common';
import { callModel } from '../../activities/model/gateway';
import { cacheDir } from '../../activities/model/cache';
import { readLedger } from '../../activities/model/ledger';
import { idempotencyKey } from '../../activities/model/sends';
import { parseModelSpec } from '../../protocol/model';
import { parseChatCompletion } from '../../activities/model/backends/openai';
import { generateReply, readJson, stageRequest, startStub, Stub, tempEnv } from './support';

let stub: Stub;
let env: ReturnType<typeof tempEnv>;
const MODEL = 'openai:qwen2.5-coder-32b';

/** A chat-completions success body. */
function completion(text: string, finish = 'stop'): unknown {
  return { id: 'chatcmpl-stub', object: 'chat.completion', model: 'qwen2.5-coder-32b-instruct', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finish }], usage: { prompt_tokens: 1200, completion_tokens: 300, prompt_tokens_details: { cached_tokens: 200 } } };
}

beforeAll(async () => {
  stub = await startStub();
  env = tempEnv();
  process.env.OPENAI_BASE_URL = `${stub.url}/v1/`;
  process.env.OPENAI_API_KEY = 'sk-test-secret';
});
afterAll(async () => {
  await stub.close();
  env.cleanup();
  delete process.env.OPENAI_BASE_URL;
  delete process.env.OPENAI_API_KEY;
});
beforeEach(() => {
  stub.requests.length = 0;
  stub.queue.length = 0;
  fs.rmSync(path.join(env.home, 'cache'), { recursive: true, force: true });
  fs.rmSync(path.join(env.home, 'ledger.jsonl'), { force: true });
  fs.rmSync(env.taskDir, { recursive: true, force: true });
});

const cached = () => (fs.existsSync(cacheDir()) ? fs.readdirSync(cacheDir()) : []);

test('a 429 with retry-after: 1 is retried after 1 s; the request is a chat completion; the key is sent, never recorded', async () => {
  stub.queue.push({ status: 429, body: { error: { message: 'Rate limit reached', type: 'requests' } }, headers: { 'retry-after': '1' } }, { status: 200, body: completion(generateReply()) });
  const dir = env.dir('snapshot');
  const res = await callModel(stageRequest({ workDir: dir, model: MODEL }));
  expect(stub.requests).toHaveLength(2);
  expect(res.ok).toBe(true);
  expect(res.backend).toBe('openai');
  expect(res.usage).toEqual({ inputTokens: 1000, outputTokens: 300, cacheReadTokens: 200, cacheWriteTokens: 0 });
  expect(Object.keys(res.artifacts!).sort()).toEqual(['plan.md', 'solution.py', 'test_solution.py']);
  const sent = stub.requests[1];
  expect(sent.path).toBe('/v1/chat/completions');
  expect(sent.headers.authorization).toBe('Bearer sk-test-secret');
  expect(sent.body.model).toBe('qwen2.5-coder-32b');
  expect([sent.body.temperature, sent.body.top_p, sent.body.max_tokens]).toEqual([1, 1, 4000]);
  expect(sent.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
  expect(sent.body.messages[1].content).toContain('A `spark` pytest fixture');
  const call = readJson(res.callFile);
  expect(call.request.body).toEqual(sent.body);
  expect(call.request.endpoint).toBe(`POST ${stub.url}/v1/chat/completions`);
  expect(call.modelId).toBe('qwen2.5-coder-32b');
  expect(call.attempts).toEqual([{ attempt: 1, status: 429, error: expect.stringContaining('Rate limit reached'), retryable: true, backoffMs: 1000 }]);
  expect(call.retries).toBe(1);
  expect(call.costUsd).toBeNull();
  expect(fs.readFileSync(res.callFile, 'utf8')).not.toContain('sk-test-secret');
  expect(readLedger().map((l) => l.status)).toEqual(['sent', 'ok']); // announced before the request, completed after
  expect(readLedger()[1]).toMatchObject({ backend: 'openai', retries: 1, inputTokens: 1000, outputTokens: 300, costUsd: null, status: 'ok', send: 'paid', idempotencyHeader: 'Idempotency-Key' });
  // The call's idempotency key goes out with every attempt (sends.ts), outside the recorded request (and its cache key).
  const key = idempotencyKey({ studyId: 'study1', taskId: 'q900', condition: 'shared', stage: 'generate', callIndex: 1, replicate: null, sample: 1, model: MODEL }, 1);
  expect(stub.requests.map((r) => r.headers['idempotency-key'])).toEqual([key, key]);
  expect([call.idempotencyKey, readLedger()[0].idempotencyKey]).toEqual([key, key]);
  expect(call.request.headers).toEqual({});
  // Cached: the same draw again makes no request; sample 2 does.
  const again = await callModel(stageRequest({ workDir: dir, model: MODEL }));
  expect(again.cacheHit).toBe(true);
  expect(stub.requests).toHaveLength(2);
  stub.queue.push({ status: 200, body: completion(generateReply()) });
  const s2 = path.join(env.taskDir, 'sample-2', 'snapshot');
  fs.mkdirSync(s2, { recursive: true });
  expect((await callModel(stageRequest({ workDir: s2, model: MODEL, sample: 2 }))).cacheHit).toBe(false);
  expect(stub.requests).toHaveLength(3);
});

test('a 503 is retried; 5xx beyond the retries fail retryable with every attempt recorded and nothing cached', async () => {
  stub.queue.push({ status: 503, body: { error: { message: 'overloaded' } } }, { status: 200, body: completion(generateReply()) });
  const ok = await callModel(stageRequest({ workDir: env.dir('snapshot'), model: MODEL }));
  expect([ok.ok, stub.requests.length]).toEqual([true, 2]);

  fs.rmSync(path.join(env.home, 'cache'), { recursive: true, force: true });
  stub.requests.length = 0;
  const dir = env.dir('one-pass');
  const err = await callModel(stageRequest({ workDir: dir, model: MODEL })).catch((e) => e); // fallback: 500 every time
  expect(err).toBeInstanceOf(ApplicationFailure);
  expect(err.nonRetryable).toBe(false);
  expect(err.message).toMatch(/^OpenAI-compatible chat completions 500: .* \(gave up after 4 attempts\)$/);
  expect(stub.requests).toHaveLength(4); // LOCKIN_MODEL_MAX_RETRIES = 3
  const call = readJson(path.join(dir, 'calls', '01-generate.json'));
  expect(call.status).toBe('failed');
  expect(call.attempts.map((a: { status: number }) => a.status)).toEqual([500, 500, 500, 500]);
  expect(cached()).toEqual([]);
});

test('a 400 fails at once, non-retryable; nothing cached', async () => {
  stub.queue.push({ status: 400, body: { error: { message: "Unsupported parameter: 'top_p'" } } });
  const err = await callModel(stageRequest({ workDir: env.dir('snapshot'), model: MODEL })).catch((e) => e);
  expect(err.nonRetryable).toBe(true);
  expect(err.message).toContain("400: {\"error\":{\"message\":\"Unsupported parameter: 'top_p'\"}}");
  expect(stub.requests).toHaveLength(1);
  expect(cached()).toEqual([]);
});

test('a malformed 200 body is a clear non-retryable error quoting it; nothing cached, nothing written', async () => {
  stub.queue.push({ status: 200, body: null, raw: '<html>502 Bad Gateway</html>' });
  const dir = env.dir('snapshot');
  const err = await callModel(stageRequest({ workDir: dir, model: MODEL })).catch((e) => e);
  expect(err).toBeInstanceOf(ApplicationFailure);
  expect(err.nonRetryable).toBe(true);
  expect(err.message).toBe('OpenAI-compatible chat completions: malformed reply body (not JSON): "<html>502 Bad Gateway</html>"');
  expect(stub.requests).toHaveLength(1);
  expect(cached()).toEqual([]);
  expect(fs.existsSync(path.join(dir, 'solution.py'))).toBe(false);
  expect(readJson(path.join(dir, 'calls', '01-generate.json')).status).toBe('failed');
  stub.queue.push({ status: 200, body: { id: 'x', choices: [] } });
  const err2 = await callModel(stageRequest({ workDir: dir, model: MODEL })).catch((e) => e);
  expect(err2.message).toBe('OpenAI-compatible chat completions: malformed reply body (no choices[0].message.content string): "{\\"id\\":\\"x\\",\\"choices\\":[]}"');
});

test('a content-filter stop is a refusal: a recorded protocol error, never cached', async () => {
  stub.queue.push({ status: 200, body: completion('', 'content_filter') });
  const res = await callModel(stageRequest({ workDir: env.dir('snapshot'), model: MODEL }));
  expect(res.ok).toBe(false);
  expect(res.protocolError).toBe('the model refused (stop_reason refusal)');
  expect(cached()).toEqual([]);
});

test('parsing: usage without cache details; a refusal field; the spec needs a model id', () => {
  const r = parseChatCompletion(JSON.stringify({ model: 'm', choices: [{ message: { content: 'hi' }, finish_reason: 'length' }], usage: { prompt_tokens: 10, completion_tokens: 2 } }));
  expect([r.text, r.stopReason, r.usage.inputTokens, r.usage.cacheReadTokens, r.usage.outputTokens]).toEqual(['hi', 'length', 10, 0, 2]);
  expect(parseChatCompletion(JSON.stringify({ choices: [{ message: { content: null, refusal: 'I cannot help' }, finish_reason: 'stop' }] })).stopReason).toBe('refusal');
  expect(parseModelSpec('openai:gpt-4.1')).toEqual({ provider: 'openai', model: 'gpt-4.1', params: {} });
  expect(() => parseModelSpec('openai:')).toThrow('openai spec needs a model id');
});

test('api.openai.com without OPENAI_API_KEY fails at once, non-retryable, sending nothing', async () => {
  const [base, key] = [process.env.OPENAI_BASE_URL, process.env.OPENAI_API_KEY];
  delete process.env.OPENAI_BASE_URL;
  delete process.env.OPENAI_API_KEY;
  try {
    const err = await callModel(stageRequest({ workDir: env.dir('snapshot'), model: MODEL })).catch((e) => e);
    expect(err.nonRetryable).toBe(true);
    expect(err.message).toBe('OPENAI_API_KEY is not set (needed for api.openai.com; set OPENAI_BASE_URL for a local server)');
    expect(stub.requests).toHaveLength(0);
  } finally {
    process.env.OPENAI_BASE_URL = base;
    process.env.OPENAI_API_KEY = key;
  }
});

test('finish_reason "length" is a cut reply: marked cut in the call file and the result; a cut reply without the three files is a recorded protocol error naming the cut', async () => {
  stub.queue.push({ status: 200, body: completion('```python solution.py\ndef solve(spark, tables):\n    return tables["store_sales"].groupBy(', 'length') });
  const res = await callModel(stageRequest({ workDir: env.dir('snapshot'), model: MODEL, params: { temperature: 1, topP: 1, maxTokens: 300, longContext: false, stop: ['</answer>'] } }));
  expect(res.ok).toBe(false);
  expect(res.cut).toBe(true);
  expect(res.protocolError).toBe("unclosed code block opened at line 1 (````python solution.py`) (the reply was cut at its token limit: stop reason length)");
  const call = readJson(res.callFile);
  expect(call.status).toBe('protocol-error');
  expect(call.cut).toBe(true);
  expect(call.reply.stopReason).toBe('length');
  expect(call.costNote).toContain('reply cut at its token limit (stop reason length)');
  expect(stub.requests[0].body.stop).toEqual(['</answer>']);
  // A finished reply is not cut.
  stub.queue.push({ status: 200, body: completion(generateReply()) });
  const ok = await callModel(stageRequest({ workDir: env.dir('one-pass'), model: MODEL }));
  expect(ok.cut).toBeUndefined();
  expect(readJson(ok.callFile).cut).toBe(false);
  expect(stub.requests[1].body).not.toHaveProperty('stop');
});

test('a 400 for a prompt over the context (llama.cpp server, vLLM wordings) is not retried and names the model, the limit and the prompt size', async () => {
  stub.queue.push({ status: 400, body: { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 5120, n_ctx: 4096 } } });
  const err = (await callModel(stageRequest({ workDir: env.dir('snapshot'), model: MODEL })).catch((e: unknown) => e)) as ApplicationFailure;
  expect(stub.requests).toHaveLength(1);
  expect(err.nonRetryable).toBe(true);
  expect(err.message).toMatch(/^openai:qwen2\.5-coder-32b \(http:\/\/127\.0\.0\.1:\d+\/v1\): the prompt is over the model's context limit, not retried \(HTTP 400\): the prompt is 5120 tokens \(\d+ characters\), the context is 4096 tokens;/);
  expect(cached()).toEqual([]);
  const call = readJson(path.join(env.dir('snapshot'), 'calls', '01-generate.json'));
  expect(call.status).toBe('failed');
  expect(call.httpStatus).toBe(400);

  stub.queue.push({ status: 400, body: { object: 'error', message: "This model's maximum context length is 8192 tokens. However, you requested 17200 tokens (1200 in the messages, 16000 in the completion). Please reduce the length of the messages or completion.", type: 'BadRequestError', code: 400 } });
  const vllm = (await callModel(stageRequest({ workDir: env.dir('one-pass'), model: MODEL })).catch((e: unknown) => e)) as ApplicationFailure;
  expect(vllm.message).toContain('the prompt is 1200 tokens');
  expect(vllm.message).toContain('the context is 8192 tokens; use a model or server with a longer context, or lower max_tokens');
});

test('a request past LOCKIN_MODEL_TIMEOUT_MS is aborted: the server sees its connection closed before it answered (so it can stop generating)', async () => {
  const http = await import('http');
  let closedEarly = 0;
  const slow = http.createServer((req, res) => {
    req.resume();
    const timer = setTimeout(() => res.end(JSON.stringify(completion(generateReply()))), 5000);
    res.on('close', () => {
      if (!res.writableEnded) closedEarly++;
      clearTimeout(timer);
    });
  });
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
  const { port } = slow.address() as import('net').AddressInfo;
  process.env.OPENAI_BASE_URL = `http://127.0.0.1:${port}/v1`;
  process.env.LOCKIN_MODEL_TIMEOUT_MS = '300';
  process.env.LOCKIN_MODEL_MAX_RETRIES = '1';
  try {
    const err = (await callModel(stageRequest({ workDir: env.dir('snapshot'), model: MODEL })).catch((e: unknown) => e)) as ApplicationFailure;
    expect(err.message).toMatch(/connection error: .*(abort|timeout|Timeout)/i);
    await new Promise((r) => setTimeout(r, 100));
    expect(closedEarly).toBe(2); // the first attempt and its one retry, each closed by the client
  } finally {
    process.env.OPENAI_BASE_URL = `${stub.url}/v1/`;
    process.env.LOCKIN_MODEL_MAX_RETRIES = '3';
    delete process.env.LOCKIN_MODEL_TIMEOUT_MS;
    slow.closeAllConnections();
    await new Promise<void>((r) => slow.close(() => r()));
  }
});
