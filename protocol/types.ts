/**
 * Shared value types that travel through Temporal payloads: references to files on disk
 * (path + sha256) and small summaries, never file bodies or DataFrames (README "Architecture").
 * Type-only module: workflows import it with `import type`.
 */
import type { ConditionId } from './conditions';
import type { Stage } from './stages';
import type { RunIdentity } from './run';
import type { TokenUsage } from './records';

export { FAILURE_CATEGORIES, EXECUTION_STATUSES } from './records';
export type { ComparisonOutcome, ExecutionOutcome, ExecutionStatus, FailureCategory, PermissionDeviation, PytestCounts, PytestOutcome, RunRecord, SandboxLimits, SmokeOutcome, SparkRun, TokenUsage } from './records';

export type { ModelParams, ModelSpec } from './model';
import type { ModelParams, ModelSpec } from './model';

/** A file on disk, identified by content. */
export interface FileRef {
  path: string;
  sha256: string;
}

/**
 * One protocol-level model call, as the workflow asks for it: a call of one run (condition
 * 'shared': the initial generation every condition inherits). Its replicate and sample are part
 * of the call's identity: the cache key and the replay file include them, so two samples of one
 * prompt are two backend requests (docs/protocol.md §6).
 */
export interface StageRequest extends RunIdentity<ConditionId | 'shared'> {
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
}

/** What a model call returns to the workflow (small; the full request and reply are in callFile). */
export interface StageResult {
  stage: Stage;
  /** calls/NN-<stage>.json: request exactly as sent, raw reply, usage, timing, cache hit. */
  callFile: string;
  /** False when the reply broke the protocol; the call still counts against the budget. */
  ok: boolean;
  protocolError?: string;
  /** The reply was cut at its token limit (max tokens, or the end of a local model's context; activities/model/reply.ts isCutReply). Absent: not cut. */
  cut?: boolean;
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

