/** Workflow inputs and results (small, JSON-serialisable). */
import type { ModelParams, ModelSpec, PytestOutcome, SmokeOutcome, StageResult } from './types';
import type { ContractOutcome } from './records';
import type { SparkMode, SparkSettings } from './settings';
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
  params: ModelParams;
  scale: number;
  settings: SparkSettings;
  /** How Spark jobs get their JVM (protocol/settings.ts SPARK_MODES; absent: cold, as before issue 22). */
  sparkMode?: SparkMode;
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
  /** Calls already spent on the shared snapshot (1). */
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
  referenceMatched: boolean;
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

/** mutationAnalysis's progress (the `mutationProgress` query): tasks done and one line per finished part. */
export interface MutationProgress {
  tasksTotal: number;
  tasksDone: number;
  /** "n/N mutants q3: …" and "n/N suite q3/one-pass: …", in the order they finished. */
  lines: string[];
}
