/**
 * Scale out by adding workers (warm Spark slots; infra/README.md "Which task queue needs which machine"):
 * `lockin worker --queues` serves only the named queues. A study finishes when one worker set
 * serves the workflows and model calls and two others serve only Spark, one of which stops in
 * the middle of the study: the other Spark worker finishes it, and the records are those of a
 * study served by one worker. Scripted activities (test/support/scripted.ts).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { createTestEnv } from '../support/temporalEnv';
import { scriptedActivities, type Script } from '../support/scripted';
import { createWorkers, runWorkersDuring } from '../../worker/createWorkers';
import { ALL_QUEUES, parseQueueSelection } from '../../worker/queueSelection';
import { buildStudyInput } from '../../client/studyInput';
import { readRunRecords } from '../../activities/store/records';
import { PAPER_CONDITIONS } from '../../protocol/conditions';

test('parseQueueSelection: short and full names, ALL_QUEUES order, no duplicates; unknown or empty names the source', () => {
  expect(ALL_QUEUES).toEqual(['lockin-default', 'lockin-model', 'lockin-model-anthropic', 'lockin-model-openai', 'lockin-model-local', 'lockin-spark']);
  expect(parseQueueSelection('all')).toEqual(ALL_QUEUES);
  expect(parseQueueSelection('spark')).toEqual(['lockin-spark']);
  expect(parseQueueSelection('spark, default,models')).toEqual(['lockin-default', 'lockin-model', 'lockin-model-anthropic', 'lockin-model-openai', 'lockin-model-local', 'lockin-spark']);
  expect(parseQueueSelection('local,spark')).toEqual(['lockin-model-local', 'lockin-spark']);
  expect(parseQueueSelection('anthropic,lockin-model,model')).toEqual(['lockin-model', 'lockin-model-anthropic']);
  expect(() => parseQueueSelection('spark,gpu', 'LOCKIN_WORKER_QUEUES')).toThrow('LOCKIN_WORKER_QUEUES: unknown queue "gpu"');
  expect(() => parseQueueSelection(' , ')).toThrow('--queues: no queue named');
});

const SPARK_ACTIVITIES = ['runPytest', 'smokeCheck', 'executeCandidate', 'labelByExecution'];
const SCRIPT: Script = {
  pytest: {
    a: { 'one-pass': [true], 'test-guided': [true], 'plan-audit': [true] },
    b: { 'one-pass': [false], 'test-guided': [false, true], 'plan-audit': [true] },
    c: { 'one-pass': [false], 'test-guided': [false, false, false], 'plan-audit': [false, true] },
  },
  actionable: { a: false, b: false, c: true },
  agree: { a: false, b: true, c: false },
};

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await createTestEnv();
}, 120_000);
afterAll(async () => {
  await env?.teardown();
});

/** The records of a study as "task condition testPassed referenceAgreement calls stopReason", sorted. */
function verdicts(studyId: string): string[] {
  return readRunRecords(studyId).map((r) => `${r.taskId} ${r.condition} ${r.testPassed} ${r.referenceAgreement} ${r.callsUsed} ${r.stopReason}`).sort();
}

async function runStudy(studyId: string, workers: Worker[]): Promise<void> {
  const input = buildStudyInput({ studyId, tasks: ['a', 'b', 'c'], conditions: [...PAPER_CONDITIONS], model: 'replay:fixture', report: false });
  await runWorkersDuring(workers, async () => {
    const res = (await (await env.client.workflow.start('runStudy', { args: [input], workflowId: `study-${studyId}`, taskQueue: 'lockin-default' })).result()) as { failed: unknown[] };
    expect(res.failed).toEqual([]);
  });
}

test('split workers: workflows and models on one, Spark on two; one Spark worker stops mid-study, the other finishes it; verdicts as with one worker', async () => {
  process.env.LOCKIN_RUNS = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-runs-'));
  // The reference: one worker set serving every queue.
  await runStudy('one', await createWorkers({ connection: env.nativeConnection, namespace: 'default', activityOverrides: scriptedActivities(SCRIPT).activities }));

  const ranOn: Record<string, string[]> = { main: [], spark1: [], spark2: [] };
  const { activities } = scriptedActivities(SCRIPT);
  let spark1: Worker[] = [];
  /**
   * The scripted activities, each recording which worker set ran it; spark1 is told to stop after
   * its second job. A worker that stops finishes the jobs it already holds (Temporal's graceful
   * shutdown), so spark1 may record a job or two more; the other Spark worker must finish the rest.
   */
  const tagged = (name: keyof typeof ranOn) =>
    Object.fromEntries(
      Object.entries(activities).map(([k, fn]) => [
        k,
        async (...args: unknown[]) => {
          const out = await fn(...args);
          if (SPARK_ACTIVITIES.includes(k)) {
            ranOn[name].push(k);
            if (name === 'spark1' && ranOn.spark1.length === 2) spark1.forEach((w) => w.getState() === 'RUNNING' && w.shutdown());
          }
          return out;
        },
      ]),
    );
  const main = await createWorkers({ connection: env.nativeConnection, namespace: 'default', activityOverrides: tagged('main'), queues: parseQueueSelection('default,models') });
  spark1 = await createWorkers({ connection: env.nativeConnection, namespace: 'default', activityOverrides: tagged('spark1'), queues: parseQueueSelection('spark') });
  // The second Spark worker joins once the first has stopped (so the first certainly ran jobs).
  const spark2Promise = (async () => {
    while (ranOn.spark1.length < 2) await new Promise((r) => setTimeout(r, 50));
    const w = await createWorkers({ connection: env.nativeConnection, namespace: 'default', activityOverrides: tagged('spark2'), queues: parseQueueSelection('spark') });
    await runWorkersDuring(w, async () => {
      while (!done) await new Promise((r) => setTimeout(r, 50));
    });
  })();
  let done = false;
  expect(main.map((w) => w.options.taskQueue)).toEqual(['lockin-default', 'lockin-model', 'lockin-model-anthropic', 'lockin-model-openai', 'lockin-model-local']);
  expect(spark1.map((w) => w.options.taskQueue)).toEqual(['lockin-spark']);
  await runStudy('split', [...main, ...spark1]).finally(() => (done = true));
  await spark2Promise;

  expect(ranOn.main).toEqual([]); // no Spark job ran where the Spark queue is not served
  // spark1 stopped mid-study: it ran at least the two jobs before its stop, not all of them.
  expect(ranOn.spark1.length).toBeGreaterThanOrEqual(2);
  expect(ranOn.spark2.length).toBeGreaterThan(0);
  expect(verdicts('split')).toEqual(verdicts('one'));
  expect(verdicts('split')).toHaveLength(9);
}, 240_000);
