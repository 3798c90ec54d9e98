/**
 * Targeted replication (Table VII): a fresh initial generation for the named tasks, both
 * revision branches inheriting the new snapshot, recorded beside (not over) the primary runs.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTestEnv } from '../support/temporalEnv';
import { scriptedActivities } from '../support/scripted';
import { createWorkers, runWorkersDuring } from '../../worker/createWorkers';
import { buildStudyInput } from '../../client/studyInput';
import { PAPER_CONDITIONS } from '../../protocol/conditions';
import { readRunRecords } from '../../activities/store/records';

let env: TestWorkflowEnvironment;

beforeAll(async () => {
  process.env.LOCKIN_RUNS = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-runs-'));
  env = await createTestEnv();
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

test('--replicate q: a second, fresh generation whose snapshot both branches inherit', async () => {
  const { activities, log } = scriptedActivities({
    pytest: { a: { 'one-pass': [true], 'test-guided': [true], 'plan-audit': [false, true] }, b: { 'one-pass': [true], 'test-guided': [true], 'plan-audit': [true] } },
    actionable: { a: true, b: false },
  });
  const workers = await createWorkers({ connection: env.nativeConnection, namespace: 'default', activityOverrides: activities });
  const input = buildStudyInput({ studyId: 'rep', tasks: ['a', 'b'], conditions: [...PAPER_CONDITIONS], model: 'scripted', replicate: { tasks: ['a'], label: 'r1' }, report: false });
  const res = (await runWorkersDuring(workers, () => env.client.workflow.execute('runStudy', { args: [input], workflowId: 'study-rep', taskQueue: 'lockin-default' }))) as { failed: unknown[] };
  expect(res.failed).toEqual([]);
  const records = readRunRecords('rep');
  expect(records.map((r) => `${r.taskId}${r.replicate ? `@${r.replicate}` : ''}/${r.condition}:${r.callsUsed}`)).toEqual([
    'a/one-pass:1', 'a/test-guided:1', 'a/plan-audit:7',
    'a@r1/one-pass:1', 'a@r1/test-guided:1', 'a@r1/plan-audit:7',
    'b/one-pass:1', 'b/test-guided:1', 'b/plan-audit:6',
  ]);
  // Two generations for a (the primary and the fresh one), one for b.
  expect(log.modelCalls.filter((k) => k === 'a/shared/generate')).toHaveLength(1);
  expect(log.modelCalls.filter((k) => k === 'a/shared/generate@r1')).toHaveLength(1);
  expect(log.modelCalls.filter((k) => k.startsWith('b/shared/generate'))).toHaveLength(1);
  // The replicate's branches ran in their own directories, from the replicate's snapshot.
  const rep = records.find((r) => r.taskId === 'a' && r.replicate === 'r1' && r.condition === 'plan-audit')!;
  expect(rep.conditionDir).toContain(path.join('tasks', 'a', 'replicate-r1', 'plan-audit'));
  expect(fs.readFileSync(path.join(path.dirname(rep.conditionDir), 'snapshot', 'plan.md'), 'utf8')).toBe('# plan (generate)\n');
});

test('run again, every task is skipped and its calls still count in the progress (1 shared + the rest per task)', async () => {
  const { activities, log } = scriptedActivities({ pytest: {}, actionable: {} });
  const workers = await createWorkers({ connection: env.nativeConnection, namespace: 'default', activityOverrides: activities });
  const input = buildStudyInput({ studyId: 'rep', tasks: ['a', 'b'], conditions: [...PAPER_CONDITIONS], model: 'scripted', replicate: { tasks: ['a'], label: 'r1' }, report: false });
  const progress = await runWorkersDuring(workers, async () => {
    const handle = await env.client.workflow.start('runStudy', { args: [input], workflowId: 'study-rep-again', taskQueue: 'lockin-default' });
    await handle.result();
    return handle.query<{ tasksDone: number; callsUsed: number }>('progress');
  });
  expect(log.modelCalls).toEqual([]);
  // a: 1 + 0 + 6, a@r1: 1 + 0 + 6, b: 1 + 0 + 5 (the records of the first test).
  expect([progress.tasksDone, progress.callsUsed]).toEqual([3, 20]);
});
