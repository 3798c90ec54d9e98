/**
 * The main job's long steps are durable (issue "One home for the protocol"): the evaluator
 * checks (step 3) and the mutation analysis (step 5) are workflows. A worker SIGKILLed in the
 * middle of each is replaced, and both finish without redoing finished work: only the activity
 * that was in flight at the kill runs again.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTestEnv } from '../support/temporalEnv';
import { REPO_ROOT } from '../../activities/common/paths';
import { DEFAULT_SPARK_SETTINGS } from '../../protocol/settings';
import { QUEUES } from '../../protocol/queues';
import { mutationProgressQuery } from '../../protocol/queries';
import { STATUS_KEY } from '../../protocol/searchAttributes';
import { evaluatorChecks } from '../../workflows/checks';
import { mutationAnalysis } from '../../workflows/mutation';

let env: TestWorkflowEnvironment;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-long-'));
const log = path.join(tmp, 'calls.log');
const script = { delayMs: 700, mutationTasks: ['t1', 't2', 't3'], pytest: {} };

function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'test', 'support', 'crashWorker.js')], {
    env: { ...process.env, TEMPORAL_ADDRESS: env.address, LOCKIN_HOME: tmp, LOCKIN_RUNS: tmp, LOCKIN_TEST_SCRIPT: JSON.stringify(script), LOCKIN_TEST_LOG: log },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('worker ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
  });
}

const lines = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []);
const count = (line: string) => lines().filter((l) => l === line).length;

beforeAll(async () => {
  env = await createTestEnv();
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

test('SIGKILL during step 3 and step 5: both resume, only the in-flight activity runs twice', async () => {
  let worker = await startWorker();
  const checks = await env.client.workflow.start(evaluatorChecks, { args: [{ scale: 1, settings: DEFAULT_SPARK_SETTINGS, outDir: tmp }], workflowId: 'checks-x', taskQueue: QUEUES.default });
  const mutation = await env.client.workflow.start(mutationAnalysis, { args: [{ studyId: 'x', concurrency: 1 }], workflowId: 'mutation-x', taskQueue: QUEUES.default });
  // Kill when t1 has finished and t2 is running (the re-execution is running by then too).
  const deadline = Date.now() + 60_000;
  while (!(count('end t1') === 1 && count('start t2') === 1) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(lines()).toEqual(expect.arrayContaining(['start controls', 'end controls', 'start reexecute', 'end t1', 'start t2']));
  expect(count('end reexecute')).toBe(0);
  worker.kill('SIGKILL');
  await new Promise((r) => worker.once('exit', r));
  worker = await startWorker();
  try {
    const [c, m] = await Promise.all([checks.result(), mutation.result()]);
    expect(c.reexecution).toEqual({ reproduced: 33, total: 33, recordedEarlier: false });
    expect(c.controls.allAsExpected).toBe(true);
    expect(m).toBe('mutation analysis of x: 3 suites');
    const progress = await mutation.query(mutationProgressQuery);
    expect(progress).toEqual({ tasksTotal: 3, tasksDone: 3, lines: ['1/3 suite t1/one-pass: valid on gold, killed 1/1', '2/3 suite t2/one-pass: valid on gold, killed 1/1', '3/3 suite t3/one-pass: valid on gold, killed 1/1'] });
  } finally {
    worker.kill('SIGKILL');
  }
  // Finished work ran once; the activities in flight at the kill ran again, once.
  expect({ controls: count('start controls'), reexecute: count('start reexecute'), t1: count('start t1'), t2: count('start t2'), t3: count('start t3'), finish: count('start finish') })
    .toEqual({ controls: 1, reexecute: 2, t1: 1, t2: 2, t3: 1, finish: 1 });
  expect({ t1: count('end t1'), t2: count('end t2'), t3: count('end t3'), reexecute: count('end reexecute') }).toEqual({ t1: 1, t2: 1, t3: 1, reexecute: 1 });
  // Both say how they ended.
  expect((await checks.describe()).typedSearchAttributes.get(STATUS_KEY)).toBe('done');
  expect((await mutation.describe()).typedSearchAttributes.get(STATUS_KEY)).toBe('done');
}, 240_000);
