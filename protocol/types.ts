/**
 * Shared value types that travel through Temporal payloads: references to files on disk
 * (path + sha256) and small summaries, never file bodies or DataFrames (README "Architecture").
 * Type-only module: workflows import it with `import type`.
 */
import type { ConditionId } from './conditions';
import type { Stage } from './stages';

/** Which model backend answers: "anthropic:<model-id>", "replay:<dir>" or "claude-code". */
export type ModelSpec = string;

/** Sampling parameters as the study intends them (the paper: temperature 1.0, top-p 1.0). */
export interface ModelParams {
  temperature: number;
  topP: number;
  maxTokens: number;
  /** Request the 1M-token context window (the paper's "[1m]" suffix). */
  longContext: boolean;
}

/** A file on disk, identified by content. */
export interface FileRef {
  path: string;
  sha256: string;
}

/** One protocol-level model call, as the workflow asks for it. */
export interface StageRequest {
  studyId: string;
  taskId: string;
  /** 'shared' for the one initial generation that every condition inherits. */
  condition: ConditionId | 'shared';
  stage: Stage;
  /** The directory whose artifacts the stage reads and into which artifact replies are written. */
  workDir: string;
  /** 1-based index of this call within its condition directory (file name calls/NN-<stage>.json). */
  callIndex: number;
  model: ModelSpec;
  params: ModelParams;
  /** Paths of files this stage may see besides the task prompt and the artifacts in workDir. */
  inputs: {
    /** pytest failure summary (Test-Guided revisions, C-5 revisions). */
    feedbackFile?: string;
    /** Prior structured outputs in this condition (PlanAudit stages): calls/NN-<stage>.json files. */
    priorCalls?: string[];
  };
  /** Set for the targeted replication (Table VII): a fresh initial generation label, e.g. "r1". */
  replicate?: string;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** What a model call returns to the workflow (small; the full request and reply are in callFile). */
export interface StageResult {
  stage: Stage;
  /** calls/NN-<stage>.json: request exactly as sent, raw reply, usage, timing, cache hit. */
  callFile: string;
  /** False when the reply broke the protocol; the call still counts against the budget. */
  ok: boolean;
  protocolError?: string;
  /** Artifacts written into workDir by this reply: file name -> sha256. */
  artifacts?: Record<string, string>;
  /** The validated JSON of an audit or judge stage. */
  json?: unknown;
  cacheHit: boolean;
  backend: string;
  usage: TokenUsage;
  costUsd: number;
  durationMs: number;
}

/** pytest counts from the JUnit XML. */
export interface PytestCounts {
  passed: number;
  failed: number;
  errored: number;
  collectionFailed: number;
  skipped: number;
  total: number;
}

/** The outcome of running a condition's test_solution.py (docs/protocol.md §4 "Test outcome"). */
export interface PytestOutcome {
  /** exit 0 and no failed, errored or collection-failed case. */
  passed: boolean;
  exitCode: number | null;
  counts: PytestCounts;
  status: 'completed' | 'timeout' | 'crash';
  /** A readable failure summary for revision prompts (never contains reference data). */
  failuresFile: string;
  junitFile?: string;
  durationMs: number;
}

export interface SmokeOutcome {
  ok: boolean;
  reason?: string;
  schema?: string;
  durationMs: number;
}

export type ExecutionStatus = 'ok' | 'exception' | 'timeout' | 'out-of-memory' | 'forbidden-access' | 'crash' | 'missing-solution';

/** The frozen candidate run on the study database. */
export interface ExecutionOutcome {
  status: ExecutionStatus;
  reason?: string;
  /** output.arrow (Arrow IPC file) and schema.json (Spark schema JSON) when status = ok. */
  outputFile?: string;
  schemaFile?: string;
  rows?: number;
  /** How isolation was enforced ("bwrap", "unshare+uid", "checked-only"). */
  isolation: string;
  durationMs: number;
}

/** The paper's surface failure categories (not exclusive). */
export const FAILURE_CATEGORIES = ['runtime', 'structural-schema', 'alias-mismatch', 'column-order', 'precision', 'row-count', 'values'] as const;
export type FailureCategory = (typeof FAILURE_CATEGORIES)[number];

/** Reference agreement for one candidate (docs/protocol.md §4). */
export interface ComparisonOutcome {
  agree: boolean;
  categories: FailureCategory[];
  primaryCategory?: FailureCategory;
  /** A short human-readable account of the first differences. */
  summary: string;
  /** Full details (schema diff, missing/extra rows with multiplicities) as JSON on disk. */
  detailsFile?: string;
  /** Robustness: first normalization level that agrees (0..3) or null. */
  ladderLevel?: number | null;
  /** Robustness: tightest tolerance of the key-aligned comparison that agrees, or null. */
  toleranceAgreement?: number | null;
}

export interface PermissionDeviation {
  artifact: 'plan.md' | 'solution.py' | 'test_solution.py';
  change: 'plan-edit' | 'assertion-change' | 'fixture-import-syntax-change' | 'solution-edit';
  allowed: boolean;
  detail: string;
}

/** One record per (task, condition): the unit of every table in the report. */
export interface RunRecord {
  schemaVersion: 1;
  studyId: string;
  manifestHash: string;
  taskId: string;
  condition: ConditionId;
  replicate?: string;
  model: ModelSpec;
  replayed: boolean;
  callsUsed: number;
  callBudget: number;
  stopReason: string;
  stages: { stage: Stage; callFile: string; ok: boolean; cacheHit: boolean; protocolError?: string }[];
  artifacts: Record<string, string>;
  pytest: PytestOutcome | null;
  smoke: SmokeOutcome | null;
  execution: ExecutionOutcome | null;
  comparison: ComparisonOutcome | null;
  testPassed: boolean;
  referenceMatched: boolean;
  falsePass: boolean;
  deviations: PermissionDeviation[];
  usage: TokenUsage;
  costUsd: number;
  conditionDir: string;
}
