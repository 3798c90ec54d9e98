/**
 * The judge is a model call like any other (docs/protocol.md §5; issue "One home for the
 * protocol"): after the comparison, the condition workflow asks for the judge request, sends it
 * with callModel on the model queue (so it is in the history, cached, in the ledger and under the
 * model queue's limits), then labels the run with the reply. Without a judge (no reply to get),
 * no model call is made and the labels come from the executable forms and the heuristic.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTestEnv } from '../support/temporalEnv';
import { scriptedActivities } from '../support/scripted';
import { createWorkers, runWorkersDuring } from '../../worker/createWorkers';
import { buildStudyInput } from '../../client/studyInput';
import { runStudy } from '../../workflows/study';
import { QUEUES } from '../../protocol/queues';
import { conditionWorkflowId, studyWorkflowId, taskWorkflowId } from '../../protocol/layout';

let env: TestWorkflowEnvironment;
const runs = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-judge-'));

beforeAll(async () => {
  process.env.LOCKIN_RUNS = runs;
  env = await createTestEnv();
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

async function run(studyId: string, judge: boolean) {
  const { activities, log } = scriptedActivities({ pytest: { q3: { 'one-pass': [true], 'test-guided': [true] } }, actionable: {}, agree: { q3: false }, judge });
  const workers = await createWorkers({ connection: env.nativeConnection, namespace: 'default', activityOverrides: activities });
  const input = buildStudyInput({ studyId, tasks: ['q3'], conditions: ['one-pass', 'test-guided'], model: 'scripted', taskConcurrency: 1, report: false });
  await runWorkersDuring(workers, () => env.client.workflow.execute(runStudy, { args: [input], workflowId: studyWorkflowId(studyId), taskQueue: QUEUES.default }));
  return log;
}

test('with a judge: comparison, judge request, the judge call on the model queue, then the labels, per condition', async () => {
  const log = await run('judged', true);
  expect(log.modelCalls).toEqual(['q3/shared/generate', 'q3/one-pass/judge', 'q3/test-guided/judge']);
  for (const c of ['one-pass', 'test-guided']) {
    expect(log.evaluation.filter((l) => l.startsWith(`q3/${c} `))).toEqual([`q3/${c} evaluateRun labels=false`, `q3/${c} judgeRequest agree=false`, `q3/${c} labelRun judged=judge:scripted`]);
  }
  // In the condition's history: callModel for stage judge, scheduled on the model queue.
  const history = await env.client.workflow.getHandle(conditionWorkflowId(taskWorkflowId(studyWorkflowId('judged'), 'q3'), 'one-pass')).fetchHistory();
  const scheduled = (history.events ?? []).map((e) => e.activityTaskScheduledEventAttributes).filter((a) => a?.activityType?.name === 'callModel');
  const judgeCalls = scheduled.filter((a) => Buffer.from(a!.input!.payloads![0].data!).toString().includes('"stage":"judge"'));
  expect(judgeCalls.map((a) => a!.taskQueue!.name)).toEqual([QUEUES.model]);
}, 120_000);

test('without a judge reply: no judge call, the labels are made without one', async () => {
  const log = await run('unjudged', false);
  expect(log.modelCalls).toEqual(['q3/shared/generate']);
  expect(log.evaluation.filter((l) => l.startsWith('q3/one-pass '))).toEqual(['q3/one-pass evaluateRun labels=false', 'q3/one-pass judgeRequest agree=false', 'q3/one-pass labelRun judged=none']);
}, 120_000);
