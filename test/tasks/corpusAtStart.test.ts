/**
 * A study checks its tasks with the `tasks check` rules before the first model call (the corpus
 * checked at the start), through the corpusCheck workflow and the registered checkStudyCorpus
 * activity on a local Temporal server, as `lockin study run` runs it.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { assertCorpusValid, type CorpusCheckRunner } from '../../client/studyInput';
import { tasksRoot } from '../../activities/common/paths';
import { createWorkers, runWorkersDuring } from '../../worker/createWorkers';
import { QUEUES } from '../../protocol/queues';
import { ensureTestDatabase } from '../support/database';
import { createTestEnv } from '../support/temporalEnv';

let root: string;
let env: TestWorkflowEnvironment;
let runs = 0;
const saved = process.env.LOCKIN_TASKS;

/** The corpusCheck workflow on the test server, its activities served by lockin's own workers (real checkStudyCorpus). */
const run: CorpusCheckRunner = async (input) => {
  const workers = await createWorkers({ connection: env.nativeConnection, namespace: env.namespace ?? 'default', queues: [QUEUES.default] });
  return runWorkersDuring(workers, () => env.client.workflow.execute('corpusCheck', { args: [input], workflowId: `corpus-check-${++runs}`, taskQueue: QUEUES.default }));
};

beforeAll(async () => {
  env = await createTestEnv();
  await ensureTestDatabase(0.01); // the manifest the table check reads
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-corpus-start-'));
  for (const f of ['eligibility.yaml', 'README.md']) if (fs.existsSync(path.join(tasksRoot(), f))) fs.copyFileSync(path.join(tasksRoot(), f), path.join(root, f));
  for (const q of ['q3', 'q7']) fs.cpSync(path.join(tasksRoot(), q), path.join(root, q), { recursive: true });
  // q7: a table that does not exist, and an obligation id given twice.
  const task = path.join(root, 'q7', 'task.yaml');
  fs.writeFileSync(task, fs.readFileSync(task, 'utf8').replace('- name: store_sales', '- name: store_salez'));
  const obl = path.join(root, 'q7', 'obligations.yaml');
  fs.writeFileSync(obl, fs.readFileSync(obl, 'utf8').replace('- id: O2', '- id: O1'));
  process.env.LOCKIN_TASKS = root;
}, 900_000);
afterAll(async () => {
  await env?.teardown();
  if (saved === undefined) delete process.env.LOCKIN_TASKS;
  else process.env.LOCKIN_TASKS = saved;
  fs.rmSync(root, { recursive: true, force: true });
});

test('valid tasks: the study may start', async () => {
  await expect(assertCorpusValid(0.01, ['q3'], run)).resolves.toBeUndefined();
});

test('a task with an unknown table and a duplicated obligation id stops the study before any call, naming both', async () => {
  const err = await assertCorpusValid(0.01, ['q3', 'q7'], run).then(() => null, (e: Error) => e);
  expect(err).not.toBeNull();
  const lines = err!.message.split('\n');
  expect(lines[0]).toMatch(/^the task corpus has \d+ problem\(s\) \(`lockin tasks check` rules\); nothing was started:$/);
  expect(lines.slice(1).every((l) => l.startsWith('  q7: '))).toBe(true);
  expect(err!.message).toContain('store_salez');
  expect(err!.message).toContain('duplicate id O1 (first at obligations[0])');
});
