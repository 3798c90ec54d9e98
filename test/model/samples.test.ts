/**
 * Sampling that samples: the sample index and the replicate label are part of every model call's
 * identity (cache key, replay file, call file, ledger), so two samples of one prompt are two
 * backend requests, a repeated draw is a cache hit, and a replicate is a fresh generation.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApplicationFailure } from '@temporalio/common';
import { callModel } from '../../activities/model/gateway';
import { cacheGet, cacheKey, cachePut, canonicalJson } from '../../activities/model/cache';
import { replayFile } from '../../activities/model/backends/replay';
import { readLedger } from '../../activities/model/ledger';
import { REPO_ROOT } from '../../activities/common/paths';
import { taskKey } from '../../protocol/layout';
import { parseSamples } from '../../client/studyInput';
import { FIXTURES, generateReply, messageBody, readJson, stageRequest, startStub, Stub, tempEnv } from './support';
import * as crypto from 'crypto';

let stub: Stub;
let env: ReturnType<typeof tempEnv>;

beforeAll(async () => {
  stub = await startStub({ status: 200, body: messageBody(generateReply()) });
  env = tempEnv(stub.url);
});
afterAll(async () => {
  await stub.close();
  env.cleanup();
});
beforeEach(() => {
  stub.requests.length = 0;
  fs.rmSync(path.join(env.home, 'cache'), { recursive: true, force: true });
  fs.rmSync(path.join(env.home, 'ledger.jsonl'), { force: true });
  fs.rmSync(env.taskDir, { recursive: true, force: true });
});

const REQUEST = { backend: 'anthropic', endpoint: 'POST /v1/messages', headers: {}, body: { model: 'm', max_tokens: 1, temperature: 1, system: 's', messages: [{ role: 'user', content: 'u' }] } };
const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

test('cache key: the first draw is the request alone (older entries stay valid); other draws add {sample, replicate}', () => {
  expect(cacheKey(REQUEST)).toBe(sha(canonicalJson(REQUEST)));
  expect(cacheKey(REQUEST, { sample: 1 })).toBe(cacheKey(REQUEST));
  expect(cacheKey(REQUEST, { sample: 2 })).toBe(sha(canonicalJson({ request: REQUEST, draw: { sample: 2, replicate: null } })));
  expect(cacheKey(REQUEST, { replicate: 'r1' })).toBe(sha(canonicalJson({ request: REQUEST, draw: { sample: 1, replicate: 'r1' } })));
  const keys = new Set([cacheKey(REQUEST), cacheKey(REQUEST, { sample: 2 }), cacheKey(REQUEST, { sample: 3 }), cacheKey(REQUEST, { replicate: 'r1' }), cacheKey(REQUEST, { sample: 2, replicate: 'r1' })]);
  expect(keys.size).toBe(5);
});

test('cache entries of a later draw verify on load, and are not served for another draw', () => {
  const reply = { text: 'x', stopReason: 'end_turn', responseModel: 'm', responseId: null, usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, retries: 0, attempts: [], rateLimitWaitMs: 0 };
  const k2 = cachePut(REQUEST, reply, { sample: 2 });
  expect(cacheGet(k2)?.draw).toEqual({ sample: 2 });
  expect(cacheGet(cacheKey(REQUEST))).toBeNull();
  expect(cacheGet(cacheKey(REQUEST, { sample: 3 }))).toBeNull();
  // A hand-edited draw no longer hashes to the key: not served.
  const file = fs.readdirSync(path.join(env.home, 'cache', 'model'))[0];
  const entry = readJson(path.join(env.home, 'cache', 'model', file));
  entry.draw.sample = 3;
  fs.writeFileSync(path.join(env.home, 'cache', 'model', file), JSON.stringify(entry));
  expect(cacheGet(k2)).toBeNull();
});

test('two samples of the same prompt are two backend requests; the same samples again are two cache hits', async () => {
  const s1 = await callModel(stageRequest({ workDir: env.dir('snapshot') }));
  fs.mkdirSync(path.join(env.taskDir, 'sample-2', 'snapshot'), { recursive: true });
  const s2 = await callModel(stageRequest({ workDir: path.join(env.taskDir, 'sample-2', 'snapshot'), sample: 2 }));
  expect(stub.requests).toHaveLength(2);
  // The prompts are byte-identical: only the draw differs.
  expect(stub.requests[0].body).toEqual(stub.requests[1].body);
  expect([s1.cacheHit, s2.cacheHit]).toEqual([false, false]);
  const [c1, c2] = [readJson(s1.callFile), readJson(s2.callFile)];
  expect([c1.sample, c2.sample]).toEqual([1, 2]);
  expect(c1.cacheKey).not.toBe(c2.cacheKey);
  expect(s2.callFile).toBe(path.join(env.taskDir, 'sample-2', 'snapshot', 'calls', '01-generate.json'));

  // A resumed study asks for the same draws: no request, both from the cache, nothing billed.
  const again1 = await callModel(stageRequest({ workDir: env.dir('snapshot') }));
  const again2 = await callModel(stageRequest({ workDir: path.join(env.taskDir, 'sample-2', 'snapshot'), sample: 2 }));
  expect(stub.requests).toHaveLength(2);
  expect([again1.cacheHit, again2.cacheHit, again1.costUsd, again2.costUsd]).toEqual([true, true, 0, 0]);
  expect(readJson(again2.callFile).cacheKey).toBe(c2.cacheKey);
  expect(readLedger().filter((l) => l.status !== 'sent').map((l) => [l.sample, l.cacheHit])).toEqual([[1, false], [2, false], [1, true], [2, true]]);
});

test('a replicate is a fresh generation, not the primary run\'s cached reply', async () => {
  await callModel(stageRequest({ workDir: env.dir('snapshot') }));
  const repDir = path.join(env.taskDir, 'replicate-r1', 'snapshot');
  fs.mkdirSync(repDir, { recursive: true });
  const rep = await callModel(stageRequest({ workDir: repDir, replicate: 'r1' }));
  expect(stub.requests).toHaveLength(2);
  expect(rep.cacheHit).toBe(false);
  expect(readJson(rep.callFile).replicate).toBe('r1');
});

test('replay: sample k reads <stage>.s<k>.md; a missing sample is a non-retryable error naming the file', async () => {
  const corpus = path.join(FIXTURES, 'replay');
  const model = `replay:${path.relative(REPO_ROOT, corpus)}`;
  expect(replayFile('/c', 'q4', 'generate', 'shared', undefined, 2)).toBe('/c/q4/generate.s2.md');
  expect(replayFile('/c', 'q4', 'revise-1', 'test-guided', undefined, 3)).toBe('/c/q4/test-guided/revise-1.s3.md');
  expect(replayFile('/c', 'q4', 'judge', 'plan-audit', 'r1', 2)).toBe('/c/q4/replicate-r1/judge/plan-audit.s2.md');
  expect(replayFile('/c', 'q4', 'c3-audit', 'plan-audit', undefined, 1)).toBe('/c/q4/plan-audit/c3-audit.md');
  const dir2 = path.join(env.taskDir, 'sample-2', 'snapshot');
  fs.mkdirSync(dir2, { recursive: true });
  const s2 = await callModel(stageRequest({ workDir: dir2, model, sample: 2 }));
  expect(s2.ok).toBe(true);
  expect(fs.readFileSync(path.join(dir2, 'plan.md'), 'utf8')).toContain('Second sample');
  const dir3 = path.join(env.taskDir, 'sample-3', 'snapshot');
  fs.mkdirSync(dir3, { recursive: true });
  const err = await callModel(stageRequest({ workDir: dir3, model, sample: 3 })).catch((e) => e);
  expect(err).toBeInstanceOf(ApplicationFailure);
  expect(err.nonRetryable).toBe(true);
  expect(err.message).toBe(`replay reply not found: ${path.join(corpus, 'q900', 'generate.s3.md')} (sample 3 of this stage: the corpus needs one reply file per sample)`);
  expect(stub.requests).toHaveLength(0);
});

test('a sample index must be an integer ≥ 1', async () => {
  const err = await callModel(stageRequest({ workDir: env.dir('snapshot'), sample: 0 })).catch((e) => e);
  expect(err.nonRetryable).toBe(true);
  expect(err.message).toMatch(/sample must be an integer ≥ 1, got 0/);
  expect(stub.requests).toHaveLength(0);
});

test('task keys and --samples', () => {
  expect([taskKey('q4'), taskKey('q4', 'r1'), taskKey('q4', undefined, 1), taskKey('q4', undefined, 2), taskKey('q4', 'r1', 10)]).toEqual(['q4', 'q4@r1', 'q4', 'q4~s2', 'q4@r1~s10']);
  expect([parseSamples(undefined), parseSamples('1'), parseSamples('10')]).toEqual([1, 1, 10]);
  expect(() => parseSamples('0')).toThrow('--samples: "0" is not an integer from 1 to 100');
  expect(() => parseSamples('2.5')).toThrow('--samples: "2.5"');
  expect(() => parseSamples('abc')).toThrow('--samples: "abc"');
});

test('a corpus declaring samples "repeat" (corpus.json) replays the sample-1 reply for a missing sample, and says so; a bad corpus.json names its field', async () => {
  const corpus = path.join(env.home, 'corpus-repeat');
  fs.mkdirSync(path.join(corpus, 'q900'), { recursive: true });
  fs.copyFileSync(path.join(FIXTURES, 'replay', 'q900', 'generate.md'), path.join(corpus, 'q900', 'generate.md'));
  fs.writeFileSync(path.join(corpus, 'corpus.json'), JSON.stringify({ samples: 'repeat' }));
  const dir3 = path.join(env.taskDir, 'sample-3', 'snapshot');
  fs.mkdirSync(dir3, { recursive: true });
  const s3 = await callModel(stageRequest({ workDir: dir3, model: `replay:${corpus}`, sample: 3 }));
  expect(s3.ok).toBe(true);
  const call = readJson(s3.callFile);
  expect(call.request.endpoint).toBe(`replay ${path.join(corpus, 'q900', 'generate.md')}`);
  expect(call.paramNotes).toContain('sample 3: the corpus declares samples "repeat" (corpus.json), so this replays the sample-1 reply');
  expect(call.sample).toBe(3);

  fs.writeFileSync(path.join(corpus, 'corpus.json'), JSON.stringify({ samples: 'always' }));
  const err = await callModel(stageRequest({ workDir: dir3, model: `replay:${corpus}`, sample: 3 })).catch((e) => e);
  expect(err.nonRetryable).toBe(true);
  expect(err.message).toMatch(new RegExp(`^${path.join(corpus, 'corpus.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(samples\\): Invalid`));
});
