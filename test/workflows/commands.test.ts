/**
 * The workflows behind single CLI commands (workflows/commands.ts) on a local Temporal server with
 * lockin's workers and scripted activities: obligationsCheck checks its tasks in lanes, lists them
 * as they finish (the obligationsCheckProgress query) and sums them up from their files in task
 * order; a command's step that throws is not retried and its bad-input message reaches the CLI
 * (inputErrorMessage); referenceReproduction runs on the Spark queue; the workflow id of a
 * command is its name and a hash of its arguments.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowFailedError } from '@temporalio/client';
import { createTestEnv } from '../support/temporalEnv';
import { createWorkers, runWorkersDuring } from '../../worker/createWorkers';
import { QUEUES } from '../../protocol/queues';
import { obligationsCheckProgressQuery } from '../../protocol/queries';
import { DEFAULT_SPARK_SETTINGS } from '../../protocol/settings';
import { InputError } from '../../activities/common/errors';
import { commandWorkflowId, inputErrorMessage } from '../../client/commandWorkflow';
import type { ObligationsCheckDone } from '../../protocol/inputs';

let env: TestWorkflowEnvironment;
let dir: string;

beforeAll(async () => {
  env = await createTestEnv();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-commands-'));
}, 120_000);

afterAll(async () => {
  await env?.teardown();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs `fn` while lockin's workers serve every queue with `activities` in place of the real ones. */
async function withWorkers<T>(activities: Record<string, (...args: any[]) => Promise<unknown>>, fn: () => Promise<T>): Promise<T> {
  const workers = await createWorkers({ connection: env.nativeConnection, namespace: env.namespace ?? 'default', activityOverrides: activities });
  return runWorkersDuring(workers, fn);
}

test('obligationsCheck: tasks in two lanes in list order, each listed as it finishes, the summary over their files in task order', async () => {
  const started: string[] = [];
  const seen: ObligationsCheckDone[][] = [];
  let summaryFiles: string[] = [];
  // q1 is slow: q2 and q3 finish before it in the second lane; q3 fails its check.
  const delays: Record<string, number> = { q1: 3000, q2: 100, q3: 1000 };
  const activities = {
    obligationsCheckTask: async (req: { taskId: string; index: number; count: number; outFile: string }) => {
      started.push(`${req.taskId}:${req.index}/${req.count}`);
      await new Promise((r) => setTimeout(r, delays[req.taskId]));
      fs.mkdirSync(path.dirname(req.outFile), { recursive: true });
      fs.writeFileSync(req.outFile, JSON.stringify({ taskId: req.taskId }));
      return { taskId: req.taskId, ok: req.taskId !== 'q3', file: req.outFile };
    },
    obligationsCheckSummary: async (req: { files: string[]; outFile: string }) => {
      summaryFiles = req.files;
      fs.writeFileSync(req.outFile, '{}');
      return { file: req.outFile, ok: false };
    },
  };
  const outDir = path.join(dir, 'check');
  const result = await withWorkers(activities, async () => {
    const handle = await env.client.workflow.start('obligationsCheck', {
      args: [{ tasks: ['q1', 'q2', 'q3'], scale: 0.01, settings: DEFAULT_SPARK_SETTINGS, root: '/corpus', skipReference: false, swaps: true, concurrency: 2, outDir }],
      workflowId: 'obligations-check-lanes',
      taskQueue: QUEUES.default,
    });
    const poll = setInterval(() => void handle.query(obligationsCheckProgressQuery).then((d) => seen.push(d), () => undefined), 200);
    try {
      return (await handle.result()) as { file: string; ok: boolean; done: ObligationsCheckDone[] };
    } finally {
      clearInterval(poll);
    }
  });
  expect(started.slice(0, 2).sort()).toEqual(['q1:0/3', 'q2:1/3']);
  expect(started[2]).toBe('q3:2/3');
  expect(result.done.map((d) => [d.index, d.taskId, d.ok])).toEqual([
    [1, 'q2', true],
    [2, 'q3', false],
    [0, 'q1', true],
  ]);
  expect(result.done.map((d) => d.file)).toEqual([`${outDir}/q2.json`, `${outDir}/q3.json`, `${outDir}/q1.json`]);
  expect(summaryFiles).toEqual([`${outDir}/q1.json`, `${outDir}/q2.json`, `${outDir}/q3.json`]);
  expect(result).toMatchObject({ file: `${outDir}/check.json`, ok: false });
  // The query saw q2 done while q1 was still running.
  expect(seen.some((d) => d.length === 1 && d[0].taskId === 'q2')).toBe(true);
});

test('evaluatorControls: a step that throws bad input fails the workflow at once (no retry), its message found among the causes', async () => {
  let attempts = 0;
  const activities = {
    runEvaluatorControls: async () => {
      attempts += 1;
      throw new InputError('references folder not found (build the references first, e.g. `lockin data prepare --scale S`)', '/nowhere/references');
    },
  };
  const err = await withWorkers(activities, () =>
    env.client.workflow.execute('evaluatorControls', { args: [{ scale: 0.01, outDir: path.join(dir, 'controls') }], workflowId: 'controls-bad-input', taskQueue: QUEUES.default }),
  ).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(WorkflowFailedError);
  expect(attempts).toBe(1);
  expect(inputErrorMessage(err)).toBe('/nowhere/references: references folder not found (build the references first, e.g. `lockin data prepare --scale S`)');
  expect(inputErrorMessage(new Error('plain'))).toBeNull();
});

test('corpusCheck: a plain error of its step is not retried either', async () => {
  let attempts = 0;
  const activities = {
    checkStudyCorpus: async () => {
      attempts += 1;
      throw new Error('tasks/q3/task.yaml: cannot read');
    },
  };
  const err = await withWorkers(activities, () =>
    env.client.workflow.execute('corpusCheck', { args: [{ scale: 0.01, tasks: ['q3'] }], workflowId: 'corpus-check-error', taskQueue: QUEUES.default }),
  ).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(WorkflowFailedError);
  expect(attempts).toBe(1);
  expect(inputErrorMessage(err)).toBeNull();
});

test('referenceReproduction runs its step on the Spark queue and returns its result', async () => {
  const queues: string[] = [];
  const { Context } = await import('@temporalio/activity');
  const activities = {
    reproduceReferences: async (req: { scale: number; ids?: string[] }) => {
      queues.push(Context.current().info.taskQueue);
      return { scale: req.scale, reproduced: 1, total: 1, querySource: 'spark-tests-jar', results: [{ id: req.ids![0], reproduced: true, reason: 'same schema and rows', seconds: 1.5 }], resumed: 0 };
    },
  };
  const res = await withWorkers(activities, () =>
    env.client.workflow.execute('referenceReproduction', { args: [{ scale: 0.01, settings: DEFAULT_SPARK_SETTINGS, ids: ['q3'] }], workflowId: 'reproduce-q3', taskQueue: QUEUES.default }),
  );
  expect(queues).toEqual([QUEUES.spark]);
  expect(res).toEqual({ scale: 0.01, reproduced: 1, total: 1, querySource: 'spark-tests-jar', results: [{ id: 'q3', reproduced: true, reason: 'same schema and rows', seconds: 1.5 }], resumed: 0 });
});

test('commandWorkflowId: the command and a hash of its arguments, the same for the same arguments', () => {
  const a = commandWorkflowId('reproduce-sf0.01', [{ scale: 0.01, ids: ['q3'] }]);
  expect(a).toMatch(/^reproduce-sf0\.01-[0-9a-f]{12}$/);
  expect(commandWorkflowId('reproduce-sf0.01', [{ scale: 0.01, ids: ['q3'] }])).toBe(a);
  expect(commandWorkflowId('reproduce-sf0.01', [{ scale: 0.01, ids: ['q4'] }])).not.toBe(a);
});
