/**
 * Budget and stop-rule test (docs/protocol.md §2) over every combination of scripted pytest
 * outcomes (3 runs) and C-4 verdicts, through the real workflows on a local Temporal server.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTestEnv } from '../support/temporalEnv';
import { scriptedActivities, Script } from '../support/scripted';
import { createWorkers, runWorkersDuring } from '../../worker/createWorkers';
import { buildStudyInput } from '../../client/studyInput';
import { PAPER_CONDITIONS } from '../../protocol/conditions';
import { readRunRecords } from '../../activities/store/records';
import { runStudy } from '../../workflows/study';
import { callsQuery, phaseQuery } from '../../protocol/queries';
import { FALSE_PASS_KEY, STATUS_KEY, STUDY_KEY } from '../../protocol/searchAttributes';
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

/** Expected calls by the protocol, written independently of the workflows. */
function expectedCalls(seq: boolean[], actionable: boolean): Record<string, number> {
  const tg = seq[0] ? 1 : seq[1] ? 2 : 3;
  const pa = !actionable ? 6 : seq[1] ? 7 : 8;
  return { 'one-pass': 1, 'test-guided': tg, 'plan-audit': pa };
}

test('every pytest/C-4 combination uses exactly the protocol budget, never above 1/3/8', async () => {
  const script: Script = { pytest: {}, actionable: {} };
  const cases: { task: string; seq: boolean[]; actionable: boolean }[] = [];
  let n = 0;
  for (let bits = 0; bits < 8; bits++) {
    for (const actionable of [false, true]) {
      const seq = [0, 1, 2].map((i) => ((bits >> i) & 1) === 1);
      const task = `t${n++}`;
      cases.push({ task, seq, actionable });
      script.pytest[task] = { 'one-pass': seq, 'test-guided': seq, 'plan-audit': seq };
      script.actionable[task] = actionable;
    }
  }
  const { activities, log } = scriptedActivities(script);
  const workers = await createWorkers({ connection: env.nativeConnection, namespace: env.namespace ?? 'default', activityOverrides: activities });
  const input = buildStudyInput({ studyId: 'budgets', tasks: cases.map((c) => c.task), conditions: [...PAPER_CONDITIONS], model: 'scripted', taskConcurrency: 4, report: false });
  const queried = cases.find((c) => c.actionable && c.seq.join() === 'false,true,false')!.task;
  let calls: unknown;
  let phase: unknown;
  const result = await runWorkersDuring(workers, async () => {
    const r = await env.client.workflow.execute(runStudy, { args: [input], workflowId: 'study-budgets', taskQueue: QUEUES.default, typedSearchAttributes: [{ key: STUDY_KEY, value: 'budgets' }] });
    // The progress line's live counter: the condition workflow's `calls` query (answered here
    // from the closed workflow's history).
    calls = await env.client.workflow.getHandle(`study-budgets/${queried}/plan-audit`).query(callsQuery);
    // And its phase (the progress line's words): a finished condition is done.
    phase = await env.client.workflow.getHandle(`study-budgets/${queried}/plan-audit`).query(phaseQuery);
    return r;
  });
  expect(calls).toEqual({ condition: 'plan-audit', used: 7, budget: 8 });
  expect(phase).toBe('done');
  expect((result as { tasksRun: number; recordsFile: string }).tasksRun).toBe(16);
  expect((result as { recordsFile: string }).recordsFile).toBe(path.join(process.env.LOCKIN_RUNS!, 'budgets', 'records.jsonl'));

  const records = readRunRecords('budgets');
  expect(records).toHaveLength(48);
  for (const c of cases) {
    const want = expectedCalls(c.seq, c.actionable);
    for (const cond of ['one-pass', 'test-guided', 'plan-audit'] as const) {
      const r = records.find((x) => x.taskId === c.task && x.condition === cond)!;
      expect({ task: c.task, cond, calls: r.callsUsed }).toEqual({ task: c.task, cond, calls: want[cond] });
      expect(r.callsUsed).toBeLessThanOrEqual(r.callBudget);
    }
  }
  // Named cases from the issue.
  const find = (seq: boolean[], actionable: boolean) => cases.find((c) => c.actionable === actionable && c.seq.every((v, i) => v === seq[i]))!.task;
  const rec = (t: string, c: string) => records.find((x) => x.taskId === t && x.condition === c)!;
  expect(rec(find([true, true, true], false), 'test-guided').callsUsed).toBe(1);
  expect(rec(find([true, true, true], false), 'test-guided').stopReason).toBe('stopped: tests passed on the snapshot');
  expect(rec(find([false, false, false], false), 'test-guided').callsUsed).toBe(3);
  expect(rec(find([false, false, false], false), 'plan-audit').callsUsed).toBe(6);
  expect(rec(find([false, true, false], true), 'plan-audit').callsUsed).toBe(7);
  expect(rec(find([false, true, false], true), 'plan-audit').stopReason).toBe('stopped: tests passed after c5-revise-1');
  // One shared initial generation per task; the fake model was never asked twice for the same call.
  expect(log.modelCalls.filter((k) => k.endsWith('/shared/generate'))).toHaveLength(16);
  expect(new Set(log.modelCalls).size).toBe(log.modelCalls.length);
  // Test-Guided never touched plan.md: no plan deviation; the fake model's test edit changes only
  // a comment (`assert True  # revise-2`), which the syntax-tree classifier calls imports/syntax.
  const tg = rec(find([false, false, false], false), 'test-guided');
  expect(tg.deviations.map((d) => `${d.artifact}:${d.change}:${d.allowed}`).sort()).toEqual(['solution.py:solution-edit:true', 'test_solution.py:test-imports-syntax:true']);
});

/** Whether a condition's last pytest run passed, by the protocol (written independently of the workflows). */
function finallyPassed(seq: boolean[], actionable: boolean): Record<string, boolean> {
  // PlanAudit revises whenever C-4 is actionable, whatever the snapshot's tests did; its last run is then after C-5.
  return { 'one-pass': seq[0], 'test-guided': seq[0] || seq[1] || seq[2], 'plan-audit': actionable ? seq[1] || seq[2] : seq[0] };
}

test('LockinStatus says how each workflow of the study ended: done, never a stale "running"', async () => {
  // The study above: 1 study + 16 task + 48 condition workflows, all completed.
  let statuses: string[] = [];
  for (let i = 0; i < 50 && statuses.length < 65; i++) {
    statuses = [];
    for await (const wf of env.client.workflow.list({ query: 'LockinStudy="budgets"' })) statuses.push(String(wf.typedSearchAttributes.get(STATUS_KEY)));
    if (statuses.length < 65) await new Promise((r) => setTimeout(r, 200));
  }
  expect(statuses).toHaveLength(65);
  expect(statuses.filter((s) => s === 'done')).toHaveLength(65);
});

test('the study\'s false passes are listed in the Temporal UI with one filter on the condition workflows', async () => {
  // The scripted evaluation never agrees with the reference: a false pass is a run whose last pytest passed.
  const want: string[] = [];
  let n = 0;
  for (let bits = 0; bits < 8; bits++) {
    for (const actionable of [false, true]) {
      const seq = [0, 1, 2].map((i) => ((bits >> i) & 1) === 1);
      const task = `t${n++}`;
      for (const [c, passed] of Object.entries(finallyPassed(seq, actionable))) if (passed) want.push(`study-budgets/${task}/${c}`);
    }
  }
  expect(want).toHaveLength(8 + 14 + 10);
  let got: string[] = [];
  for (let i = 0; i < 50 && got.length < want.length; i++) {
    got = [];
    for await (const wf of env.client.workflow.list({ query: 'LockinStudy="budgets" and LockinFalsePass=true' })) {
      expect(wf.typedSearchAttributes.get(FALSE_PASS_KEY)).toBe(true);
      got.push(wf.workflowId);
    }
    if (got.length < want.length) await new Promise((r) => setTimeout(r, 200));
  }
  expect(got.sort()).toEqual(want.sort());
  expect(readRunRecords('budgets').filter((r) => r.falsePass)).toHaveLength(want.length);
});
