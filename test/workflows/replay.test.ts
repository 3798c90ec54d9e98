/**
 * Replay: the recorded history of every workflow of a study replays without a determinism
 * error under the current code, and a deliberately changed workflow raises one.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils';
import { createTestEnv } from '../support/temporalEnv';
import { scriptedActivities } from '../support/scripted';
import { createWorkers, runWorkersDuring, workflowBundle } from '../../worker/createWorkers';
import { buildStudyInput } from '../../client/studyInput';
import { PAPER_CONDITIONS } from '../../protocol/conditions';

let env: TestWorkflowEnvironment;

beforeAll(async () => {
  process.env.LOCKIN_RUNS = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-runs-'));
  env = await createTestEnv();
  const { activities } = scriptedActivities({
    pytest: { a: { 'one-pass': [false], 'test-guided': [false, true], 'plan-audit': [false, false, true] } },
    actionable: { a: true },
  });
  const workers = await createWorkers({ connection: env.nativeConnection, namespace: 'default', activityOverrides: activities });
  const input = buildStudyInput({ studyId: 'replay', tasks: ['a'], conditions: [...PAPER_CONDITIONS], model: 'scripted', report: false });
  await runWorkersDuring(workers, () => env.client.workflow.execute('runStudy', { args: [input], workflowId: 'study-replay', taskQueue: 'lockin-default' }));
}, 180_000);

afterAll(async () => {
  await env?.teardown();
});

const ids = ['study-replay', 'study-replay/a', 'study-replay/a/one-pass', 'study-replay/a/test-guided', 'study-replay/a/plan-audit'];

test.each(ids)('history of %s replays without a determinism error', async (workflowId) => {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  expect(history.events!.length).toBeGreaterThan(5);
  await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId)).resolves.toBeUndefined();
});

test('a changed Test-Guided workflow fails replay with a determinism error', async () => {
  const history = await env.client.workflow.getHandle('study-replay/a/test-guided').fetchHistory();
  const replay = Worker.runReplayHistory({ workflowsPath: require.resolve('../fixtures/workflows/changed') }, history, 'study-replay/a/test-guided');
  await expect(replay).rejects.toBeInstanceOf(DeterminismViolationError);
  // ... for the change itself: a model call where the history has pytest.
  await expect(Worker.runReplayHistory({ workflowsPath: require.resolve('../fixtures/workflows/changed') }, history, 'study-replay/a/test-guided')).rejects.toThrow(/runPytest.*callModel|callModel.*runPytest/);
});

test('a history exported as JSON (lockin study history --export) replays after loading (lockin study replay-check)', async () => {
  const file = path.join(os.tmpdir(), `lockin-history-${process.pid}.json`);
  fs.writeFileSync(file, historyToJSON(await env.client.workflow.getHandle('study-replay/a/plan-audit').fetchHistory()));
  const history = historyFromJSON(JSON.parse(fs.readFileSync(file, 'utf8')));
  expect(history.events!.length).toBeGreaterThan(5);
  await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, 'study-replay/a/plan-audit')).resolves.toBeUndefined();
});

// Which recorded histories replay under the current code (docs/architecture-floors.md,
// "Replay"): those recorded by the workflows of main 0429854 (2026-12-05; every patch marker
// present) do, so a study in flight during the upgrade resumes. The patches that kept older
// histories replayable are deprecated (deprecatePatch): the first round's histories (commit
// 8109ee9), recorded before any marker, no longer replay wherever a retired branch ran; such a
// study is restarted (`lockin study resume`), its model calls answered by the cache.
const MAIN = path.join(__dirname, '..', 'fixtures', 'workflows', 'main-2026-12-05');
test.each(ids)('a history of %s recorded by main 0429854 replays under the current code', async (workflowId) => {
  const history = historyFromJSON(JSON.parse(fs.readFileSync(path.join(MAIN, `${workflowId.replace(/\//g, '--')}.json`), 'utf8')));
  expect(history.events!.length).toBeGreaterThan(5);
  await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId)).resolves.toBeUndefined();
});

const ROUND1 = path.join(__dirname, '..', 'fixtures', 'workflows', 'round1');
test.each(ids)('a history of %s recorded by the first round (before the patch markers) no longer replays', async (workflowId) => {
  const history = historyFromJSON(JSON.parse(fs.readFileSync(path.join(ROUND1, `${workflowId.replace(/\//g, '--')}.json`), 'utf8')));
  expect(history.events!.length).toBeGreaterThan(5);
  await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId)).rejects.toBeInstanceOf(DeterminismViolationError);
});
