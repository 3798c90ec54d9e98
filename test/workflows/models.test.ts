/**
 * A model matrix (`--models a,b` with `--samples 2`), scripted activities: one sub-study per
 * model with its own records, workflow ids and progress; the combined report has a section per
 * model and a between-model table.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTestEnv } from '../support/temporalEnv';
import { scriptedActivities } from '../support/scripted';
import { createWorkers, runWorkersDuring } from '../../worker/createWorkers';
import { buildStudyInput, parseModels } from '../../client/studyInput';
import { readRunRecords } from '../../activities/store/records';
import { finishModels } from '../../activities/report/modelsReport';
import { parseModelSpec } from '../../protocol/model';
import { modelStudyId } from '../../protocol/layout';
import { gatewayConfig } from '../../activities/model/config';
import { modelQueue } from '../../protocol/queues';
import type { StageRequest } from '../../protocol/types';
import { STUDY_MODEL_PARAMS } from '../../protocol/settings';
import { PAPER_CONDITIONS } from '../../protocol/conditions';

let env: TestWorkflowEnvironment;

beforeAll(async () => {
  process.env.LOCKIN_RUNS = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-runs-'));
  env = await createTestEnv();
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

test('--models replay:one,replay:two --samples 2: two sub-studies of 2 tasks × 2 samples, then the combined report', async () => {
  const { activities, log } = scriptedActivities({
    pytest: { a: { 'one-pass': [true], 'test-guided': [true], 'plan-audit': [true] }, b: { 'one-pass': [false], 'test-guided': [false, true], 'plan-audit': [true] } },
    actionable: { a: false, b: false },
    agree: { a: false, b: true },
  });
  const workers = await createWorkers({ connection: env.nativeConnection, namespace: 'default', activityOverrides: activities });
  const models = ['replay:one', 'replay:two'];
  // The second model with its own generation settings (--model-settings): its sub-study runs and records them.
  const two = { ...STUDY_MODEL_PARAMS, maxTokens: 512, stop: ['END'] };
  const input = buildStudyInput({ studyId: 'mx', tasks: ['a', 'b'], conditions: [...PAPER_CONDITIONS], model: models[0], models, samples: 2, report: false, modelParams: { 'replay:one': STUDY_MODEL_PARAMS, 'replay:two': two } });
  const { res, progress } = await runWorkersDuring(workers, async () => {
    const handle = await env.client.workflow.start('runStudy', { args: [input], workflowId: 'study-mx', taskQueue: 'lockin-default' });
    const r = (await handle.result()) as { failed: unknown[]; studies: { model: string; studyId: string }[] };
    return { res: r, progress: await handle.query<{ tasksDone: number; tasksTotal: number; step: string }>('progress') };
  });
  expect(res.failed).toEqual([]);
  expect(res.studies).toEqual([{ model: 'replay:one', studyId: 'mx--replay-one' }, { model: 'replay:two', studyId: 'mx--replay-two' }]);
  expect([progress.tasksDone, progress.tasksTotal, progress.step]).toEqual([8, 8, 'finished']);
  // 2 models × 2 tasks × 2 samples = 8 generations.
  expect(log.modelCalls.filter((k) => k.endsWith('/shared/generate'))).toHaveLength(8);
  for (const s of res.studies) {
    const recs = readRunRecords(s.studyId);
    expect(recs.map((r) => `${r.model} ${r.taskId}~${r.sample} ${r.condition}`)).toEqual(
      ['a', 'b'].flatMap((t) => [1, 2].flatMap((k) => ['one-pass', 'test-guided', 'plan-audit'].map((c) => `${s.model} ${t}~${k} ${c}`))),
    );
  }
  const ids: string[] = [];
  for await (const w of env.client.workflow.list({ query: 'WorkflowId STARTS_WITH "study-mx--replay-one"' })) ids.push(w.workflowId);
  expect(ids).toContain('study-mx--replay-one/b/sample-2/plan-audit');
  expect(JSON.parse(fs.readFileSync(path.join(process.env.LOCKIN_RUNS!, 'mx', 'models.json'), 'utf8')).studies).toEqual(res.studies);
  const manifestParams = (id: string) => JSON.parse(fs.readFileSync(path.join(process.env.LOCKIN_RUNS!, id, 'study.json'), 'utf8')).params;
  expect([manifestParams('mx--replay-one'), manifestParams('mx--replay-two')]).toEqual([STUDY_MODEL_PARAMS, two]);

  // The combined report (written here: report: false above keeps the sub-studies' Python reports out of this test).
  const fin = await finishModels({ studyId: 'mx', studies: res.studies, report: true });
  expect(fin.records).toBe(24);
  const md = fs.readFileSync(path.join(fin.reportDir!, 'report.md'), 'utf8');
  expect(md).toContain('# lockin report: mx (2 models)');
  expect(md).toContain('### Model replay:one');
  expect(md).toContain('### Model replay:two');
  expect(md).toContain('### Between models');
  // a passes its tests and disagrees (false pass) in both samples; b does not: 2/4 per condition.
  expect(md).toContain('| Frozen One-Pass | 4 | 2/4 = 50.0% [15.0%, 85.0%]; tasks [');
  expect(md).toContain('| Frozen One-Pass: replay:one → replay:two | 4 | 0 / 0, p = 1.000');
}, 180_000);

test('parseModels and modelStudyId', () => {
  expect(parseModels('replay:lockin, replay:gold', parseModelSpec)).toEqual(['replay:lockin', 'replay:gold']);
  expect(() => parseModels('replay:gold,replay:gold', parseModelSpec)).toThrow('--models: "replay:gold" is named twice');
  expect(() => parseModels('gemini:x', parseModelSpec)).toThrow('--models: unknown model spec "gemini:x"');
  expect(() => parseModels(' , ', parseModelSpec)).toThrow('--models: no model spec given');
  expect(modelStudyId('s', 'openai:Qwen/Qwen2.5-Coder')).toBe('s--openai-Qwen-Qwen2.5-Coder');
});

test('LOCKIN_MODEL_QUEUE_RPM sets the model queue\'s rate limit for all workers (per second), and only there', async () => {
  process.env.LOCKIN_MODEL_QUEUE_RPM = '30';
  try {
    const workers = await createWorkers({ connection: env.nativeConnection, namespace: 'default', queuePrefix: 'rate-' });
    const rates = workers.map((w) => [w.options.taskQueue, w.options.maxTaskQueueActivitiesPerSecond]);
    await runWorkersDuring(workers, async () => undefined);
    expect(rates).toEqual([
      ['rate-lockin-default', undefined],
      ['rate-lockin-model', 0.5],
      ['rate-lockin-model-anthropic', 0.5],
      ['rate-lockin-model-openai', 0.5],
      ['rate-lockin-model-local', 0.5],
      ['rate-lockin-spark', undefined],
    ]);
  } finally {
    delete process.env.LOCKIN_MODEL_QUEUE_RPM;
  }
  expect(() => gatewayConfig({ LOCKIN_MODEL_QUEUE_RPM: 'fast' })).toThrow('LOCKIN_MODEL_QUEUE_RPM');
  expect(gatewayConfig({}).queueRpm).toBe(0);
});

test('modelQueue: a queue per live provider (local GGUF models too), replay corpora and scripted models on lockin-model', () => {
  expect(['anthropic', 'anthropic:claude-sonnet-4-6', 'openai:gpt-4.1', 'openai:Qwen/Qwen2.5-Coder', 'local', 'local:/m/x.gguf', 'replay:lockin', 'scripted'].map(modelQueue)).toEqual([
    'lockin-model-anthropic',
    'lockin-model-anthropic',
    'lockin-model-openai',
    'lockin-model-openai',
    'lockin-model-local',
    'lockin-model-local',
    'lockin-model',
    'lockin-model',
  ]);
});

test("one provider's stalled calls do not hold another's: the replay model finishes while every anthropic call waits", async () => {
  // One model slot per queue: with a single model queue the stalled anthropic call would hold the
  // only slot, and the replay sub-study could not finish before the gate opens.
  process.env.LOCKIN_MODEL_CONCURRENCY = '1';
  const { activities, log } = scriptedActivities({
    pytest: { a: { 'one-pass': [true], 'test-guided': [true], 'plan-audit': [true] } },
    actionable: { a: false },
    agree: { a: true },
  });
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const stalled: string[] = [];
  const scriptedCall = activities.callModel;
  const callModel = async (req: StageRequest) => {
    if (req.model.startsWith('anthropic:')) {
      stalled.push(`${req.taskId}/${req.stage}`);
      await gate; // as a call waiting out a 429's retry-after would
    } else {
      // The replay call goes only once the anthropic call holds its slot (so the order of the two is fixed).
      while (stalled.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    return scriptedCall(req);
  };
  try {
    const workers = await createWorkers({ connection: env.nativeConnection, namespace: 'default', activityOverrides: { ...activities, callModel } });
    const models = ['anthropic:m-a', 'replay:one'];
    const input = buildStudyInput({ studyId: 'stall', tasks: ['a'], conditions: ['one-pass'], model: models[0], models, report: false });
    const { queues } = await runWorkersDuring(workers, async () => {
      const handle = await env.client.workflow.start('runStudy', { args: [input], workflowId: 'study-stall', taskQueue: 'lockin-default' });
      const replayStudy = env.client.workflow.getHandle(`study-${modelStudyId('stall', 'replay:one')}`);
      for (let i = 0; i < 200 && !(await replayStudy.describe().catch(() => null)); i++) await new Promise((r) => setTimeout(r, 100));
      await expect(replayStudy.result()).resolves.toMatchObject({ failed: [] });
      expect(stalled).toEqual(['a/generate']); // the anthropic generation is still waiting
      expect(log.modelCalls).toEqual(['a/shared/generate']); // only the replay model's call went through
      open();
      await handle.result();
      const queueOf = async (id: string) => {
        const h = await env.client.workflow.getHandle(id).fetchHistory();
        return (h.events ?? []).map((e) => e.activityTaskScheduledEventAttributes).filter((a) => a?.activityType?.name === 'callModel').map((a) => a!.taskQueue!.name);
      };
      return { queues: [await queueOf(`study-${modelStudyId('stall', 'anthropic:m-a')}/a`), await queueOf(`study-${modelStudyId('stall', 'replay:one')}/a`)] };
    });
    expect(queues).toEqual([['lockin-model-anthropic'], ['lockin-model']]);
    expect(log.modelCalls).toEqual(['a/shared/generate', 'a/shared/generate']);
  } finally {
    delete process.env.LOCKIN_MODEL_CONCURRENCY;
  }
}, 120_000);
