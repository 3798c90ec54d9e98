/**
 * The activities lockin registers: exactly the contract the workflows schedule
 * (protocol/activities.ts WorkflowActivities), checked at compile time both ways: each has the
 * contract's signature, and nothing is registered that no workflow calls.
 */
import type { ActivityOutput, WorkflowActivities } from '../protocol/activities';
import { callModel } from '../activities/model';
import { initStudy, prepareConditionDir, freezeArtifacts, sealContract, guardContract, classifyEdits, writeRunRecord, completedTasks, completedTaskCalls } from '../activities/store';
import { evaluateRun, judgeRequest, labelRun } from '../activities/scoring';
import { runPytest, smokeCheck, executeCandidate } from '../activities/execution';
import { runEvaluatorControls } from '../activities/compare';
import { generateTables, loadTables, analyzeQueries, buildReferences, reexecuteReferences, reproduceReferencesOnce, buildVariants, compareGolden, verifyDatabase, listQueries } from '../activities/data';
import { executeOnVariants } from '../activities/data/differential';
import { mutationTasks, mutationTask } from '../activities/mutation';
import { finishModels, finishStudy, finishMutationAnalysis, writeStudyReport } from '../activities/report';
import { labelByExecution, labellerAccuracy, labellerCalibration, labellerCheckTask } from '../activities/obligations';
import { tasksWithReferences, checkStudyCorpus } from '../activities/tasks';
import { obligationsCheckTask, obligationsCheckSummary, calibrateOnFaults } from '../activities/obligations/commands';

/** Every registered activity, by the name workflows schedule it under. */
export const ACTIVITIES = {
  // store
  initStudy,
  prepareConditionDir,
  freezeArtifacts,
  sealContract,
  guardContract,
  classifyEdits,
  writeRunRecord,
  completedTasks,
  completedTaskCalls,
  finishStudy,
  evaluateRun,
  judgeRequest,
  labelRun,
  // a model matrix's combined report
  finishModels,
  // model, execution
  callModel,
  runPytest,
  smokeCheck,
  executeCandidate,
  // differential execution on the variant databases (differential execution)
  executeOnVariants,
  // executable obligation labels (executable labels)
  labelByExecution,
  labellerAccuracy,
  labellerCheckTask,
  labellerCalibration,
  // database and references
  generateTables,
  loadTables,
  analyzeQueries,
  buildReferences,
  // evaluator checks
  runEvaluatorControls,
  reexecuteReferences,
  // mutation analysis
  mutationTasks,
  mutationTask,
  finishMutationAnalysis,
  // the main job between its steps
  tasksWithReferences,
  checkStudyCorpus,
  // the steps of single CLI commands (workflows/commands.ts)
  writeStudyReport,
  reproduceReferences: reproduceReferencesOnce,
  buildVariants,
  compareGolden,
  verifyDatabase,
  listQueries,
  obligationsCheckTask,
  obligationsCheckSummary,
  calibrateOnFaults,
} satisfies WorkflowActivities;

/** Compile-time: an activity registered here that the contract does not name is an error. */
type Unscheduled = Exclude<keyof typeof ACTIVITIES, keyof WorkflowActivities>;
const NONE_UNSCHEDULED: Record<Unscheduled, never> = {};
void NONE_UNSCHEDULED;

/** The field names of an activity's input (never for an activity without one). */
type InputFields<F> = F extends (req: infer R) => unknown ? (R extends object ? keyof R : never) : never;

/**
 * Compile-time: an implementation reads exactly the input fields its contract declares, no more
 * (a field the workflow passes but the contract does not name, the way `sparkMode` once reached
 * runPytest, is an error here) and no fewer. The types of the fields are checked by `satisfies`
 * above (the contract's members are function-typed properties, so their inputs are checked
 * contravariantly).
 */
type InputDrift = {
  [K in keyof WorkflowActivities as [Exclude<InputFields<(typeof ACTIVITIES)[K]>, InputFields<WorkflowActivities[K]>> | Exclude<InputFields<WorkflowActivities[K]>, InputFields<(typeof ACTIVITIES)[K]>>] extends [never] ? never : K]: {
    notInContract: Exclude<InputFields<(typeof ACTIVITIES)[K]>, InputFields<WorkflowActivities[K]>>;
    notInImplementation: Exclude<InputFields<WorkflowActivities[K]>, InputFields<(typeof ACTIVITIES)[K]>>;
  };
};
const NO_INPUT_DRIFT: Record<keyof InputDrift, never> = {};
void NO_INPUT_DRIFT;

/** What an implementation's promise resolves to. */
type ImplementationOutput<K extends keyof WorkflowActivities> = Awaited<ReturnType<(typeof ACTIVITIES)[K]>>;

/**
 * Compile-time: an implementation returns exactly what its contract declares (each type
 * assignable to the other), so a field added to or dropped from a result on one side only is an
 * error here; implementations are typed from ActivityInput/ActivityOutput of the contract.
 */
type OutputDrift = {
  [K in keyof WorkflowActivities as [ActivityOutput<K>] extends [ImplementationOutput<K>] ? ([ImplementationOutput<K>] extends [ActivityOutput<K>] ? never : K) : K]: {
    contract: ActivityOutput<K>;
    implementation: ImplementationOutput<K>;
  };
};
const NO_OUTPUT_DRIFT: Record<keyof OutputDrift, never> = {};
void NO_OUTPUT_DRIFT;
