/**
 * Scale-safe histories, for the design size of 3 models × 30 tasks × 10 samples × 3 conditions
 * (2,700 condition runs), with scripted, instant activities. Prints the event count and size of
 * the largest histories and asserts they stay under a tenth of Temporal's limits: 51,200 events
 * and 50 MB per history, 2 MB per payload (the largest event stands in for its payloads), 2,000
 * pending children (bounded by taskConcurrency per sub-study). History sizes do not depend on
 * the machine, only on the study's shape: a task or condition history is the same at any study
 * size, and a (sub-)study's history grows by a fixed amount per task run.
 *
 * By default it runs 2 models × 5 tasks × 2 samples (under a minute in the suite) and also asserts the
 * design size extrapolated from it: the sub-study's events and bytes per task run (its whole
 * history divided by its task runs, an over-estimate that includes the fixed part) × 300.
 * LOCKIN_SCALE_TEST_SIZE="3,30,10" runs the design size itself (about 8 min on a quiet 2-core
 * machine, over an hour on a loaded one); LOCKIN_SCALE_TEST_CONCURRENCY sets the task runs in
 * flight per sub-study (default 10).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporal } from '@temporalio/proto';
import { createTestEnv } from '../support/temporalEnv';
import { scriptedActivities } from '../support/scripted';
import { createWorkers, runWorkersDuring } from '../../worker/createWorkers';
import { buildStudyInput } from '../../client/studyInput';
import { modelStudyId } from '../../protocol/layout';
import { PAPER_CONDITIONS } from '../../protocol/conditions';

const [M, T, K] = (process.env.LOCKIN_SCALE_TEST_SIZE ?? '2,5,2').split(',').map(Number);
/** The design size: task runs per sub-study. */
const DESIGN = { models: 3, tasks: 30, samples: 10 };
const LIMITS = { events: 51_200, historyBytes: 50 * 1024 * 1024, payloadBytes: 2 * 1024 * 1024, pendingChildren: 2_000 };
const CONCURRENCY = Number(process.env.LOCKIN_SCALE_TEST_CONCURRENCY ?? 10);

let env: TestWorkflowEnvironment;

beforeAll(async () => {
  process.env.LOCKIN_RUNS = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-runs-'));
  env = await createTestEnv();
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

/** Events, encoded bytes and the largest encoded event of one workflow's history. */
async function size(workflowId: string): Promise<{ workflowId: string; events: number; bytes: number; largestEvent: number }> {
  const h = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const bytes = temporal.api.history.v1.History.encode(h).finish().length;
  const largestEvent = Math.max(...(h.events ?? []).map((e) => temporal.api.history.v1.HistoryEvent.encode(e).finish().length));
  return { workflowId, events: h.events?.length ?? 0, bytes, largestEvent };
}

test(`${M} models × ${T} tasks × ${K} samples × 3 conditions: every history under a tenth of Temporal's limits`, async () => {
  const tasks = Array.from({ length: T }, (_, i) => `t${String(i + 1).padStart(2, '0')}`);
  const { activities, log } = scriptedActivities({
    pytest: Object.fromEntries(tasks.map((t) => [t, { 'one-pass': [true], 'test-guided': [true], 'plan-audit': [true] }])),
    actionable: Object.fromEntries(tasks.map((t) => [t, false])),
  });
  const workers = await createWorkers({ connection: env.nativeConnection, namespace: 'default', activityOverrides: activities });
  const models = Array.from({ length: M }, (_, i) => `replay:m${i + 1}`);
  const input = buildStudyInput({ studyId: 'scale', tasks, conditions: [...PAPER_CONDITIONS], model: models[0], ...(M > 1 ? { models } : {}), samples: K, taskConcurrency: CONCURRENCY, report: false });
  const result = await runWorkersDuring(workers, async () => {
    const handle = await env.client.workflow.start('runStudy', { args: [input], workflowId: 'study-scale', taskQueue: 'lockin-default' });
    // On a loaded machine the server's long poll for the result can hit its gRPC deadline
    // before the study ends: ask again (the study keeps running meanwhile).
    for (;;) {
      try {
        return await handle.result();
      } catch (e) {
        if (!/DEADLINE_EXCEEDED|deadline exceeded/i.test(`${(e as Error).message} ${String((e as { cause?: Error }).cause?.message ?? '')}`)) throw e;
      }
    }
  });
  expect((result as { failed: unknown[] }).failed).toEqual([]);
  expect(log.modelCalls.filter((k) => k.endsWith('/shared/generate'))).toHaveLength(M * T * K);

  const subs = M > 1 ? models.map((m) => `study-${modelStudyId('scale', m)}`) : ['study-scale'];
  const task = `${subs[0]}/t01${K > 1 ? `/sample-${K}` : ''}`;
  const ids = [...(M > 1 ? ['study-scale'] : []), ...subs, task, ...['one-pass', 'test-guided', 'plan-audit'].map((c) => `${task}/${c}`)];
  const sizes = [];
  for (const id of ids) sizes.push(await size(id));
  const resultBytes = Buffer.byteLength(JSON.stringify(result));
  process.stdout.write(
    `\n[scale] ${M} models × ${T} tasks × ${K} samples × 3 conditions; result payload ${resultBytes} bytes\n` +
      sizes.map((s) => `[scale] ${s.workflowId.padEnd(44)} ${String(s.events).padStart(6)} events ${String(s.bytes).padStart(9)} bytes, largest event ${s.largestEvent} bytes`).join('\n') +
      `\n[scale] limits / 10: ${LIMITS.events / 10} events, ${LIMITS.historyBytes / 10} bytes, ${LIMITS.payloadBytes / 10} bytes per payload, ${LIMITS.pendingChildren / 10} pending children (at most ${CONCURRENCY} per sub-study)\n`,
  );
  // The largest history at the design size: a sub-study of 30 tasks × 10 samples.
  const sub = sizes.find((s) => s.workflowId === subs[0])!;
  const runs = T * K;
  const designRuns = DESIGN.tasks * DESIGN.samples;
  const design = { events: Math.ceil((sub.events / runs) * designRuns), bytes: Math.ceil((sub.bytes / runs) * designRuns) };
  process.stdout.write(
    `[scale] design size ${DESIGN.models} × ${DESIGN.tasks} × ${DESIGN.samples}: sub-study history ≈ ${design.events} events, ${design.bytes} bytes (${(sub.events / runs).toFixed(1)} events, ${Math.round(sub.bytes / runs)} bytes per task run × ${designRuns}${runs === designRuns ? ', measured' : ', extrapolated'})\n`,
  );
  expect(design.events).toBeLessThan(LIMITS.events / 10);
  expect(design.bytes).toBeLessThan(LIMITS.historyBytes / 10);
  for (const s of sizes) {
    expect(s.events).toBeLessThan(LIMITS.events / 10);
    expect(s.bytes).toBeLessThan(LIMITS.historyBytes / 10);
    expect(s.largestEvent).toBeLessThan(LIMITS.payloadBytes / 10);
  }
  expect(resultBytes).toBeLessThan(LIMITS.payloadBytes / 10);
  expect(CONCURRENCY).toBeLessThan(LIMITS.pendingChildren / 10);
}, 3_600_000);
