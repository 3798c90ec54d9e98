/**
 * prepareDatabase through the real workflow on a local Temporal server, with scripted data
 * activities: the steps run in protocol order (generate, load, analyze, references), the result
 * carries the manifest hash and reference counts, and an analysis failure stops the workflow
 * before any reference is built.
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowFailedError } from '@temporalio/client';
import { createTestEnv } from '../support/temporalEnv';
import { createWorkers, runWorkersDuring } from '../../worker/createWorkers';
import { DEFAULT_SPARK_SETTINGS } from '../../protocol/settings';
import type { PrepareDatabaseResult } from '../../workflows/prepare';

let env: TestWorkflowEnvironment;

beforeAll(async () => {
  env = await createTestEnv();
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

function scripted(failAnalysis: boolean) {
  const calls: string[] = [];
  const rows = { date_dim: 73049 };
  const activities = {
    generateTables: async (i: { scale: number }) => {
      calls.push(`generate:${i.scale}`);
      return { scale: i.scale, rawDir: '/r', dbDir: '/d', generate: { skipped: false, seconds: 1, generator: { name: 'tpcgen-cli', version: '4.0.0', flags: [] }, rows } };
    },
    loadTables: async (i: { scale: number; settings: { ansi: boolean } }) => {
      calls.push(`load:${i.settings.ansi}`);
      return { scale: i.scale, dbDir: '/d', manifestHash: 'abc', load: { skipped: false, seconds: 2, manifestHash: 'abc', rows } };
    },
    analyzeQueries: async () => {
      calls.push('analyze');
      return { source: 'spark-tests-jar', total: 103, passed: failAnalysis ? 102 : 103, failed: failAnalysis ? [{ id: 'q30', error: 'cannot resolve c_last_review_date' }] : [], columns: {} };
    },
    buildReferences: async (i: { ids?: string[] }) => {
      calls.push(`references:${i.ids?.join(',') ?? 'all'}`);
      return { scale: 1, built: ['q1', 'q3'], skipped: [], failed: [], count: 2, manifestHash: 'abc', querySource: 'spark-tests-jar', refsDir: '/x', seconds: { q1: 1.5, q3: 2 } };
    },
  };
  return { calls, activities };
}

async function run(failAnalysis: boolean, id: string): Promise<{ calls: string[]; result?: PrepareDatabaseResult; error?: unknown }> {
  const { calls, activities } = scripted(failAnalysis);
  const queuePrefix = `${id}-`;
  const workers = await createWorkers({ connection: env.nativeConnection, namespace: env.namespace ?? 'default', activityOverrides: activities, queuePrefix });
  try {
    const result = await runWorkersDuring(workers, () =>
      env.client.workflow.execute('prepareDatabase', {
        args: [{ scale: 1, settings: DEFAULT_SPARK_SETTINGS, ids: ['q1', 'q3'], sparkQueue: `${queuePrefix}lockin-spark` }],
        workflowId: id,
        taskQueue: `${queuePrefix}lockin-default`,
      }),
    );
    return { calls, result: result as PrepareDatabaseResult };
  } catch (error) {
    return { calls, error };
  }
}

test('runs generate, load, analyze, references in order and reports the manifest hash', async () => {
  const { calls, result, error } = await run(false, 'prepare-ok');
  expect(error).toBeUndefined();
  expect(calls).toEqual(['generate:1', 'load:true', 'analyze', 'references:q1,q3']);
  expect(result!.manifestHash).toBe('abc');
  expect(result!.rows).toEqual({ date_dim: 73049 });
  expect(result!.analysis).toEqual({ passed: 103, total: 103, failed: [] });
  expect(result!.references.count).toBe(2);
  expect(result!.references.seconds).toEqual({ q1: 1.5, q3: 2 });
}, 120_000);

test('a variant failing analysis stops the workflow before the references', async () => {
  const { calls, error } = await run(true, 'prepare-analysis-fails');
  expect(calls).toEqual(['generate:1', 'load:true', 'analyze']);
  expect(error).toBeInstanceOf(WorkflowFailedError);
  expect(String((error as WorkflowFailedError).cause?.message)).toMatch(/1 variant\(s\) fail Spark analysis: q30/);
}, 120_000);
