/**
 * The activities the study workflows call, by name and signature. Type-only: the worker
 * registers implementations from worker/activities.ts under these names.
 */
import type {
  ComparisonOutcome,
  ExecutionOutcome,
  PermissionDeviation,
  PytestOutcome,
  RunRecord,
  SmokeOutcome,
  StageRequest,
  StageResult,
} from './types';
import type { SparkMode, SparkSettings } from './settings';
import type { ModelParams, ModelSpec } from './model';
import type { RunIdentity } from './run';
import type { ConditionId } from './conditions';
import type { StudyFailure, StudyInput, StudyManifestSummary } from './inputs';
import type { AnalyzeResult, BuildResult, BuildVariantsResult, GenerateResult, GoldenResult, LoadResult, QueryList, ReproduceResult, VerifyResult } from './data';
import type { SensitivitySubset } from './sensitivity';

export interface StudyActivities {
  /** Writes (or verifies on resume) runs/<id>/study.json; refuses changed inputs. */
  initStudy: (input: StudyInput) => Promise<StudyManifestSummary>;
  /** Creates a fresh directory for a condition (or the shared initial generation), optionally copying the snapshot's artifacts. */
  prepareConditionDir: (req: RunIdentity<ConditionId | 'snapshot'> & { fromDir?: string }) => Promise<string>;
  /** Makes artifacts read-only and returns their sha256s. */
  freezeArtifacts: (req: { dir: string }) => Promise<Record<string, string>>;
  /** Contract-First: freezes the contract_test.py C-0 wrote and keeps a sealed copy; null when there is none. */
  sealContract: (req: { dir: string }) => Promise<{ sha256: string | null }>;
  /** Contract-First: checks contract_test.py against its C-0 sha256 (before every pytest run, at freeze); restores it when changed. */
  guardContract: (req: { dir: string; sha256: string }) => Promise<{ intact: boolean; foundSha256: string; restoredSha256: string }>;
  /** Post-hoc diff of a condition's frozen artifacts against the shared initial generation (§2 intent-to-treat). */
  classifyEdits: (req: { snapshotDir: string; conditionDir: string; condition: ConditionId }) => Promise<PermissionDeviation[]>;
  /** Writes one run record (idempotent per study/task/condition/replicate). */
  writeRunRecord: (record: RunRecord) => Promise<string>;
  /** Task keys ("q4", "q4@r1") already recorded for every condition (skipped on resume). */
  completedTasks: (req: { studyId: string }) => Promise<string[]>;
  /** Model calls used by those tasks, by key (for the progress of a resumed study). */
  completedTaskCalls: (req: { studyId: string }) => Promise<Record<string, number>>;
  /** Collects the run records into runs/<id>/records.jsonl and writes the report. */
  finishStudy: (req: { studyId: string; report?: boolean; failed?: StudyFailure[] }) => Promise<{ reportDir: string | null; records: number; recordsFile?: string }>;
  /** The end of a model matrix: runs/<id>/models.json and the combined report over the models' sub-studies. */
  finishModels: (req: { studyId: string; studies: { model: string; studyId: string }[]; report?: boolean }) => Promise<{ reportDir: string | null; records: number }>;

  callModel: (req: StageRequest) => Promise<StageResult>;
  /** A condition's suite in the sandbox (activities/execution/pytest.ts). sparkMode: the study's (study.json); absent = LOCKIN_SPARK_MODE or warm. */
  runPytest: (req: { dir: string; outDir: string; settings: SparkSettings; timeoutMs: number; runLabel: string; reuseScope?: string; suite?: 'test_solution.py' | 'contract_test.py'; suiteSha256?: string; sparkMode?: SparkMode }) => Promise<PytestOutcome>;
  /** The non-evaluative smoke check of a candidate (activities/execution/execute.ts). */
  smokeCheck: (req: { dir: string; scale: number; settings: SparkSettings; sparkMode?: SparkMode }) => Promise<SmokeOutcome>;
  /** The frozen candidate on the study database in the sandbox (activities/execution/execute.ts). */
  executeCandidate: (req: { dir: string; scale: number; settings: SparkSettings; outDir: string; timeoutMs: number; memoryMb: number; reuseScope?: string; sparkMode?: SparkMode }) => Promise<ExecutionOutcome>;
  /**
   * The frozen candidate on each variant database at the study's scale (differential execution; [] databases: none built). Spark queue.
   * `dir`: the frozen candidate's folder (solution.py); `outDir`: the run's evaluation folder (outputs in `<outDir>/variants/<variant>/`,
   * the outcome in `<outDir>/variants/differential.json`); `skip`: the candidate did not execute ok on the study database, so every variant is `not-run`.
   */
  executeOnVariants: (req: { taskId: string; dir: string; scale: number; settings: SparkSettings; outDir: string; timeoutMs: number; memoryMb: number; reuseScope?: string; sparkMode?: SparkMode; skip?: boolean }) => Promise<import('./records').DifferentialOutcome>;
  /** Executable code and test labels of a frozen run, written to <conditionDir>/executable-labels.json. Spark queue. */
  /** reuseScope: the study id (identical runs of one study share their labels). */
  labelByExecution: (req: { taskId: string; conditionDir: string; condition?: ConditionId; settings: SparkSettings; sparkMode?: SparkMode; reuseScope?: string }) => Promise<{ file: string; code: number; test: number; suitePassesGold: boolean }>;
  /**
   * Reference agreement of a frozen run's candidate output (with the robustness analyses), then,
   * unless `labels` is false (the workflow schedules the judge itself: judgeRequest, callModel,
   * labelRun), its obligation labels. `model`, `params`: the judge's (the study's); without a
   * reply, the labels fall back to the documented heuristic.
   */
  evaluateRun: (req: RunIdentity & { conditionDir: string; scale: number; execution: ExecutionOutcome; model?: ModelSpec; params?: ModelParams; labels?: boolean }) => Promise<ComparisonOutcome>;
  /** The judge call of an evaluated run (judge-input.json written), or null when there is no judge; the workflow sends it with callModel. */
  judgeRequest: (req: Parameters<StudyActivities['evaluateRun']>[0] & { comparison: ComparisonOutcome }) => Promise<StageRequest | null>;
  /** labels.json of a run from the judge's reply (null: none), the executable labels and the heuristic. */
  labelRun: (req: Parameters<StudyActivities['evaluateRun']>[0] & { comparison: ComparisonOutcome; judged: StageResult | null }) => Promise<{ method: 'judge' | 'heuristic'; obligations: number; judgeError?: string }>;
}

/** The activities of prepareDatabase (workflows/prepare.ts), implemented in activities/data/. */
export interface DataActivities {
  /** Generates the 24 tables at `scale` (the TPC-DS scale factor; 1 = the study's SF=1) with tpcgen-cli (skipped when done). */
  generateTables: (input: { scale: number }) => Promise<GenerateResult>;
  /** Loads them with the study's types into typed Parquet plus manifest.json, which records `settings` (skipped when done). */
  loadTables: (input: { scale: number; settings: SparkSettings }) => Promise<LoadResult>;
  /** Spark analysis of every query variant on the loaded tables (recorded, skipped when unchanged). */
  analyzeQueries: (input: { scale: number; settings: SparkSettings; ids?: string[] }) => Promise<AnalyzeResult>;
  /** Builds (or resumes) the reference outputs. */
  buildReferences: (input: { scale: number; settings: SparkSettings; ids?: string[] }) => Promise<BuildResult>;
}

/** Table II as counts (activities/compare/controls.ts runControls). */
export interface ControlCounts {
  controls: number;
  expectedAccept: number;
  expectedReject: number;
  accepted: number;
  rejected: number;
  skipped: number;
  asExpected: number;
  unexpected: number;
  perturbations: number;
  verifiedPerturbations: number;
}

/** The activities of the evaluator checks (workflows/checks.ts: Table II and the SQL re-execution). */
export interface CheckActivities {
  /** The 57 evaluator controls through the production comparator on the references of `referencesDir` (default referencesDir(scale)); writes controls.json/.md into outDir. */
  runEvaluatorControls: (req: { scale?: number; referencesDir?: string; outDir: string }) => Promise<{ counts: ControlCounts; allAsExpected: boolean; controlsFile: string; markdownFile: string }>;
  /** The SQL re-execution of the references (`ids`, default the 33), recorded in outFile (runs/<study>/reproduce.json; skipped when recorded on this database). */
  reexecuteReferences: (req: { scale: number; settings: SparkSettings; outFile: string; ids?: string[] }) => Promise<{ reproduced: number; total: number; recordedEarlier: boolean; resumed?: number }>;
}

/** The options of one mutation analysis (README "Test-suite validity and mutation scores"). */
export interface MutationOptions {
  studyId: string;
  equivalenceScale?: number;
  confirmScale?: number;
  maxPerOperator?: number;
}

/** The activities of the mutation analysis (workflows/mutation.ts). */
export interface MutationActivities {
  /** The study's tasks with records (optionally only `tasks`). */
  mutationTasks: (req: { studyId: string; tasks?: string[] }) => Promise<string[]>;
  /** One task: its mutants' equivalence verdicts, then its suites against gold and the mutants (cached). */
  mutationTask: (req: MutationOptions & { taskId: string }) => Promise<{ taskId: string; lines: string[]; skipped: boolean }>;
  /** mutation.json from the cached parts, the report rewritten unless `report` is false; the summary lines (`seconds`: the analysis's time so far, for the first line). */
  finishMutationAnalysis: (req: MutationOptions & { tasks?: string[]; report?: boolean; seconds?: number }) => Promise<string>;
  /** runs/<id>/labeller-accuracy.json: the code labellers measured on gold and the violations of the study's tasks at `scale` (cached per task). */
  labellerAccuracy: (req: { studyId: string; scale: number }) => Promise<{ file: string; line: string }>;
  /** The labeller check of one task, into the per-task cache labellerAccuracy reads (queued behind the mutation tasks in the same lanes). */
  labellerCheckTask: (req: { studyId: string; taskId: string; scale: number }) => Promise<{ taskId: string; cached: boolean }>;
  /** runs/<id>/labeller-calibration.json: the labellers measured on the realistic faults of the study's tasks (cached per task); null file when none of its tasks has faults. */
  labellerCalibration: (req: { studyId: string }) => Promise<{ file: string | null; line: string }>;
}

/** The activities of the main job between its steps (workflows/mainJob.ts). */
export interface MainJobActivities {
  /** Splits `tasks` into those with a reference at `scale` and those without (left out of the study). */
  tasksWithReferences: (req: { scale: number; tasks: string[] }) => Promise<{ kept: string[]; missing: string[] }>;
  /** The `lockin tasks check` rules for `tasks` (before the first model call): every problem as "taskId: file field: message" (empty: valid). */
  checkStudyCorpus: (req: { scale: number; tasks: string[] }) => Promise<{ problems: string[] }>;
}

/**
 * The activities of the workflows behind single CLI commands (workflows/commands.ts): what
 * `lockin report`, `lockin data reproduce`, `lockin obligations check` and `lockin obligations
 * calibrate` run. Detailed results are written to files (the report folder, `outFile`) that the
 * CLI reads through activities/results; the payloads stay small.
 */
export interface CommandActivities {
  /**
   * `lockin report`: runs/<id>/report/ written again from the study's records (`runsDir`: the
   * folder holding <id>/, default runs/; `sensitivity`: Table V's subsets instead of the study's).
   * Table III's numbers are in `<reportDir>/summary.json`.
   */
  writeStudyReport: (req: { studyId: string; runsDir?: string; sensitivity?: SensitivitySubset[] }) => Promise<{ reportDir: string; files: number }>;
  /** `lockin data reproduce`: the references re-executed in a fresh session and compared (schema, multiset, the comparator); nothing recorded. */
  reproduceReferences: (req: { scale: number; settings: SparkSettings; ids?: string[] }) => Promise<ReproduceResult & { resumed: number }>;
  /**
   * `lockin obligations check`, one task (the `index`-th of `count`, for its progress lines, which
   * count seconds from `startedAtMs`): the acceptance tests on gold and the violations, each
   * violation against the reference, the column swaps; the whole check written to `outFile`.
   */
  obligationsCheckTask: (req: { taskId: string; index: number; count: number; startedAtMs: number; scale: number; settings: SparkSettings; root: string; skipReference: boolean; swaps: boolean; workDir?: string; outFile: string }) => Promise<{ taskId: string; ok: boolean; file: string }>;
  /** `lockin obligations check`, the end: the tasks' checks (their files, in task order), the totals and the labellers' merged accuracy as one JSON document in `outFile`. */
  obligationsCheckSummary: (req: { scale: number; files: string[]; outFile: string }) => Promise<{ file: string; ok: boolean }>;
  /** `lockin data variants`: the variant databases of the study database at `scale` (`variants`, default protocol/differential.ts VARIANT_NAMES; `seed`, default 1) and the references (`ids`, default the 33) on each; resumable. */
  buildVariants: (req: { scale: number; seed?: number; variants?: string[]; settings: SparkSettings; ids?: string[] }) => Promise<BuildVariantsResult>;
  /** `lockin data golden`: each reference compared with Spark's golden SF=1 answer (disagreements are findings). */
  compareGolden: (req: { scale: number; settings: SparkSettings; ids?: string[] }) => Promise<GoldenResult>;
  /** `lockin data verify`: every typed table file of the database at `scale` checked against its manifest.json. */
  verifyDatabase: (req: { scale: number }) => Promise<VerifyResult>;
  /** `lockin data queries`: the 103 query variants, the sha256 of each text and their source. */
  listQueries: () => Promise<QueryList>;
  /** `lockin obligations calibrate`: the labellers on the realistic faults of `tasks` (tasks/<id>/faults/) against their hand labels, written to `outFile`; `problems`: the tasks' problems counted. */
  calibrateOnFaults: (req: { tasks: string[]; settings: SparkSettings; root: string; outFile: string }) => Promise<{ file: string; problems: number }>;
}

/**
 * Every activity a workflow may schedule; worker/activities.ts `satisfies` it, and checks that
 * each implementation reads exactly the input fields declared here.
 */
export type WorkflowActivities = StudyActivities & DataActivities & CheckActivities & MutationActivities & MainJobActivities & CommandActivities;

/** The input of activity `K` as the contract declares it: implementations type their parameter with it. */
export type ActivityInput<K extends keyof WorkflowActivities> = Parameters<WorkflowActivities[K]>[0];

/** What activity `K` returns (its promise's value) as the contract declares it. */
export type ActivityOutput<K extends keyof WorkflowActivities> = Awaited<ReturnType<WorkflowActivities[K]>>;
