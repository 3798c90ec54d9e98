/**
 * The workflows behind single CLI commands, so that the CLI starts workflows and reads results
 * and never runs an activity's step itself (docs/architecture.md "The CLI's line"):
 *   corpusCheck              the `lockin tasks check` rules before `lockin study run` starts a study
 *   studyReport              `lockin report <id>` (writeStudyReport)
 *   modelsReport             `lockin report <id>` of a model matrix (finishModels)
 *   evaluatorControls        `lockin controls run` (runEvaluatorControls)
 *   referenceReproduction    `lockin data reproduce` (reproduceReferences)
 *   goldenComparison         `lockin data golden` (compareGolden)
 *   variantDatabases         `lockin data variants` (buildVariants)
 *   databaseVerification     `lockin data verify` (verifyDatabase)
 *   queryList                `lockin data queries` (listQueries)
 *   obligationsCheck         `lockin obligations check` (obligationsCheckTask per task, in lanes; obligationsCheckSummary)
 *   labellerCalibrationCheck `lockin obligations calibrate` (calibrateOnFaults)
 * Each is the command's step as it was, run once (workflows/options.ts COMMAND_STEP: a step that
 * throws fails the command; one whose worker went away is run again). Files are named by their
 * paths in the inputs; results that do not fit a payload are written there and read by the CLI
 * through activities/results.
 */
import { proxyActivities, setHandler } from '@temporalio/workflow';
import type { ActivityInput, ActivityOutput, CheckActivities, CommandActivities, MainJobActivities, StudyActivities } from '../protocol/activities';
import type { ObligationsCheckDone } from '../protocol/inputs';
import type { SparkSettings } from '../protocol/settings';
import { obligationsCheckProgressQuery } from '../protocol/queries';
import { inLanes } from '../protocol/pool';
import { COMMAND_SPARK_STEP, COMMAND_STEP } from './options';

const step = proxyActivities<CommandActivities & CheckActivities & MainJobActivities & StudyActivities>(COMMAND_STEP);
const sparkStep = proxyActivities<CommandActivities>(COMMAND_SPARK_STEP);

/** The `lockin tasks check` rules for the tasks a study is about to run: every problem, "taskId: file field: message" (empty: valid). */
export async function corpusCheck(input: ActivityInput<'checkStudyCorpus'>): Promise<ActivityOutput<'checkStudyCorpus'>> {
  return step.checkStudyCorpus(input);
}

/** `lockin report <id>`: the study's report written again; the report folder and how many files it holds. */
export async function studyReport(input: ActivityInput<'writeStudyReport'>): Promise<ActivityOutput<'writeStudyReport'>> {
  return step.writeStudyReport(input);
}

/** `lockin report <id>` of a model matrix: the combined report over the models' sub-studies. */
export async function modelsReport(input: { studyId: string; studies: { model: string; studyId: string }[] }): Promise<ActivityOutput<'finishModels'>> {
  return step.finishModels({ studyId: input.studyId, studies: input.studies, report: true });
}

/** `lockin controls run`: the 57 evaluator controls (Table II); controls.json and controls.md in `outDir`. */
export async function evaluatorControls(input: ActivityInput<'runEvaluatorControls'>): Promise<ActivityOutput<'runEvaluatorControls'>> {
  return step.runEvaluatorControls(input);
}

/** `lockin data reproduce`: the references re-executed in a fresh session and compared, nothing recorded. */
export async function referenceReproduction(input: ActivityInput<'reproduceReferences'>): Promise<ActivityOutput<'reproduceReferences'>> {
  return sparkStep.reproduceReferences(input);
}

/** `lockin data golden`: each reference compared with Spark's golden SF=1 answer. */
export async function goldenComparison(input: ActivityInput<'compareGolden'>): Promise<ActivityOutput<'compareGolden'>> {
  return sparkStep.compareGolden(input);
}

/** `lockin data variants`: the variant databases and the references on each (resumable). */
export async function variantDatabases(input: ActivityInput<'buildVariants'>): Promise<ActivityOutput<'buildVariants'>> {
  return sparkStep.buildVariants(input);
}

/** `lockin data verify`: the database's typed files checked against its manifest. */
export async function databaseVerification(input: ActivityInput<'verifyDatabase'>): Promise<ActivityOutput<'verifyDatabase'>> {
  return step.verifyDatabase(input);
}

/** `lockin data queries`: the query variants and the sha256 of each text. */
export async function queryList(): Promise<ActivityOutput<'listQueries'>> {
  return step.listQueries();
}

/** Input of obligationsCheck: the tasks, the check's options, and `outDir`, where `<taskId>.json` and check.json are written. */
export interface ObligationsCheckInput {
  tasks: string[];
  scale: number;
  settings: SparkSettings;
  /** The corpus root (absolute). */
  root: string;
  skipReference: boolean;
  swaps: boolean;
  /** Tasks checked at once. */
  concurrency: number;
  /** `--keep`: the staged runs and outputs of each task are kept under `<keep>/<taskId>`. */
  keep?: string;
  outDir: string;
}

/** Result of obligationsCheck: check.json (scale, tasks, totals, labellers), whether every task passed, the tasks in the order they finished. */
export interface ObligationsCheckResult {
  file: string;
  ok: boolean;
  done: ObligationsCheckDone[];
}

/**
 * `lockin obligations check`: every task's check (obligationsCheckTask), `concurrency` at a time in
 * list order, then their summary (obligationsCheckSummary). The obligationsCheckProgress query
 * lists the tasks finished so far, so the CLI prints each table as its task ends.
 */
export async function obligationsCheck(input: ObligationsCheckInput): Promise<ObligationsCheckResult> {
  const done: ObligationsCheckDone[] = [];
  setHandler(obligationsCheckProgressQuery, () => done);
  const startedAtMs = Date.now();
  const files: string[] = [];
  await inLanes(input.tasks, input.concurrency, async (taskId, index) => {
    const r = await step.obligationsCheckTask({
      taskId, index, count: input.tasks.length, startedAtMs, scale: input.scale, settings: input.settings, root: input.root,
      skipReference: input.skipReference, swaps: input.swaps, ...(input.keep ? { workDir: `${input.keep}/${taskId}` } : {}), outFile: `${input.outDir}/${taskId}.json`,
    });
    files[index] = r.file;
    done.push({ index, ...r });
  });
  const summary = await step.obligationsCheckSummary({ scale: input.scale, files, outFile: `${input.outDir}/check.json` });
  return { file: summary.file, ok: summary.ok, done };
}

/** `lockin obligations calibrate`: the labellers on the realistic faults of `tasks`, written to `outFile`. */
export async function labellerCalibrationCheck(input: ActivityInput<'calibrateOnFaults'>): Promise<ActivityOutput<'calibrateOnFaults'>> {
  return step.calibrateOnFaults(input);
}
