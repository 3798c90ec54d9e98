/**
 * prepareDatabase: the study's foundation as one resumable workflow (docs/protocol.md §1, §4).
 *   1. generate the 24 TPC-DS tables (tpcgen-cli, pinned, --compat c);
 *   2. load them with the docs/tpcds-types.md types, write typed Parquet and manifest.json;
 *   3. check that every query variant passes Spark analysis on the loaded tables;
 *   4. build the 33 references with the study's Spark settings.
 * Every activity skips work whose outputs already match their record, so a re-run resumes.
 */
import { proxyActivities, setHandler, ApplicationFailure } from '@temporalio/workflow';
import type { DataActivities } from '../protocol/activities';
import { QUEUES } from '../protocol/queues';
import type { SparkSettings } from '../protocol/settings';
import type { PrepareProgress } from '../protocol/inputs';
import { prepareProgressQuery } from '../protocol/queries';

/** The queue of JVM-starting work. */
const SPARK_QUEUE = QUEUES.spark;

/** Generation: a few seconds at SF=1; the generator is deterministic, so retries are safe. */
const GENERATE_OPTIONS = { startToCloseTimeout: '30 minutes', heartbeatTimeout: '1 minute', retry: { maximumAttempts: 3, initialInterval: '5s' } } as const;
/** Load, analysis and reference builds start a JVM: long, heartbeated, retried once for worker crashes. */
const SPARK_STEP_OPTIONS = { startToCloseTimeout: '3 hours', heartbeatTimeout: '2 minutes', retry: { maximumAttempts: 2, initialInterval: '10s' } } as const;

/** Input of prepareDatabase. */
export interface PrepareDatabaseInput {
  /** TPC-DS scale factor (the study: 1). */
  scale: number;
  /** The study's Spark settings (recorded in manifest.json and references.json). */
  settings: SparkSettings;
  /** Run the analysis check of all 103 variants (default true). */
  analyze?: boolean;
  /** Reference variant ids (default: the 33 of REFERENCE_INVENTORY). */
  ids?: string[];
  /** Task queue for JVM work (tests pass a prefixed one). */
  sparkQueue?: string;
}

/** Result of prepareDatabase. */
export interface PrepareDatabaseResult {
  scale: number;
  manifestHash: string;
  rows: Record<string, number>;
  analysis: { passed: number; total: number; failed: { id: string; error: string }[] } | null;
  references: { count: number; built: string[]; skipped: string[]; failed: { id: string; error: string }[]; seconds: Record<string, number>; empty?: string[] };
  /** Wall-clock seconds per step (workflow time; a skipped step takes about nothing). */
  seconds: { generate: number; load: number; analyze: number; references: number };
}

export type { PrepareProgress };

/** Runs the four steps in order; fails (non-retryable) when a variant fails analysis. */
export async function prepareDatabase(input: PrepareDatabaseInput): Promise<PrepareDatabaseResult> {
  const taskQueue = input.sparkQueue ?? SPARK_QUEUE;
  const gen = proxyActivities<DataActivities>({ ...GENERATE_OPTIONS, taskQueue });
  const spark = proxyActivities<DataActivities>({ ...SPARK_STEP_OPTIONS, taskQueue });
  const progress: PrepareProgress = { step: 'generate', done: [] };
  setHandler(prepareProgressQuery, () => progress);
  const seconds = { generate: 0, load: 0, analyze: 0, references: 0 };
  let started = Date.now();
  const step = (name: PrepareProgress['step']) => {
    const now = Date.now();
    if (progress.step !== 'done') {
      progress.done.push(progress.step);
      seconds[progress.step] = (now - started) / 1000;
    }
    started = now;
    progress.step = name;
  };

  await gen.generateTables({ scale: input.scale });
  step('load');
  const loaded = await spark.loadTables({ scale: input.scale, settings: input.settings });
  let analysis: PrepareDatabaseResult['analysis'] = null;
  if (input.analyze !== false) {
    step('analyze');
    const a = await spark.analyzeQueries({ scale: input.scale, settings: input.settings });
    analysis = { passed: a.passed, total: a.total, failed: a.failed };
    if (a.failed.length) {
      throw ApplicationFailure.nonRetryable(`${a.failed.length} variant(s) fail Spark analysis: ${a.failed.map((f) => `${f.id}: ${f.error}`).join('; ').slice(0, 800)}`, 'AnalysisError');
    }
  }
  step('references');
  const refs = await spark.buildReferences({ scale: input.scale, settings: input.settings, ids: input.ids });
  step('done');
  return {
    scale: input.scale,
    manifestHash: loaded.manifestHash,
    rows: loaded.load.rows,
    analysis,
    references: { count: refs.count, built: refs.built, skipped: refs.skipped, failed: refs.failed, seconds: refs.seconds, ...(refs.empty ? { empty: refs.empty } : {}) },
    seconds,
  };
}
