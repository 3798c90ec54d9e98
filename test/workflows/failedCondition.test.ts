/**
 * One condition's failure does not take its task's other conditions down (new-user finding 12:
 * a Contract-First revision with no replay reply terminated the three finished conditions of q4).
 * Through the real workflows with a scripted model whose cf-revise-2 fails like a missing replay
 * reply (non-retryable): the other conditions are evaluated and recorded, the failed one is named
 * in the study's result and in runs/<id>/failures.json; a task whose every condition fails is a
 * failed task. Expectations written from docs/protocol.md §7 "Failed runs", not from the code.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTestEnv } from '../support/temporalEnv';
import { scriptedActivities } from '../support/scripted';
import { createWorkers, runWorkersDuring } from '../../worker/createWorkers';
import { buildStudyInput } from '../../client/studyInput';
import { completedTasks, readRunRecords } from '../../activities/store/records';
import { runStudy, type StudyResult } from '../../workflows/study';
import { STUDY_KEY } from '../../protocol/searchAttributes';
import { QUEUES } from '../../protocol/queues';
import type { StageRequest } from '../../protocol/types';

let env: TestWorkflowEnvironment;
const runs = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-runs-'));

beforeAll(async () => {
  process.env.LOCKIN_RUNS = runs;
  env = await createTestEnv();
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

const MISSING = (req: StageRequest) => `replay reply not found: replay/lockin/${req.taskId}/${req.condition}/${req.stage}.md`;

test('a Contract-First revision with no reply fails that condition only: one-pass, test-guided and plan-audit keep their records; the failure is named', async () => {
  // ok: every suite passes; cf: the contract suite fails three times, so cf-revise-2 is asked for;
  // all: every condition's calls fail (plan-audit's C-4, test-guided's revision, contract-first's C-0).
  const { activities } = scriptedActivities({
    pytest: {
      ok: { 'one-pass': [true], 'test-guided': [true], 'plan-audit': [true], 'contract-first': [true] },
      cf: { 'one-pass': [true], 'test-guided': [true], 'plan-audit': [true], 'contract-first': [false, false, false] },
      all: { 'one-pass': [false], 'test-guided': [false, false], 'plan-audit': [false], 'contract-first': [false] },
    },
    actionable: { ok: false, cf: false, all: true },
    agree: { ok: true, cf: true, all: false },
  });
  const scriptedCall = activities.callModel;
  activities.callModel = async (req: StageRequest) => {
    const failsHere = (req.taskId === 'cf' && req.stage === 'cf-revise-2') || (req.taskId === 'all' && req.condition !== 'shared');
    if (failsHere) throw ApplicationFailure.nonRetryable(MISSING(req), 'ReplayReplyMissing');
    return scriptedCall(req);
  };
  const workers = await createWorkers({ connection: env.nativeConnection, namespace: env.namespace ?? 'default', activityOverrides: activities });
  const input = buildStudyInput({ studyId: 'fc', tasks: ['ok', 'cf', 'all'], model: 'scripted', taskConcurrency: 3, report: false });
  expect(input.conditions).toEqual(['one-pass', 'test-guided', 'plan-audit', 'contract-first']);
  const res = (await runWorkersDuring(workers, () =>
    env.client.workflow.execute(runStudy, { args: [input], workflowId: 'study-fc', taskQueue: QUEUES.default, typedSearchAttributes: [{ key: STUDY_KEY, value: 'fc' }] }),
  )) as StudyResult;

  // readRunRecords: by task, then Table I's condition order.
  const recorded = readRunRecords('fc').map((r) => `${r.taskId}/${r.condition}`);
  expect(recorded).toEqual(['all/one-pass', 'cf/one-pass', 'cf/test-guided', 'cf/plan-audit', 'ok/one-pass', 'ok/test-guided', 'ok/plan-audit', 'ok/contract-first']);
  expect(res.failed.find((f) => f.task === 'cf/contract-first')).toEqual({ task: 'cf/contract-first', error: 'replay reply not found: replay/lockin/cf/contract-first/cf-revise-2.md' });
  // Task "all": one-pass makes no call of its own, so it is recorded; the other three fail.
  expect(res.failed.map((f) => f.task).sort()).toEqual(['all/contract-first', 'all/plan-audit', 'all/test-guided', 'cf/contract-first']);
  expect(res.tasksRun).toBe(3);
  // runs/fc/failures.json holds what the result says.
  expect(JSON.parse(fs.readFileSync(path.join(runs, 'fc', 'failures.json'), 'utf8')).failed).toEqual(res.failed);
  // A task with a failed condition is not complete: a resumed study runs it again.
  expect((await completedTasks({ studyId: 'fc' })).sort()).toEqual(['ok']);
}, 240_000);
