/**
 * Contract-First (docs/protocol.md §2 "Contract-First") through the real workflows with a
 * scripted model: the budget over every scripted contract-suite sequence, the contract call
 * first and blind, a revision that edits the frozen suite rejected and the suite restored, and the
 * UI filter on the condition search attribute (README "Inspecting and resuming in the Temporal UI").
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTestEnv } from '../support/temporalEnv';
import { scriptedActivities, Script } from '../support/scripted';
import { createWorkers, runWorkersDuring } from '../../worker/createWorkers';
import { buildStudyInput } from '../../client/studyInput';
import { readRunRecords } from '../../activities/store/records';
import { runStudy } from '../../workflows/study';
import { CONDITION_KEY, STUDY_KEY } from '../../protocol/searchAttributes';
import { QUEUES } from '../../protocol/queues';

let env: TestWorkflowEnvironment;
const runs = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-runs-'));

beforeAll(async () => {
  process.env.LOCKIN_RUNS = runs;
  env = await createTestEnv();
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

/** Calls by the protocol (1 shared + C-0 + a revision per failing contract run, at most 2), written independently of the workflow. */
const expectedCalls = (seq: boolean[]) => (seq[0] ? 2 : seq[1] ? 3 : 4);
const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

test('Contract-First: ≤ 4 calls over every contract-suite sequence, C-0 first and blind, an edited contract suite rejected and restored', async () => {
  const script: Script = { pytest: {}, actionable: {}, editsContract: { edit: ['cf-revise-1'] } };
  const cases: { task: string; seq: boolean[] }[] = [];
  for (let bits = 0; bits < 8; bits++) {
    const seq = [0, 1, 2].map((i) => ((bits >> i) & 1) === 1);
    cases.push({ task: `c${bits}`, seq });
  }
  cases.push({ task: 'edit', seq: [false, false, false] });
  for (const c of cases) script.pytest[c.task] = { 'one-pass': [c.seq[0]], 'contract-first': c.seq };
  const { activities, log } = scriptedActivities(script);
  const workers = await createWorkers({ connection: env.nativeConnection, namespace: env.namespace ?? 'default', activityOverrides: activities });
  const input = buildStudyInput({ studyId: 'cf', tasks: cases.map((c) => c.task), conditions: ['one-pass', 'contract-first'], model: 'scripted', taskConcurrency: 3, report: false });
  await runWorkersDuring(workers, () => env.client.workflow.execute(runStudy, { args: [input], workflowId: 'study-cf', taskQueue: QUEUES.default, typedSearchAttributes: [{ key: STUDY_KEY, value: 'cf' }] }));

  const records = readRunRecords('cf').filter((r) => r.condition === 'contract-first');
  expect(records).toHaveLength(9);
  for (const c of cases) {
    const r = records.find((x) => x.taskId === c.task)!;
    expect({ task: c.task, calls: r.callsUsed }).toEqual({ task: c.task, calls: expectedCalls(c.seq) });
    expect(r.callBudget).toBe(4);
    // The contract call is the condition's first own call, made before any revision, with no inputs.
    expect(r.stages.map((s) => s.stage)).toEqual(['generate', 'c0-contract', 'cf-revise-1', 'cf-revise-2'].slice(0, expectedCalls(c.seq)));
    expect(log.requests[`${c.task}/contract-first/c0-contract`].inputs).toEqual({});
    expect(log.requests[`${c.task}/contract-first/c0-contract`].callIndex).toBe(2);
    // Test pass = the frozen contract suite passed on its last run.
    expect(r.testPassed).toBe(c.seq[0] || c.seq[1] || c.seq[2]);
    expect(r.contract!.sha256AtFreeze).toBe(r.contract!.sha256AtC0);
    expect(r.contract!.ownSuite?.passed).toBe(true);
  }
  const rec = (t: string) => records.find((x) => x.taskId === t)!;
  expect(rec('c1').stopReason).toBe('stopped: contract suite passed on the snapshot');
  expect(rec('c2').stopReason).toBe('stopped: contract suite passed after cf-revise-1');
  expect(rec('c0').stopReason).toBe('stopped: budget spent, contract suite still failing after cf-revise-2');
  // The own suite passed every time, yet the failing contract suite drove both revisions.
  expect(log.pytestRuns.filter((k) => k.startsWith('c0/contract-first/'))).toEqual([
    'c0/contract-first/initial', 'c0/contract-first/contract-initial',
    'c0/contract-first/after-cf-revise-1', 'c0/contract-first/contract-after-cf-revise-1',
    'c0/contract-first/after-cf-revise-2', 'c0/contract-first/contract-after-cf-revise-2',
  ]);
  expect(log.requests['c0/contract-first/cf-revise-1'].inputs.feedbackFile).toContain(path.join('pytest', 'contract-initial'));

  // cf-revise-1 of task "edit" returned a weakened contract_test.py: one violation, the sealed suite back.
  const edit = rec('edit');
  expect(edit.contract!.violations.map((v) => v.stage)).toEqual(['cf-revise-1']);
  expect(edit.contract!.violations[0].foundSha256).not.toBe(edit.contract!.sha256AtC0);
  const suite = path.join(edit.conditionDir, 'contract_test.py');
  expect(fs.readFileSync(suite, 'utf8')).toContain('assert True  # C-0 of edit');
  expect(sha(suite)).toBe(edit.contract!.sha256AtC0);
  expect(edit.artifacts['contract_test.py']).toBe(edit.contract!.sha256AtC0);
  // Revisions may change solution.py only: no deviation beyond it.
  expect(edit.deviations.map((d) => `${d.artifact}:${d.allowed}`)).toEqual(['solution.py:true']);

  // The UI filter: the study's Contract-First workflows, one per task, by the condition search attribute.
  const want = cases.map((c) => `study-cf/${c.task}/contract-first`).sort();
  let got: string[] = [];
  for (let i = 0; i < 50 && got.length < want.length; i++) {
    got = [];
    for await (const wf of env.client.workflow.list({ query: 'LockinStudy="cf" and LockinCondition="contract-first"' })) {
      expect(wf.typedSearchAttributes.get(CONDITION_KEY)).toBe('contract-first');
      got.push(wf.workflowId);
    }
    if (got.length < want.length) await new Promise((r) => setTimeout(r, 200));
  }
  expect(got.sort()).toEqual(want);
}, 240_000);
