/**
 * callModel against a local stub of the Messages API, with the real SDK pointed at it via
 * ANTHROPIC_BASE_URL: retries, non-retryable rejections, protocol errors, the cache, call files,
 * the ledger and what each stage's request contains.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApplicationFailure } from '@temporalio/common';
import { callFilePath, callModel } from '../../activities/model/gateway';
import { appendLedger, ledgerRepeats, readLedger } from '../../activities/model/ledger';
import { beginSend, idempotencyKey, sendStateFile } from '../../activities/model/sends';
import { cacheDir } from '../../activities/model/cache';
import { errorBody, generateReply, messageBody, readJson, stageRequest, startStub, Stub, tempEnv } from './support';

let stub: Stub;
let env: ReturnType<typeof tempEnv>;

beforeAll(async () => {
  stub = await startStub();
  env = tempEnv(stub.url);
});
afterAll(async () => {
  await stub.close();
  env.cleanup();
});
beforeEach(() => {
  stub.requests.length = 0;
  stub.queue.length = 0;
  fs.rmSync(path.join(env.home, 'cache'), { recursive: true, force: true });
  fs.rmSync(path.join(env.home, 'ledger.jsonl'), { force: true });
  fs.rmSync(env.taskDir, { recursive: true, force: true });
});

test('one 529 then success: one recorded call with one retry, artifacts written, usage and cost recorded', async () => {
  stub.queue.push({ status: 529, body: errorBody('overloaded_error', 'Overloaded') }, { status: 200, body: messageBody(generateReply()) });
  const dir = env.dir('snapshot');
  const res = await callModel(stageRequest({ workDir: dir }));

  expect(stub.requests).toHaveLength(2);
  expect(res.ok).toBe(true);
  expect(res.cacheHit).toBe(false);
  expect(res.backend).toBe('anthropic');
  expect(res.usage).toEqual({ inputTokens: 1000, outputTokens: 500, cacheReadTokens: 0, cacheWriteTokens: 0 });
  expect(res.costUsd).toBeCloseTo(0.0105, 10); // 1000 x $3/M + 500 x $15/M
  expect(Object.keys(res.artifacts!).sort()).toEqual(['plan.md', 'solution.py', 'test_solution.py']);
  expect(fs.readFileSync(path.join(dir, 'solution.py'), 'utf8')).toContain('def solve(spark, tables):');
  expect(res.callFile).toBe(path.join(dir, 'calls', '01-generate.json'));
  expect(fs.readdirSync(path.join(dir, 'calls'))).toEqual(['01-generate.json']);

  const call = readJson(res.callFile);
  expect(call.retries).toBe(1);
  expect(call.attempts).toHaveLength(1);
  expect(call.attempts[0].status).toBe(529);
  expect(call.stage).toBe('generate');
  expect(call.modelId).toBe('claude-sonnet-4-6');
  expect(call.request.body.temperature).toBe(1);
  expect(call.request.body).not.toHaveProperty('top_p');
  expect(call.intendedParams.topP).toBe(1);
  expect(call.request.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
  expect(call.templates.user.name).toBe('generate');
  expect(call.templates.user.version).toBe('v1');
  expect(call.templates.user.sha256).toMatch(/^[0-9a-f]{64}$/);
  expect(call.reply.text).toBe(generateReply());
  expect(call.provenance).toEqual({ provenance: 'generated', model: 'claude-sonnet-4-6', at: call.timing.startedAt });
  expect(call.usage.outputTokens).toBe(500);
  expect(call.preflight.ok).toBe(true);

  // The request exactly as sent equals what the stub received.
  const sent = stub.requests[1];
  expect(sent.path).toBe('/v1/messages');
  expect(sent.body).toEqual(call.request.body);
  expect(sent.headers['anthropic-beta']).toBe('context-1m-2025-08-07');

  const ledger = readLedger();
  expect(ledger.map((l) => l.status)).toEqual(['sent', 'ok']); // announced before the request, completed after
  expect(ledger[1].sendId).toBe(ledger[0].sendId);
  expect(ledger[1]).toMatchObject({ stage: 'generate', condition: 'shared', backend: 'anthropic', cacheHit: false, retries: 1, inputTokens: 1000, outputTokens: 500, status: 'ok' });
});

test('a 401 fails at once, non-retryable, without a retry', async () => {
  stub.queue.push({ status: 401, body: errorBody('authentication_error', 'invalid x-api-key') }, { status: 200, body: messageBody(generateReply()) });
  const dir = env.dir('snapshot');
  const err = await callModel(stageRequest({ workDir: dir })).catch((e) => e);
  expect(err).toBeInstanceOf(ApplicationFailure);
  expect((err as ApplicationFailure).nonRetryable).toBe(true);
  expect((err as ApplicationFailure).message).toContain('401');
  expect(stub.requests).toHaveLength(1);
  const call = readJson(path.join(dir, 'calls', '01-generate.json'));
  expect(call.status).toBe('failed');
  expect(call.httpStatus).toBe(401);
  expect(call.retries).toBe(0);
  expect(fs.existsSync(path.join(dir, 'solution.py'))).toBe(false);
});

test('transient errors beyond the retries fail retryable, with every attempt recorded', async () => {
  for (let i = 0; i < 4; i++) stub.queue.push({ status: 503, body: errorBody('api_error', 'unavailable') });
  const dir = env.dir('snapshot');
  const err = await callModel(stageRequest({ workDir: dir })).catch((e) => e);
  expect(err).toBeInstanceOf(ApplicationFailure);
  expect((err as ApplicationFailure).nonRetryable).toBe(false);
  expect(stub.requests).toHaveLength(4); // 1 + LOCKIN_MODEL_MAX_RETRIES (3)
  expect(readJson(path.join(dir, 'calls', '01-generate.json')).attempts).toHaveLength(4);
});

test('a reply without solution.py is a recorded protocol error; no artifact is written', async () => {
  const reply = generateReply().replace(/```python solution\.py[\s\S]*?\n```\n/, '');
  expect(reply).not.toContain('```python solution.py');
  stub.queue.push({ status: 200, body: messageBody(reply) });
  const dir = env.dir('snapshot');
  const res = await callModel(stageRequest({ workDir: dir }));
  expect(res.ok).toBe(false);
  expect(res.protocolError).toMatch(/^missing file solution\.py/);
  expect(res.artifacts).toBeUndefined();
  expect(fs.existsSync(path.join(dir, 'plan.md'))).toBe(false);
  const call = readJson(res.callFile);
  expect(call.status).toBe('protocol-error');
  expect(call.protocolError).toBe(res.protocolError);
  expect(call.reply.text).toBe(reply);
  expect(readLedger().map((l) => l.status)).toEqual(['sent', 'protocol-error']);
});

test('a duplicated file is a protocol error', async () => {
  stub.queue.push({ status: 200, body: messageBody(generateReply() + '\n```python solution.py\nx = 1\n```\n') });
  const res = await callModel(stageRequest({ workDir: env.dir('snapshot') }));
  expect(res.ok).toBe(false);
  expect(res.protocolError).toBe('duplicated file solution.py');
});

test('the same request twice calls the stub once; the second is a cache hit that bills nothing', async () => {
  stub.queue.push({ status: 200, body: messageBody(generateReply()) });
  const dir = env.dir('snapshot');
  const first = await callModel(stageRequest({ workDir: dir }));
  fs.rmSync(path.join(dir, 'solution.py'));
  const second = await callModel(stageRequest({ workDir: dir }));
  expect(stub.requests).toHaveLength(1);
  expect(first.cacheHit).toBe(false);
  expect(second.cacheHit).toBe(true);
  expect(second.costUsd).toBe(0);
  expect(second.artifacts).toEqual(first.artifacts);
  expect(fs.existsSync(path.join(dir, 'solution.py'))).toBe(true);
  const call = readJson(second.callFile);
  expect(call.cacheHit).toBe(true);
  expect(call.cacheKey).toBe(readJson(first.callFile).cacheKey);
  // a cache hit is still the live model's reply, generated when it was first sampled
  expect(call.provenance).toEqual({ provenance: 'generated', model: call.reply.responseModel, at: call.cachedAt });
  const ledger = readLedger().filter((l) => l.status !== 'sent');
  expect(ledger.map((l) => [l.cacheHit, l.inputTokens, l.costUsd])).toEqual([
    [false, 1000, 0.0105],
    [true, 0, 0],
  ]);
});

test('a tampered cache entry fails verification and is not served', async () => {
  stub.queue.push({ status: 200, body: messageBody(generateReply()) }, { status: 200, body: messageBody(generateReply()) });
  const dir = env.dir('snapshot');
  await callModel(stageRequest({ workDir: dir }));
  const [entryFile] = fs.readdirSync(cacheDir());
  const entry = readJson(path.join(cacheDir(), entryFile));
  entry.request.body.temperature = 0.5;
  fs.writeFileSync(path.join(cacheDir(), entryFile), JSON.stringify(entry));
  const again = await callModel(stageRequest({ workDir: dir }));
  expect(again.cacheHit).toBe(false);
  expect(stub.requests).toHaveLength(2);
});

test('a changed parameter is a different request (no cache hit)', async () => {
  stub.queue.push({ status: 200, body: messageBody(generateReply()) }, { status: 200, body: messageBody(generateReply()) });
  const dir = env.dir('snapshot');
  await callModel(stageRequest({ workDir: dir }));
  const other = await callModel(stageRequest({ workDir: dir, params: { temperature: 0.5, topP: 1, maxTokens: 4000, longContext: false } }));
  expect(other.cacheHit).toBe(false);
  expect(stub.requests).toHaveLength(2);
  expect(stub.requests[1].headers['anthropic-beta']).toBeUndefined();
  expect(stub.requests[1].body.temperature).toBe(0.5);
});

test('JSON stages: a valid c1-extract reply is validated and returned; invalid JSON is a protocol error', async () => {
  const dir = env.dir('plan-audit');
  const good = '```json\n{"obligations": [{"id": "O1", "statement": "one row per colour"}]}\n```';
  stub.queue.push({ status: 200, body: messageBody(good) }, { status: 200, body: messageBody('```json\n{"obligations": [\n```') });
  const ok = await callModel(stageRequest({ workDir: dir, condition: 'plan-audit', stage: 'c1-extract', callIndex: 2 }));
  expect(ok.ok).toBe(true);
  expect(ok.json).toEqual({ obligations: [{ id: 'O1', statement: 'one row per colour' }] });
  expect(readJson(ok.callFile).parsed.json).toEqual(ok.json);
  const bad = await callModel(stageRequest({ workDir: dir, condition: 'plan-audit', stage: 'c2-assess', callIndex: 3, inputs: { priorCalls: [ok.callFile] } }));
  expect(bad.ok).toBe(false);
  expect(bad.protocolError).toMatch(/^invalid JSON/);
});

test('each stage sees only its inputs', async () => {
  const dir = env.dir('plan-audit');
  fs.writeFileSync(path.join(dir, 'solution.py'), 'def solve(spark, tables):\n    return None  # MARKER-SOLUTION\n');
  const failures = path.join(env.taskDir, 'failures.txt');
  fs.writeFileSync(failures, 'FAILED test_solution.py::test_units - MARKER-FAILURE');
  const c1 = '```json\n{"obligations": [{"id": "O1", "statement": "MARKER-PRIOR"}]}\n```';
  const sentUser = () => stub.requests[stub.requests.length - 1].body.messages[0].content as string;
  stub.fallback = { status: 200, body: messageBody(c1) };
  try {
    const r1 = await callModel(stageRequest({ workDir: dir, condition: 'plan-audit', stage: 'c1-extract', callIndex: 2 }));
    let u = sentUser();
    expect(u).toContain('Units sold per widget colour');
    expect(u).toContain('`widget_sales`');
    expect(u).not.toContain('| nullable |'); // no schema metadata before C-2.5
    expect(u).not.toContain('MARKER-SOLUTION'); // candidates enter at C-3

    await callModel(stageRequest({ workDir: dir, condition: 'plan-audit', stage: 'c2_5-ground', callIndex: 4, inputs: { priorCalls: [r1.callFile] } }));
    u = sentUser();
    expect(u).toContain('| ws_price | decimal(7,2) | yes |');
    expect(u).toContain('MARKER-PRIOR');
    expect(u).not.toContain('MARKER-SOLUTION');

    await callModel(stageRequest({ workDir: dir, condition: 'plan-audit', stage: 'c3-audit', callIndex: 5, inputs: { priorCalls: [r1.callFile] } }));
    u = sentUser();
    expect(u).toContain('MARKER-SOLUTION');
    expect(u).toContain('MARKER-PRIOR');

    const tg = env.dir('test-guided');
    fs.writeFileSync(path.join(tg, 'solution.py'), 'def solve(spark, tables):\n    return None  # MARKER-TG\n');
    stub.fallback = { status: 200, body: messageBody('```python solution.py\ndef solve(spark, tables):\n    return 1\n```') };
    const rv = await callModel(stageRequest({ workDir: tg, condition: 'test-guided', stage: 'revise-1', callIndex: 2, inputs: { feedbackFile: failures } }));
    u = sentUser();
    expect(rv.ok).toBe(true);
    expect(Object.keys(rv.artifacts!)).toEqual(['solution.py']);
    expect(u).toContain('MARKER-FAILURE');
    expect(u).toContain('MARKER-TG');
    expect(u).toContain('`plan.md`: frozen');
    expect(u).not.toContain('MARKER-PRIOR');
  } finally {
    stub.fallback = { status: 500, body: errorBody('api_error', 'stub: no scripted response') };
  }
});

test('bad input is rejected non-retryably before anything is sent', async () => {
  const dir = env.dir('snapshot');
  const unknownTask = await callModel(stageRequest({ workDir: dir, taskId: 'q901' })).catch((e) => e);
  expect(unknownTask).toBeInstanceOf(ApplicationFailure);
  expect(unknownTask.nonRetryable).toBe(true);
  expect(unknownTask.message).toContain(path.join('q901', 'task.yaml'));
  const badSpec = await callModel(stageRequest({ workDir: dir, model: 'gemini:pro' })).catch((e) => e);
  expect(badSpec.nonRetryable).toBe(true);
  expect(badSpec.message).toContain('unknown model spec');
  expect(stub.requests).toHaveLength(0);
});

test('a request whose reply was lost (worker killed mid-call) is repeated under its idempotency key, and the ledger counts the repeat', async () => {
  const dir = env.dir('snapshot');
  const req = stageRequest({ workDir: dir });
  const identity = { studyId: 'study1', taskId: 'q900', condition: 'shared', stage: 'generate', callIndex: 1, replicate: null, sample: 1, model: 'anthropic:claude-sonnet-4-6' };
  const K1 = idempotencyKey(identity, 1);
  stub.queue.push({ status: 200, body: messageBody(generateReply()) });
  const first = await callModel(req);
  const call1 = readJson(first.callFile);
  expect([call1.idempotencyKey, call1.attempt, call1.idempotencyHeader, call1.repeatOf]).toEqual([K1, 1, null, null]);
  // The Messages API takes no idempotency header (sends.ts): nothing of the kind is sent.
  expect(Object.keys(stub.requests[0].headers).filter((h) => /idempotency/i.test(h))).toEqual([]);
  expect(readLedger().map((l) => [l.status, l.send, l.idempotencyKey, l.attempt])).toEqual([['sent', undefined, K1, 1], ['ok', 'paid', K1, 1]]);
  expect(fs.existsSync(sendStateFile(identity))).toBe(false); // paid: no open send left

  // What a killed worker leaves: an open send and the `sent` line of a request that never completed.
  fs.rmSync(path.join(env.home, 'cache', 'model'), { recursive: true, force: true }); // the lost reply was never cached
  fs.rmSync(path.join(env.home, 'ledger.jsonl'), { force: true });
  const lost = beginSend(identity, call1.cacheKey);
  expect([lost.idempotencyKey, lost.attempt]).toEqual([K1, 1]);
  appendLedger({ at: '2026-01-01T00:00:00.000Z', studyId: req.studyId, taskId: req.taskId, condition: req.condition, stage: req.stage, callIndex: req.callIndex, backend: 'anthropic', model: req.model, cacheHit: false, status: 'sent', inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null, retries: 0, callFile: first.callFile, sendId: lost.sendId, idempotencyKey: lost.idempotencyKey, attempt: 1 });
  stub.queue.push({ status: 200, body: messageBody(generateReply()) });
  const again = await callModel(req);
  expect(again.cacheHit).toBe(false);
  const call2 = readJson(again.callFile);
  expect([call2.repeatOf, call2.idempotencyKey, call2.attempt]).toEqual([lost.sendId, K1, 1]); // the lost request's key and attempt
  expect(call2.sendId).not.toBe(lost.sendId);
  const rep = ledgerRepeats();
  expect(rep.lostSends.map((l) => l.sendId)).toEqual([lost.sendId]);
  expect(rep.repeats.map((l) => [l.status, l.send, l.repeatOf, l.idempotencyKey])).toEqual([['ok', 'paid', lost.sendId, K1]]);
  expect(rep.repeats[0].costUsd).toBeCloseTo(0.0105, 10); // the repeat's own cost (the lost request's is unknown)
  expect(fs.existsSync(sendStateFile(identity))).toBe(false);
});

test('a send that failed is followed by a new attempt with a new idempotency key', async () => {
  const dir = env.dir('snapshot');
  const req = stageRequest({ workDir: dir, callIndex: 2 });
  const identity = { studyId: 'study1', taskId: 'q900', condition: 'shared', stage: 'generate', callIndex: 2, replicate: null, sample: 1, model: 'anthropic:claude-sonnet-4-6' };
  stub.queue.push({ status: 400, body: errorBody('invalid_request_error', 'bad') });
  const failed = await callModel(req).catch((e) => e);
  expect(failed).toBeInstanceOf(ApplicationFailure);
  expect(readJson(callFilePath(dir, 2, 'generate'))).toMatchObject({ status: 'failed', attempt: 1, idempotencyKey: idempotencyKey(identity, 1) });
  stub.queue.push({ status: 200, body: messageBody(generateReply()) });
  const ok = await callModel(req);
  expect(readLedger().map((l) => [l.status, l.send ?? null, l.attempt, l.idempotencyKey])).toEqual([
    ['sent', null, 1, idempotencyKey(identity, 1)],
    ['failed', 'failed', 1, idempotencyKey(identity, 1)],
    ['sent', null, 2, idempotencyKey(identity, 2)],
    ['ok', 'paid', 2, idempotencyKey(identity, 2)],
  ]);
  expect(ledgerRepeats()).toEqual({ lostSends: [], repeats: [] }); // a failure is not a lost send
  expect(readJson(ok.callFile).repeatOf).toBeNull();
});

test('idempotency keys: equal for equal identity and attempt, different for any other field', () => {
  const id = { studyId: 's', taskId: 'q3', condition: 'one-pass', stage: 'revise-1', callIndex: 2, replicate: null, sample: 1, model: 'anthropic:claude-sonnet-4-6' };
  const k = idempotencyKey(id, 1);
  expect(k).toMatch(/^lockin-[0-9a-f]{40}$/);
  expect(idempotencyKey({ ...id }, 1)).toBe(k);
  const others = [idempotencyKey(id, 2), idempotencyKey({ ...id, sample: 2 }, 1), idempotencyKey({ ...id, replicate: 'r1' }, 1), idempotencyKey({ ...id, callIndex: 3 }, 1), idempotencyKey({ ...id, studyId: 't' }, 1)];
  expect(new Set([k, ...others]).size).toBe(6);
  expect(() => idempotencyKey(id, 0)).toThrow('idempotencyKey: attempt must be an integer ≥ 1, got 0');
});
