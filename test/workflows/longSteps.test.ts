/**
 * The main job is one durable workflow (issue "One home for the protocol"): mainJob runs the
 * database step, the evaluator checks (step 3), the study (step 4) and the mutation analysis
 * (step 5) as child workflows. The worker is SIGKILLed twice, in the middle of step 3 and in the
 * middle of step 5, and replaced each time: the job finishes without redoing finished work (only
 * the activity in flight at a kill runs again), leaves out the task without a reference, and every
 * workflow it started says how it ended.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTestEnv } from '../support/temporalEnv';
import { REPO_ROOT, sparkTestsJar } from '../../activities/common/paths';
import { DEFAULT_SPARK_SETTINGS } from '../../protocol/settings';
import { QUEUES } from '../../protocol/queues';
import { mainJobProgressQuery, mutationProgressQuery } from '../../protocol/queries';
import { STATUS_KEY } from '../../protocol/searchAttributes';
import { checksWorkflowId, mainJobWorkflowId, mutationWorkflowId, studyWorkflowId } from '../../protocol/layout';
import { mainJob } from '../../workflows/mainJob';
import { buildStudyInput } from '../../client/studyInput';
import { readRunRecords } from '../../activities/store/records';
import { ACTIVITY_TIMEOUTS_MEMO } from '../../workflows/interceptors';

/** Activities lost with a killed worker are tried again after 10 s, not 30 s (workflows/interceptors.ts). */
const memo = { [ACTIVITY_TIMEOUTS_MEMO]: { heartbeatTimeout: '10s', initialInterval: '1s' } };

let env: TestWorkflowEnvironment;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-long-'));
const runs = path.join(tmp, 'runs');
const log = path.join(tmp, 'calls.log');
const script = { delayMs: 700, mutationTasks: ['t1', 't2', 't3'], missingReferences: ['q12'], pytest: { snapshot: [true], 'one-pass': [true] } };

function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'test', 'support', 'crashWorker.js')], {
    env: { ...process.env, TEMPORAL_ADDRESS: env.address, LOCKIN_HOME: tmp, LOCKIN_RUNS: runs, LOCKIN_TEST_SCRIPT: JSON.stringify(script), LOCKIN_TEST_LOG: log },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('worker ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
  });
}

const lines = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []);
const count = (line: string) => lines().filter((l) => l === line).length;
async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; log: ${lines().join(', ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
async function kill(worker: ChildProcess): Promise<void> {
  worker.kill('SIGKILL');
  await new Promise((r) => worker.once('exit', r));
}

beforeAll(async () => {
  // The study step's preflight reads the query texts from the Spark tests jar under LOCKIN_HOME.
  const realJar = sparkTestsJar();
  process.env.LOCKIN_HOME = tmp;
  process.env.LOCKIN_RUNS = runs;
  fs.mkdirSync(path.dirname(sparkTestsJar()), { recursive: true });
  if (fs.existsSync(realJar)) fs.symlinkSync(realJar, sparkTestsJar());
  env = await createTestEnv();
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

test('SIGKILL during step 3 and during step 5: the main job finishes, only the in-flight activities ran twice', async () => {
  const study = buildStudyInput({ studyId: 'x', tasks: ['q3', 'q12'], conditions: ['one-pass'], model: 'replay:gold', scale: 1, settings: DEFAULT_SPARK_SETTINGS, taskConcurrency: 1, report: false });
  let worker = await startWorker();
  const job = await env.client.workflow.start(mainJob, { args: [{ study, outDir: path.join(runs, 'x'), equivalenceScale: 0.01 }], workflowId: mainJobWorkflowId('x'), taskQueue: QUEUES.default, memo });
  // Kill 1: the controls are done and the SQL re-execution is running.
  await until(() => count('start reexecute') === 1, 'the SQL re-execution');
  expect(count('end reexecute')).toBe(0);
  await kill(worker);
  worker = await startWorker();
  // Kill 2: in step 5 (two tasks at a time), t1 and t2 have finished and t3 is running.
  await until(() => count('end t2') === 1 && count('start t3') === 1, 'task t3 of the mutation analysis');
  expect(count('end t3')).toBe(0);
  await kill(worker);
  worker = await startWorker();
  try {
    await finishes(await job.result());
  } finally {
    await kill(worker);
  }
}, 300_000);

/** What the job returns and leaves behind (queried while the last worker still runs). */
async function finishes(result: Awaited<ReturnType<typeof mainJob>>): Promise<void> {
  const job = env.client.workflow.getHandle(mainJobWorkflowId('x'));
  // Finished work ran once; the activities in flight at the kills ran again, once each.
  expect({ generate1: count('start generate 1'), generate001: count('start generate 0.01'), controls: count('start controls'), reexecute: count('start reexecute'), t1: count('start t1'), t2: count('start t2'), t3: count('start t3'), labellers: count('start labellers'), calibration: count('start calibration'), finish: count('start finish') })
    .toEqual({ generate1: 1, generate001: 1, controls: 1, reexecute: 2, t1: 1, t2: 1, t3: 2, labellers: 1, calibration: 1, finish: 1 });
  // Each lane checked its task's labellers after its mutation work, before the last step gathered them.
  for (const t of ['t1', 't2', 't3']) expect(count(`check ${t} at SF=0.01`)).toBeGreaterThanOrEqual(1);
  expect(lines().lastIndexOf('check t3 at SF=0.01')).toBeLessThan(lines().indexOf('start labellers'));
  expect(result.missingReferences).toEqual(['q12']);
  expect(result.failed).toEqual([]);
  expect(result.mutation).toBe('mutation analysis of x: 3 suites');
  expect(result.steps.map((s) => `${s.n} ${s.workflowId}: ${s.lines.join(' | ')}`)).toEqual([
    "2 lockin-prepare-sf1: SF=1: 33 references stored | SF=0.01: the database of the mutation analysis's equivalence check is ready",
    '3 checks-x: controls: 57/57 as expected (36 to accept, 21 to reject; perturbations verified 24/24) | SQL re-execution: 33/33 reproduced',
    '4 study-x: no reference at scale 1 for q12: left out of this study',
    '5 mutation-x: mutation analysis of x: 3 suites',
  ]);
  expect(result.steps.every((s) => typeof s.seconds === 'number' && s.seconds >= 0)).toBe(true);
  expect(await job.query(mainJobProgressQuery)).toEqual({ studyId: 'x', steps: result.steps });
  // The study ran the task with a reference, once.
  expect(readRunRecords('x').map((r) => `${r.taskId}/${r.condition}:${r.testPassed}`)).toEqual(['q3/one-pass:true']);
  const progress = await env.client.workflow.getHandle(mutationWorkflowId('x')).query(mutationProgressQuery);
  // Two tasks at a time, so t1 and t2 finish in either order; t3 (killed, run again) last.
  expect(progress.lines.map((l) => l.slice(0, 13))).toEqual(['task 1 of 3: ', 'task 2 of 3: ', 'task 3 of 3: ', 'labellers on ', 'labellers on ']);
  expect(progress.lines.slice(0, 3).map((l) => l.slice(13)).sort()).toEqual(['suite t1/one-pass: valid on gold, killed 1/1', 'suite t2/one-pass: valid on gold, killed 1/1', 'suite t3/one-pass: valid on gold, killed 1/1']);
  expect(progress.lines[3]).toBe('labellers on known truth (scripted) for x at SF=0.01');
  expect(progress.lines[4]).toBe('labellers on realistic faults (scripted) for x');
  expect(progress.lines[2]).toBe('task 3 of 3: suite t3/one-pass: valid on gold, killed 1/1');
  // Every workflow of the job says how it ended (LockinStatus), children included.
  for (const id of [mainJobWorkflowId('x'), checksWorkflowId('x'), studyWorkflowId('x'), mutationWorkflowId('x')]) {
    expect(`${id}: ${(await env.client.workflow.getHandle(id).describe()).typedSearchAttributes.get(STATUS_KEY)}`).toBe(`${id}: done`);
  }
  // The memo's timeouts reached every level: the job's own activities, a child's, a grandchild's.
  const heartbeats = async (id: string) => {
    const events = (await env.client.workflow.getHandle(id).fetchHistory()).events ?? [];
    return [...new Set(events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [Number(e.activityTaskScheduledEventAttributes.heartbeatTimeout?.seconds)] : [])))];
  };
  for (const id of [mainJobWorkflowId('x'), mutationWorkflowId('x'), `${studyWorkflowId('x')}/q3/one-pass`]) expect(`${id}: ${await heartbeats(id)}`).toBe(`${id}: 10`);
}

test('a corpus problem fails the main job before the study starts', async () => {
  const bad = { ...script, corpusProblems: ['q3: task.yaml columns: a SQL fragment'] };
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'test', 'support', 'crashWorker.js')], {
    env: { ...process.env, TEMPORAL_ADDRESS: env.address, LOCKIN_HOME: tmp, LOCKIN_RUNS: runs, LOCKIN_TEST_SCRIPT: JSON.stringify(bad), LOCKIN_TEST_LOG: log },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('worker ready') && resolve()));
  try {
    const study = buildStudyInput({ studyId: 'bad', tasks: ['q3'], conditions: ['one-pass'], model: 'replay:gold', scale: 1, settings: DEFAULT_SPARK_SETTINGS, taskConcurrency: 1, report: false });
    const job = await env.client.workflow.start(mainJob, { args: [{ study, outDir: path.join(runs, 'bad'), equivalenceScale: 0.01, skipMutation: true }], workflowId: mainJobWorkflowId('bad'), taskQueue: QUEUES.default, memo });
    await expect(job.result()).rejects.toThrow(/workflow execution failed/i);
    const failure = await job.result().catch((e: { cause?: Error }) => e.cause?.message);
    expect(failure).toBe('the task corpus has 1 problem(s) (`lockin tasks check` rules); no model call was made:\n  q3: task.yaml columns: a SQL fragment');
    expect((await job.describe()).typedSearchAttributes.get(STATUS_KEY)).toBe('failed');
    // The study workflow never started.
    await expect(env.client.workflow.getHandle(studyWorkflowId('bad')).describe()).rejects.toThrow(/not found/i);
  } finally {
    child.kill('SIGKILL');
  }
}, 120_000);
