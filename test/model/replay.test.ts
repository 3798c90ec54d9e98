/** The replay backend: recorded replies by stage and condition, replicate layout, missing files. */
import * as fs from 'fs';
import * as path from 'path';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { callModel } from '../../activities/model/gateway';
import { replayFile } from '../../activities/model/backends/replay';
import { readLedger } from '../../activities/model/ledger';
import { REPO_ROOT, replayCorpusDir } from '../../activities/common/paths';
import { FIXTURES, readJson, stageRequest, tempEnv } from './support';

const corpus = path.join(FIXTURES, 'replay');
const model = `replay:${path.relative(REPO_ROOT, corpus)}`; // relative to the repo root
let env: ReturnType<typeof tempEnv>;
beforeAll(() => (env = tempEnv()));
afterAll(() => env.cleanup());

test('replay file layout', () => {
  expect(replayFile('/c', 'q4', 'generate', 'shared')).toBe('/c/q4/generate.md');
  expect(replayFile('/c', 'q4', 'revise-2', 'test-guided')).toBe('/c/q4/test-guided/revise-2.md');
  expect(replayFile('/c', 'q4', 'c2_5-ground', 'plan-audit')).toBe('/c/q4/plan-audit/c2_5-ground.md');
  expect(replayFile('/c', 'q4', 'c5-revise-1', 'plan-audit')).toBe('/c/q4/plan-audit/c5-revise-1.md');
  expect(replayFile('/c', 'q4', 'judge', 'one-pass')).toBe('/c/q4/judge/one-pass.md');
  expect(replayFile('/c', 'q4', 'generate', 'shared', 'r1')).toBe('/c/q4/replicate-r1/generate.md');
  expect(replayCorpusDir('lockin')).toBe(path.join(REPO_ROOT, 'replay', 'lockin'));
  expect(replayCorpusDir('test/fixtures/x')).toBe(path.join(REPO_ROOT, 'test', 'fixtures', 'x'));
  expect(replayCorpusDir('/abs/dir')).toBe('/abs/dir');
});

test('a replayed generate writes the artifacts, records backend replay, zero usage and cost', async () => {
  const dir = env.dir('snapshot');
  const res = await callModel(stageRequest({ workDir: dir, model }));
  expect(res.ok).toBe(true);
  expect(res.backend).toBe('replay');
  expect(res.cacheHit).toBe(false);
  expect(res.costUsd).toBe(0);
  expect(res.usage).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
  expect(fs.readFileSync(path.join(dir, 'plan.md'), 'utf8')).toContain('group by colour');
  const call = readJson(res.callFile);
  expect(call.backend).toBe('replay');
  expect(call.request.endpoint).toBe(`replay ${path.join(corpus, 'q900', 'generate.md')}`);
  expect(call.request.body.messages[0].content).toContain('A `spark` pytest fixture');
  expect(readLedger().pop()).toMatchObject({ backend: 'replay', stage: 'generate', costUsd: 0 });
  // the call file copies the replay file's provenance; the front matter is not part of the reply
  expect(call.provenance).toEqual({ provenance: 'authored', note: 'a test fixture' });
  expect(call.reply.text.startsWith('Here are the three files.')).toBe(true);
});

test('a replay file without a provenance front matter, or with an invalid one, is refused naming the file and field', async () => {
  const dir = fs.mkdtempSync(path.join(env.home, 'corpus-'));
  const file = path.join(dir, 'q900', 'generate.md');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const call = () => callModel(stageRequest({ workDir: env.dir('snapshot'), model: `replay:${dir}` })).catch((e) => e);
  fs.writeFileSync(file, fs.readFileSync(path.join(corpus, 'q900', 'generate.md'), 'utf8').replace(/^---[\s\S]*?---\n/, ''));
  let err = await call();
  expect(err.nonRetryable).toBe(true);
  expect(err.message).toMatch(new RegExp(`^${file}: no provenance front matter`));
  fs.writeFileSync(file, '---\nprovenance: recorded\nmodel: claude-sonnet-4-6\n---\nHere.\n');
  err = await call();
  expect(err.message).toBe(`${file}: front matter field "recorded": Invalid input: expected string, received undefined`);
});

test('replay by stage: revise-1, c1-extract (JSON), judge, replicate r1', async () => {
  const tg = env.dir('test-guided');
  const rv = await callModel(stageRequest({ workDir: tg, model, condition: 'test-guided', stage: 'revise-1', callIndex: 2 }));
  expect(rv.ok).toBe(true);
  expect(fs.readFileSync(path.join(tg, 'solution.py'), 'utf8')).toContain('.cast("bigint")');
  const pa = env.dir('plan-audit');
  const c1 = await callModel(stageRequest({ workDir: pa, model, condition: 'plan-audit', stage: 'c1-extract', callIndex: 2 }));
  expect((c1.json as { obligations: unknown[] }).obligations).toHaveLength(2);
  const op = env.dir('one-pass');
  fs.writeFileSync(path.join(op, 'judge-input.json'), '{"obligations": [], "execution": {"status": "ok"}}');
  const jd = await callModel(stageRequest({ workDir: op, model, condition: 'one-pass', stage: 'judge', callIndex: 90, inputs: { feedbackFile: path.join(op, 'judge-input.json') } }));
  expect(jd.json).toEqual({ labels: [{ id: 'O1', plan: 'present', code: 'satisfied', test: 'not-covered' }] });
  expect(readJson(jd.callFile).preflight.skipped).toMatch(/evaluation/);
  const rep = path.join(env.taskDir, 'replicate-r1', 'snapshot');
  fs.mkdirSync(rep, { recursive: true });
  const r1 = await callModel(stageRequest({ workDir: rep, model, replicate: 'r1' }));
  expect(fs.readFileSync(path.join(rep, 'plan.md'), 'utf8')).toBe('Replicate r1 plan.\n');
  expect(readJson(r1.callFile).replicate).toBe('r1');
});

test('a missing reply is a non-retryable error naming the file', async () => {
  const dir = env.dir('test-guided');
  const err = await callModel(stageRequest({ workDir: dir, model, condition: 'test-guided', stage: 'revise-2', callIndex: 3 })).catch((e) => e);
  expect(err).toBeInstanceOf(ApplicationFailure);
  expect(err.nonRetryable).toBe(true);
  expect(err.message).toBe(`replay reply not found: ${path.join(corpus, 'q900', 'test-guided', 'revise-2.md')}`);
  expect(readJson(path.join(dir, 'calls', '03-revise-2.json')).status).toBe('failed');
});

test('inside a Temporal activity the gateway heartbeats', async () => {
  const menv = new MockActivityEnvironment();
  const beats: unknown[] = [];
  menv.on('heartbeat', (d: unknown) => beats.push(d));
  const dir = env.dir('snapshot');
  const res = await menv.run(callModel, stageRequest({ workDir: dir, model }));
  expect(res.ok).toBe(true);
  expect(beats[0]).toEqual({ stage: 'generate', callIndex: 1 });
});
