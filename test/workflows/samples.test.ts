/**
 * `--samples K` end to end through the workflows, with the real model gateway against a local
 * stub of the Messages API (the other activities scripted): K generations per task, each with its
 * own snapshot and condition branches and records carrying the sample index; a resumed or re-run
 * study makes no request; a replicate makes a fresh one. (Histories recorded before samples
 * existed predate the patch markers and no longer replay: test/workflows/replay.test.ts.)
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTestEnv } from '../support/temporalEnv';
import { scriptedActivities } from '../support/scripted';
import { createWorkers, runWorkersDuring } from '../../worker/createWorkers';
import { buildStudyInput } from '../../client/studyInput';
import { readRunRecords } from '../../activities/store/records';
import { generateReply, messageBody, startStub, Stub, tempEnv, TASK_ID } from '../model/support';
import type { StudyInput } from '../../protocol/inputs';

let env: TestWorkflowEnvironment;
let stub: Stub;
let gw: ReturnType<typeof tempEnv>;

beforeAll(async () => {
  stub = await startStub({ status: 200, body: messageBody(generateReply()) });
  gw = tempEnv(stub.url);
  process.env.LOCKIN_RUNS = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-runs-'));
  env = await createTestEnv();
}, 120_000);

afterAll(async () => {
  await env?.teardown();
  await stub.close();
  gw.cleanup();
});

/** Runs a study whose model calls go to the real gateway (stub), everything else scripted. */
async function run(input: StudyInput, workflowId: string): Promise<{ failed: unknown[] }> {
  const { activities } = scriptedActivities({ pytest: { [TASK_ID]: { 'one-pass': [true] } }, actionable: {}, agree: { [TASK_ID]: false } });
  delete activities.callModel;
  const workers = await createWorkers({ connection: env.nativeConnection, namespace: 'default', activityOverrides: activities });
  return (await runWorkersDuring(workers, () => env.client.workflow.execute('runStudy', { args: [input], workflowId, taskQueue: 'lockin-default' }))) as { failed: unknown[] };
}

const input = (studyId: string, over: Partial<StudyInput> = {}) =>
  buildStudyInput({ studyId, tasks: [TASK_ID], conditions: ['one-pass'], model: 'anthropic:claude-sonnet-4-6', samples: 2, report: false, ...over });

test('--samples 2 on one task: exactly 2 generation requests, two snapshots, records with samples 1 and 2', async () => {
  const res = await run(input('s2'), 'study-s2');
  expect(res.failed).toEqual([]);
  expect(stub.requests.filter((r) => r.path === '/v1/messages')).toHaveLength(2);
  const records = readRunRecords('s2');
  expect(records.map((r) => `${r.taskId}/${r.condition}/s${r.sample}:${r.falsePass}`)).toEqual([`${TASK_ID}/one-pass/s1:true`, `${TASK_ID}/one-pass/s2:true`]);
  const taskDir = path.join(process.env.LOCKIN_RUNS!, 's2', 'tasks', TASK_ID);
  expect(records[0].conditionDir).toBe(path.join(taskDir, 'one-pass'));
  expect(records[1].conditionDir).toBe(path.join(taskDir, 'sample-2', 'one-pass'));
  expect(fs.existsSync(path.join(taskDir, 'sample-2', 'snapshot', 'calls', '01-generate.json'))).toBe(true);
  expect(fs.readdirSync(path.join(process.env.LOCKIN_RUNS!, 's2', 'records')).sort()).toEqual([`${TASK_ID}--one-pass.json`, `${TASK_ID}~s2--one-pass.json`]);
  const children = [];
  for await (const w of env.client.workflow.list({ query: `WorkflowId STARTS_WITH "study-s2/"` })) children.push(w.workflowId);
  expect(children.sort()).toEqual([`study-s2/${TASK_ID}`, `study-s2/${TASK_ID}/one-pass`, `study-s2/${TASK_ID}/sample-2`, `study-s2/${TASK_ID}/sample-2/one-pass`]);
}, 120_000);

test('the same study run again makes no request (both samples recorded); a new study with the same samples is served from the cache', async () => {
  stub.requests.length = 0;
  expect((await run(input('s2'), 'study-s2-again')).failed).toEqual([]);
  expect(stub.requests).toHaveLength(0);
  expect((await run(input('s2-cached'), 'study-s2-cached')).failed).toEqual([]);
  expect(stub.requests).toHaveLength(0);
  const calls = readRunRecords('s2-cached').map((r) => r.stages[0].cacheHit);
  expect(calls).toEqual([true, true]);
}, 120_000);

test('--replicate with --samples 2: the replicate is one fresh generation', async () => {
  stub.requests.length = 0;
  expect((await run(input('s2-rep', { replicate: { tasks: [TASK_ID], label: 'r1' } }), 'study-s2-rep')).failed).toEqual([]);
  // samples 1 and 2 come from the cache (same draws as study s2); the replicate is new.
  expect(stub.requests).toHaveLength(1);
  expect(readRunRecords('s2-rep').map((r) => `${r.replicate ?? '-'}/s${r.sample}/${r.stages[0].cacheHit}`)).toEqual(['-/s1/true', '-/s2/true', 'r1/s1/false']);
}, 120_000);
