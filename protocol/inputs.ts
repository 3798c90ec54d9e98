/** Workflow inputs and results (small, JSON-serialisable). */
import type { ModelParams, ModelSpec, PytestOutcome, SmokeOutcome, StageResult } from './types';
import type { ContractOutcome } from './records';
import type { SparkJit, SparkMode, SparkSettings } from './settings';
import type { SensitivitySubset } from './sensitivity';
import type { ConditionId } from './conditions';

export interface StudyInput {
  studyId: string;
  tasks: string[];
  conditions: ConditionId[];
  model: ModelSpec;
  /**
   * A model matrix (`--models a,b,c`, two or more specs): the study runs one sub-study per model
   * (id protocol/keys.ts modelStudyId, the same tasks, samples and conditions) and a combined
   * report with a section per model and a between-model table. `model` is then the first spec.
   */
  models?: ModelSpec[];
  /** The generation settings of `model` (protocol/settings.ts resolveModelParams; the paper's by default). */
  params: ModelParams;
  /**
   * A model matrix's settings per model, where a model's differ from `params` (`--model-settings`):
   * each sub-study runs with `modelParams[spec] ?? params`. Absent: every model uses `params`.
   */
  modelParams?: Record<ModelSpec, ModelParams>;
  scale: number;
  settings: SparkSettings;
  /** How Spark jobs get their JVM (protocol/settings.ts SPARK_MODES; absent: cold, as before warm Spark slots). */
  sparkMode?: SparkMode;
  /** The JIT of the job JVMs where the study started (LOCKIN_SPARK_JIT; absent: tiered). Recorded in study.json, not part of its hash; each job's `spark.jit` says what its JVM used. */
  sparkJit?: SparkJit;
  /** Tasks to run a targeted replication for (Table VII), with the replicate label. */
  replicate?: { tasks: string[]; label: string };
  /**
   * Independent generations per task (`--samples K`, default 1): each sample has its own
   * snapshot and its own condition branches. Absent = 1 (studies recorded before it).
   */
  samples?: number;
  /** Child workflows in flight at once. */
  taskConcurrency: number;
  /** Limits for candidate code. */
  limits: { pytestTimeoutMs: number; executionTimeoutMs: number; memoryMb: number };
  /** Write the report at the end (default true). */
  report?: boolean;
  /** Table V's sensitivity subsets (default PAPER_SENSITIVITY, protocol/sensitivity.ts); recorded in study.json. */
  sensitivity?: SensitivitySubset[];
}

export interface StudyManifestSummary {
  studyDir: string;
  manifestHash: string;
  replayed: boolean;
}

export interface TaskInput {
  study: StudyInput;
  manifest: StudyManifestSummary;
  taskId: string;
  replicate?: string;
  /** Sample index, 1-based; absent = 1. */
  sample?: number;
}

export interface ConditionInput {
  study: StudyInput;
  taskId: string;
  condition: ConditionId;
  conditionDir: string;
  snapshotDir: string;
  /** Calls already spent on the shared initial generation (1). */
  sharedCalls: StageResult[];
  replicate?: string;
  /**
   * Set by runTask (since the patch "evaluate-in-condition"): after freezing, the condition
   * workflow tells its task (conditionFrozenSignal), waits for evaluateSignal (every condition
   * of the task has frozen: docs/protocol.md §3), then evaluates itself and sets its outcome
   * search attributes. Absent in histories recorded before: the task evaluates.
   */
  evaluation?: { manifest: StudyManifestSummary };
  /** Sample index, 1-based; absent = 1. */
  sample?: number;
}

/** One condition's outcome as the task summary and the search attributes carry it. */
export interface ConditionOutcome {
  condition: ConditionId;
  testPassed: boolean;
  referenceAgreement: boolean;
  falsePass: boolean;
  callsUsed: number;
}

/** What a condition workflow returns after freezing its artifacts (and its outcome, when it evaluated itself). */
export interface ConditionResult {
  outcome?: ConditionOutcome;
  condition: ConditionId;
  conditionDir: string;
  callsUsed: number;
  stages: StageResult[];
  stopReason: string;
  /** The last run of the suite that decides the test outcome (Contract-First: the contract suite). */
  pytest: PytestOutcome | null;
  smoke: SmokeOutcome | null;
  artifacts: Record<string, string>;
  /** Contract-First only (docs/protocol.md §2). */
  contract?: ContractOutcome;
}

/** The `progress` query's answer. */
export interface StudyProgress {
  studyId: string;
  tasksTotal: number;
  tasksDone: number;
  tasksFailed: string[];
  running: string[];
  callsUsed: number;
  step: string;
  startedAt: number;
}

/** Live call count of a running condition workflow (the `calls` query; the CLI's progress line). */
export interface CallsUsed {
  condition: ConditionId;
  /** Calls used so far, the shared initial generation included (as Table I counts). */
  used: number;
  budget: number;
}

/** prepareDatabase's progress (the `prepareProgress` query): the step running and the steps done. */
export interface PrepareProgress {
  step: 'generate' | 'load' | 'analyze' | 'references' | 'done';
  done: string[];
}

/** One task of `lockin obligations check` that finished (the `obligationsCheckProgress` query): its place in the list, whether it passed, the file holding its check. */
export interface ObligationsCheckDone {
  index: number;
  taskId: string;
  ok: boolean;
  file: string;
}

/** mutationAnalysis's progress (the `mutationProgress` query): tasks done and one line per finished part. */
export interface MutationProgress {
  tasksTotal: number;
  tasksDone: number;
  /** "task n of N: mutants q3: …" and "task n of N: suite q3/one-pass: …", in the order they finished. */
  lines: string[];
  /** The tasks being analysed now (absent in progress of workflows from before it). */
  running?: string[];
  /** The labeller checks on known truth (one per task, queued behind the tasks): how many ended, and the tasks being checked now (absent before they were counted). */
  checksDone?: number;
  checking?: string[];
}

/**
 * Input of the main job (workflows/mainJob.ts, docs/protocol.md §7): the study to run (its
 * tasks are those that have a reference at `study.scale`) and the steps around it.
 */
export interface MainJobInput {
  study: StudyInput;
  /** The study folder (runs/<id>): controls.json, controls.md and reproduce.json go there. */
  outDir: string;
  /** The database scale of the mutation analysis's equivalence check (0.01). */
  equivalenceScale: number;
  /** Leave out step 5 (the mutation analysis). */
  skipMutation?: boolean;
}

/** One step of the main job as the `mainJobProgress` query shows it (steps 2–5; 1 and 6 are the CLI's). */
export interface MainJobStep {
  /** 2 database and references, 3 evaluator checks, 4 the study, 5 mutation analysis. */
  n: number;
  title: string;
  /** Workflow id of the child that runs it (the UI's link). */
  workflowId: string;
  /** Seconds it took (workflow time), once done. */
  seconds?: number;
  /** What it reported, one line each (e.g. "33 references stored"). */
  lines: string[];
}

/** The main job's progress: the steps started so far, in order. */
export interface MainJobProgress {
  studyId: string;
  steps: MainJobStep[];
}

/**
 * A task run or condition that ended without its run record: `task` is the task key (`q4`,
 * `q4/sample-2`) or, when only one condition failed, `<task key>/<condition>`; `error` is the
 * root cause's message. Written to runs/<id>/failures.json by finishStudy.
 */
export interface StudyFailure {
  task: string;
  error: string;
}

/** Result of the main job (small: the study's runs are in records.jsonl). */
export interface MainJobResult {
  studyId: string;
  steps: MainJobStep[];
  /** Tasks left out for lack of a reference at the study's scale. */
  missingReferences: string[];
  reportDir: string | null;
  failed: { task: string; error: string }[];
  /** The mutation analysis's summary lines (null: skipped or failed). */
  mutation: string | null;
  /** Why the mutation analysis failed (the study's records and report stay). */
  mutationError?: string;
}
