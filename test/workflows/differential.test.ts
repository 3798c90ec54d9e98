/**
 * Differential execution in a study (differential execution): after the comparison on the study database, the
 * evaluation executes the frozen candidate on the variant databases (activity executeOnVariants,
 * scripted here) and the run record gets `differential` and `referenceAgreementDifferential`
 * (agrees on the study database and on every variant compared; a variant where the reference SQL
 * fails does not count). Without variant databases nothing is recorded (absent = not run).
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
import { studyWorkflowId } from '../../protocol/layout';
import { readRunRecords } from '../../activities/store/records';
import type { DifferentialOutcome } from '../../protocol/records';

let env: TestWorkflowEnvironment;
const runs = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-differential-wf-'));

beforeAll(async () => {
  process.env.LOCKIN_RUNS = runs;
  env = await createTestEnv();
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

const db = (database: string, verdict: DifferentialOutcome['databases'][number]['verdict']) => ({ database, manifestHash: `${database}-hash`, verdict, summary: verdict });

async function run(studyId: string, differential: Record<string, DifferentialOutcome> | undefined) {
  const { activities } = scriptedActivities({ pytest: { q3: { 'one-pass': [true] }, q7: { 'one-pass': [true] } }, actionable: {}, agree: { q3: true, q7: true }, differential });
  const workers = await createWorkers({ connection: env.nativeConnection, namespace: 'default', activityOverrides: activities });
  const input = buildStudyInput({ studyId, tasks: ['q3', 'q7'], conditions: ['one-pass'], model: 'scripted', taskConcurrency: 1, report: false });
  await runWorkersDuring(workers, () => env.client.workflow.execute(runStudy, { args: [input], workflowId: studyWorkflowId(studyId), taskQueue: QUEUES.default }));
  return readRunRecords(studyId);
}

test('a run agreeing on the study database but not on a variant is differential-disagreeing; a failed reference SQL does not count; no variants: nothing recorded', async () => {
  const q3 = { databases: [db('nulls', 'agree'), db('dupdims', 'disagree')] };
  const q7 = { databases: [db('nulls', 'reference-failed'), db('dupdims', 'agree')] };
  const records = await run('differential', { q3, q7 });
  const rec = (t: string) => records.find((r) => r.taskId === t)!;
  expect([rec('q3').referenceAgreement, rec('q3').referenceAgreementDifferential, rec('q3').falsePass]).toEqual([true, false, false]);
  expect(rec('q3').differential).toEqual(q3);
  expect([rec('q7').referenceAgreement, rec('q7').referenceAgreementDifferential]).toEqual([true, true]);
  const none = await run('no-variants', undefined);
  expect(none).toHaveLength(2);
  for (const r of none) {
    expect(r.referenceAgreement).toBe(true);
    expect('referenceAgreementDifferential' in r).toBe(false);
    expect('differential' in r).toBe(false);
  }
}, 240_000);
