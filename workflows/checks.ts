/**
 * evaluatorChecks: the evaluator controls (Table II) and the SQL re-execution of the 33
 * references (Table V's input), as one resumable workflow (docs/protocol.md §4). Each is an
 * activity that records its result in the study folder; the re-execution is skipped when it is
 * already recorded for this database, so a killed main job resumes without redoing it.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { CheckActivities, ControlCounts } from '../protocol/activities';
import type { SparkSettings } from '../protocol/settings';
import { LOCAL_STEP, SPARK_LONG } from './options';
import { recordingStatus } from './status';

/** The controls run in-process (no JVM) but load 33 references: minutes at SF=1. */
const controlsStep = proxyActivities<CheckActivities>({ ...LOCAL_STEP, startToCloseTimeout: '1 hour' });
const spark = proxyActivities<CheckActivities>(SPARK_LONG);

/** Input of evaluatorChecks. */
export interface EvaluatorChecksInput {
  scale: number;
  settings: SparkSettings;
  /** The study folder: controls.json, controls.md and reproduce.json are written there. */
  outDir: string;
}

/** Result of evaluatorChecks. */
export interface EvaluatorChecksResult {
  controls: { counts: ControlCounts; allAsExpected: boolean };
  reexecution: { reproduced: number; total: number; recordedEarlier: boolean; resumed?: number };
}

export async function evaluatorChecks(input: EvaluatorChecksInput): Promise<EvaluatorChecksResult> {
  return recordingStatus(async () => {
    const controls = await controlsStep.runEvaluatorControls({ scale: input.scale, outDir: input.outDir });
    const reexecution = await spark.reexecuteReferences({ scale: input.scale, settings: input.settings, outFile: `${input.outDir}/reproduce.json` });
    return { controls: { counts: controls.counts, allAsExpected: controls.allAsExpected }, reexecution };
  });
}
