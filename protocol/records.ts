/**
 * The run record: one per (task, condition), the unit of every table in the report
 * (docs/protocol.md §4–5). This zod schema is the one definition: the workflow builds records
 * of this type, `writeRunRecord` stores them, and every reader (records.jsonl, the scoring,
 * the report, the CLI summary) parses them with `parseRunRecord`, which names the field that is
 * wrong. Fields a later version adds are optional, so older records still parse; unknown keys
 * are kept.
 *
 * Version history: 1 = the first round's record; 2 = reference agreement is `referenceAgreement`
 * (version 1 called it `referenceMatched`; parseRunRecord reads a version-1 record as version 2).
 */
import { z } from 'zod';
import { CONDITIONS } from './conditions';
import { STAGES } from './stages';
import { SparkJitSchema } from './settings';

/** The paper's surface failure categories (not exclusive; docs/protocol.md §4). */
export const FAILURE_CATEGORIES = ['runtime', 'structural-schema', 'alias-mismatch', 'column-order', 'precision', 'row-count', 'values'] as const;
export type FailureCategory = (typeof FAILURE_CATEGORIES)[number];

/** Token counts of one or more model calls. */
export const TokenUsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

/** pytest counts from the JUnit XML. */
export const PytestCountsSchema = z.object({
  passed: z.number().int(),
  failed: z.number().int(),
  errored: z.number().int(),
  collectionFailed: z.number().int(),
  skipped: z.number().int(),
  total: z.number().int(),
});
export type PytestCounts = z.infer<typeof PytestCountsSchema>;

/** The limits a sandboxed run was held to (activities/execution/sandbox.ts; README "Security"). */
export const SandboxLimitsSchema = z.object({
  /** Resident memory of the process tree, MiB (watchdog); null when none was set. */
  memoryMb: z.number().nullable(),
  /** Size of the private tmpfs /tmp, MiB (counted in memory: the sandbox holds at most memoryMb + scratchMb); null when /tmp is not private (no bubblewrap). */
  scratchMb: z.number().nullable(),
  /** Largest file the process may write, MiB (RLIMIT_FSIZE); null when prlimit is missing. */
  fileMb: z.number().nullable(),
  /** Tasks its user may run at once (RLIMIT_NPROC, threads included); null when not enforceable. */
  processes: z.number().nullable(),
  /** Host uid the sandbox ran as. */
  hostUid: z.number(),
});
export type SandboxLimits = z.infer<typeof SandboxLimitsSchema>;

/**
 * How Spark ran one job (warm Spark slots, activities/execution/slots.ts): the mode, and in warm mode the
 * slot, the job's number in it, whether this job started the slot's JVM, what the slot's reset
 * put back after it and why the slot was restarted after it. Absent in records written before.
 */
export const SparkRunSchema = z.object({
  mode: z.enum(['cold', 'warm']),
  /** The JIT of the job's JVM (LOCKIN_SPARK_JIT of the worker that ran it, activities/common/sparkJit.ts; absent in records written before: tiered). */
  jit: SparkJitSchema.optional(),
  /** True when a JVM was started for this job (always in cold mode). */
  jvmStarted: z.boolean(),
  slot: z.string().optional(),
  job: z.number().int().optional(),
  resets: z.array(z.string()).optional(),
  restart: z.string().optional(),
  /** Warm was asked for but the job ran cold: why. */
  coldBecause: z.string().optional(),
  /**
   * The job first ran in warm slot `slot` (its job number `job`), whose JVM was lost while it ran
   * (`reason`): that outcome was discarded and this one is a cold rerun (activities/execution/slots.ts).
   */
  lostSlot: z.object({ slot: z.string(), job: z.number().int(), reason: z.string() }).optional(),
  /** The outcome was copied from an identical run of the same study (activities/execution/reuse.ts): no job ran, no JVM started. */
  reused: z.boolean().optional(),
  /**
   * Where the job's wall time went, milliseconds (absent in records written before; a copied
   * run's are the original's): `slot` waiting for a free warm slot of the job's profile,
   * starting one when there was none, and copying the job's folders into it (0 cold);
   * `process` the job's own process tree from start to exit (sandbox, Python start-up and
   * imports, attaching to the slot's JVM or starting one, and the job's work); `check` the
   * slot's reset and checks after the job (0 cold). A job rerun cold after its slot's JVM was
   * lost: the cold rerun's times plus the lost attempt's in `slot`, `process` and `check`.
   */
  ms: z.object({ slot: z.number(), process: z.number(), check: z.number() }).optional(),
});
export type SparkRun = z.infer<typeof SparkRunSchema>;

/** The outcome of running a condition's test_solution.py (docs/protocol.md §4 "Test outcome"). */
export const PytestOutcomeSchema = z.looseObject({
  /** exit 0, no failed, errored or collection-failed case, at least one test passed, and the
   *  harness's own report agrees (docs/protocol.md §4 "Test outcome"). */
  passed: z.boolean(),
  /** Why a run that pytest itself might call a pass is not one (the harness's report disagrees,
   *  no test ran, the suite registered its own pytest hooks, …); absent when nothing was vetoed. */
  notPassedBecause: z.string().optional(),
  /** The limits the run was held to (absent in records written before sandbox limits were recorded). */
  limits: SandboxLimitsSchema.optional(),
  /** How Spark ran it (absent in records written before warm Spark slots). */
  spark: SparkRunSchema.optional(),
  exitCode: z.number().int().nullable(),
  counts: PytestCountsSchema,
  status: z.enum(['completed', 'timeout', 'crash']),
  /** A readable failure summary for revision prompts (never contains reference data). */
  failuresFile: z.string(),
  junitFile: z.string().optional(),
  durationMs: z.number(),
  /** Tests that pytest-timeout stopped (their per-test limit), by JUnit id; absent when none. */
  timedOutTests: z.array(z.string()).optional(),
  /**
   * The first attempt, when it ran out of time (wall clock, or a test's limit) and pytest was run
   * once more (docs/protocol.md §4 "Test outcome"); the outcome is the second attempt's.
   */
  rerunAfterTimeout: z.object({ status: z.enum(['completed', 'timeout', 'crash']), counts: PytestCountsSchema, timedOutTests: z.array(z.string()), durationMs: z.number() }).optional(),
});
export type PytestOutcome = z.infer<typeof PytestOutcomeSchema>;

/** The DataFrame smoke check (separate from, and never part of, the evaluation; §2). */
export const SmokeOutcomeSchema = z.looseObject({
  ok: z.boolean(),
  reason: z.string().optional(),
  schema: z.string().optional(),
  durationMs: z.number(),
  /** How Spark ran it (absent in records written before warm Spark slots). */
  spark: SparkRunSchema.optional(),
});
export type SmokeOutcome = z.infer<typeof SmokeOutcomeSchema>;

export const EXECUTION_STATUSES = ['ok', 'exception', 'timeout', 'out-of-memory', 'forbidden-access', 'crash', 'missing-solution'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/** The frozen candidate run on the study database (§4 "Execution"). */
export const ExecutionOutcomeSchema = z.looseObject({
  status: z.enum(EXECUTION_STATUSES),
  reason: z.string().optional(),
  /** output.arrow (Arrow IPC file) and schema.json (Spark schema JSON) when status = ok. */
  outputFile: z.string().optional(),
  schemaFile: z.string().optional(),
  rows: z.number().int().optional(),
  /** How isolation was enforced ("bwrap", "unshare+uid", "checked-only"). */
  isolation: z.string(),
  /** The limits the run was held to (absent in records written before sandbox limits were recorded). */
  limits: SandboxLimitsSchema.optional(),
  /** How Spark ran it (absent in records written before warm Spark slots). */
  spark: SparkRunSchema.optional(),
  durationMs: z.number(),
});
export type ExecutionOutcome = z.infer<typeof ExecutionOutcomeSchema>;

/** Reference agreement for one candidate (§4), with the robustness analyses. */
export const ComparisonOutcomeSchema = z.looseObject({
  agree: z.boolean(),
  categories: z.array(z.enum(FAILURE_CATEGORIES)),
  primaryCategory: z.enum(FAILURE_CATEGORIES).optional(),
  /** A short human-readable account of the first differences. */
  summary: z.string(),
  /** Full details (schema diff, missing/extra rows with multiplicities) as JSON on disk. */
  detailsFile: z.string().optional(),
  /** Robustness (b): first normalization level that agrees (0..3) or null. */
  ladderLevel: z.number().int().nullable().optional(),
  /** Robustness (a): tightest tolerance of the key-aligned comparison that agrees, or null. */
  toleranceAgreement: z.number().nullable().optional(),
});
export type ComparisonOutcome = z.infer<typeof ComparisonOutcomeSchema>;

/** The kinds of test_solution.py edit, classified from the syntax trees (activities/python/test_edits.py). */
export const TEST_EDIT_KINDS = ['imports-syntax', 'fixture-data', 'fixture-structure', 'assertion-added', 'assertion-removed', 'assertion-changed'] as const;
export type TestEditKind = (typeof TEST_EDIT_KINDS)[number];

/**
 * One classified edit of a revision branch against the snapshot (§2 intent-to-treat): recorded
 * whether or not the condition may make it; `allowed` says whether it may (Table I).
 */
export const PermissionDeviationSchema = z.looseObject({
  /** The artifact (contract_test.py: Contract-First's frozen suite, for a refused write only). */
  artifact: z.enum(['plan.md', 'solution.py', 'test_solution.py', 'contract_test.py']),
  /**
   * plan-edit, solution-edit, or `test-<kind>` for test_solution.py (TEST_EDIT_KINDS);
   * `write-refused`: an agent session (claude-code backend) tried to write a file the stage may
   * not change and was refused, so nothing changed (`stage` names the call).
   * `assertion-change` and `fixture-import-syntax-change` are the line-regex kinds of records
   * written before edits were classified by syntax; they are read, never written.
   */
  change: z.enum(['plan-edit', 'solution-edit', ...TEST_EDIT_KINDS.map((k) => `test-${k}` as const), 'write-refused', 'assertion-change', 'fixture-import-syntax-change']),
  /** write-refused: the call whose session tried it. */
  stage: z.string().optional(),
  /** Whether the condition's permissions (Table I) allow this edit. */
  allowed: z.boolean(),
  detail: z.string(),
  /** test_solution.py: the fixture, helper, constant or test the edit is in. */
  where: z.string().optional(),
  /** test_solution.py: the tests whose outcome the edit can change. */
  tests: z.array(z.string()).optional(),
  /** test_solution.py: those of `tests` that failed on the snapshot and pass at the end. */
  flipped: z.array(z.string()).optional(),
});
export type PermissionDeviation = z.infer<typeof PermissionDeviationSchema>;

/** A model call of the run, as the record lists it (the full request and reply are in callFile). */
export const StageRefSchema = z.looseObject({
  stage: z.enum(STAGES),
  /** calls/NN-<stage>.json of the condition (or of the shared initial generation). */
  callFile: z.string(),
  /** False when the reply broke the protocol; the call still counts against the budget. */
  ok: z.boolean(),
  cacheHit: z.boolean(),
  protocolError: z.string().optional(),
  /** The reply was cut at its token limit (absent: not cut, or recorded before cut replies were marked). */
  cut: z.boolean().optional(),
});

/** A revision that changed the frozen contract suite: rejected, the sealed suite restored. */
export const ContractViolationSchema = z.looseObject({
  /** The call after which the change was found. */
  stage: z.enum(STAGES),
  /** sha256 of contract_test.py as the call left it ("missing" when deleted). */
  foundSha256: z.string(),
  detail: z.string(),
});
export type ContractViolation = z.infer<typeof ContractViolationSchema>;

/** Contract-First's frozen contract suite (docs/protocol.md §2 "Contract-First"). */
export const ContractOutcomeSchema = z.looseObject({
  /** sha256 of contract_test.py as C-0 wrote it (null: C-0's reply broke the protocol). */
  sha256AtC0: z.string().nullable(),
  /** sha256 of contract_test.py at freeze (equal to sha256AtC0 by construction: checked, not assumed). */
  sha256AtFreeze: z.string().nullable(),
  /** Revisions that changed the suite (each rejected and restored). */
  violations: z.array(ContractViolationSchema),
  /** The last run of the candidate's own test_solution.py: recorded, never used as feedback. */
  ownSuite: PytestOutcomeSchema.nullable(),
});
export type ContractOutcome = z.infer<typeof ContractOutcomeSchema>;

/** One record per (task, sample, condition). */
/** One variant database's verdict on a frozen candidate (differential execution; activities/data/differential.ts). */
export const DifferentialDatabaseSchema = z.object({
  /** The variant's name (`nulls`, `dupdims`). */
  database: z.string(),
  /** The variant database's manifest hash. */
  manifestHash: z.string(),
  /** reference-failed / no-reference / not-run: nothing compared there (does not count). */
  verdict: z.enum(['agree', 'disagree', 'execution-failed', 'reference-failed', 'no-reference', 'not-run']),
  summary: z.string(),
});
export type DifferentialDatabase = z.infer<typeof DifferentialDatabaseSchema>;

/** The candidate on every variant database built at the study's scale. */
export const DifferentialOutcomeSchema = z.object({ databases: z.array(DifferentialDatabaseSchema) });
export type DifferentialOutcome = z.infer<typeof DifferentialOutcomeSchema>;

export const RunRecordSchema = z.looseObject({
  /** The record format's version (this file's history). */
  schemaVersion: z.literal(2),
  studyId: z.string().min(1),
  /** The study manifest's hash (study.json): which frozen inputs produced this record. */
  manifestHash: z.string(),
  /** The task id, e.g. "q4". */
  taskId: z.string().min(1),
  condition: z.enum(CONDITIONS),
  /** Set for the targeted replication (Table VII): the replicate label, e.g. "r1". */
  replicate: z.string().nullish().transform((v) => v ?? undefined),
  /**
   * The sample index (1-based) of the task run (`--samples K`). Absent in records written before
   * samples existed, meaning 1; the record file name and folder of sample 1 carry no suffix.
   */
  sample: z.number().int().min(1).optional(),
  /** The model spec that answered ("anthropic:<id>", "replay:<corpus>", …). */
  model: z.string(),
  /** True when the replies came from a replay corpus, not a live model. */
  replayed: z.boolean(),
  /** Protocol-level calls used, the shared initial generation included (Table I). */
  callsUsed: z.number().int(),
  /** The condition's budget (protocol/conditions.ts). */
  callBudget: z.number().int(),
  /** Why the condition stopped, in words. */
  stopReason: z.string(),
  stages: z.array(StageRefSchema),
  /** The frozen artifacts: file name → sha256 ("missing" when absent). */
  artifacts: z.record(z.string(), z.string()),
  /** The condition's last pytest run on the suite that decides its test outcome: its own
   *  test_solution.py, or for Contract-First the frozen contract_test.py (null: none ran). */
  pytest: PytestOutcomeSchema.nullable(),
  /** Contract-First only: its frozen contract suite, hashes and violations. */
  contract: ContractOutcomeSchema.optional(),
  smoke: SmokeOutcomeSchema.nullable(),
  /** The frozen candidate on the study database (null: not executed). */
  execution: ExecutionOutcomeSchema.nullable(),
  /** Reference agreement (null: not compared). */
  comparison: ComparisonOutcomeSchema.nullable(),
  /** The Spark mode the study asked for (warm Spark slots; absent before it, meaning cold); each
   *  outcome's `spark.mode` says how that run actually ran. */
  sparkMode: z.enum(['cold', 'warm']).optional(),
  /** The suite passed (§4 "Test outcome"). */
  testPassed: z.boolean(),
  /** Reference agreement (§4), the primary outcome. */
  referenceAgreement: z.boolean(),
  /** testPassed and not referenceAgreement (§4 "False pass"). */
  falsePass: z.boolean(),
  /** The candidate on each variant database (differential execution; absent: no variant database, or a study from before). */
  differential: DifferentialOutcomeSchema.optional(),
  /** Agrees on the study database and on every variant database compared (absent: not run). */
  referenceAgreementDifferential: z.boolean().optional(),
  deviations: z.array(PermissionDeviationSchema),
  /** Tokens of the condition's calls, the shared initial generation included. */
  usage: TokenUsageSchema,
  /** Cost in US dollars of those calls (0 for replayed replies). */
  costUsd: z.number(),
  /** The condition's folder (absolute, or relative to the study folder in fixtures). */
  conditionDir: z.string(),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

/** Where a record came from, for error messages: a file and, for records.jsonl, a line. */
export interface RecordSource {
  file: string;
  line?: number;
}

/**
 * Parses one run record. @returns the record (unknown keys kept).
 * @throws Error "<file> (line N: <field>): <message>" naming the first wrong field.
 */
export function parseRunRecord(value: unknown, source: RecordSource): RunRecord {
  const out = RunRecordSchema.safeParse(upgradeRecord(value));
  if (out.success) return out.data;
  const issue = out.error.issues[0];
  const where = [source.line !== undefined ? `line ${source.line}` : '', issue.path.join('.')].filter(Boolean).join(': ');
  throw new RecordError(`${source.file}${where ? ` (${where})` : ''}: ${issue.message}`, source.file, where);
}

/** A version-1 record in version 2's terms (`referenceMatched` renamed `referenceAgreement`); anything else as is. */
function upgradeRecord(value: unknown): unknown {
  if (!value || typeof value !== 'object' || (value as { schemaVersion?: unknown }).schemaVersion !== 1) return value;
  const { referenceMatched, ...rest } = value as Record<string, unknown>;
  return { ...rest, schemaVersion: 2, referenceAgreement: referenceMatched };
}

/** A run record that does not match RunRecordSchema. */
export class RecordError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'InputError';
  }
}
