/**
 * Readers for the files other parts of lockin write into a study folder: controls.json
 * (evaluator controls, Table II), reproduce.json (SQL re-execution, Table V) and mutation.json
 * (mutation scores of frozen suites). Each parses with its writer's schema
 * (protocol/sideFiles.ts) and raises an InputError naming the file and the first wrong field.
 * Pure.
 */
import type { z } from 'zod';
import { InputError } from '../common/errors';
import { ControlsFileSchema, MutationFileSchema, ReproduceFileSchema } from '../../protocol/sideFiles';
import { FAILURE_CATEGORIES, type FailureCategory } from '../../protocol/records';
import { countsKills } from '../mutation/score';

/** One evaluator control: category, task id (the reference variant), expected and observed outcome. */
export interface ControlRow {
  category: string;
  taskId: string;
  expected: 'accept' | 'reject';
  outcome: string;
  asExpected: boolean;
  verified: boolean | null;
}

function parseWith<T extends z.ZodTypeAny>(schema: T, json: unknown, file: string): z.infer<T> {
  const out = schema.safeParse(json);
  if (out.success) return out.data;
  const issue = out.error.issues[0];
  throw new InputError(issue.message, file, issue.path.map(String).join('.') || undefined);
}

/** controls.json as activities/compare writes it (ControlsFileSchema): one row per control. */
export function parseControls(json: unknown, file = 'controls.json'): ControlRow[] {
  return parseWith(ControlsFileSchema, json, file).controls.map((c) => ({
    category: c.kind,
    taskId: c.taskId,
    expected: c.expected,
    outcome: c.observed,
    asExpected: c.observed === c.expected,
    verified: c.verified,
  }));
}

/** One reference's SQL re-execution verdict. */
export interface ReproduceRow {
  taskId: string;
  reproduced: boolean;
  detail: string;
  /** Rows of the re-executed output (null when not recorded: older files, or not compared). */
  rows: number | null;
}

/** reproduce.json as reexecuteReferences writes it (ReproduceFileSchema): one row per reference. */
export function parseReproduce(json: unknown, file = 'reproduce.json'): ReproduceRow[] {
  return parseWith(ReproduceFileSchema, json, file).results.map((r) => ({ taskId: r.id, reproduced: r.reproduced, detail: r.reason, rows: r.rows ?? null }));
}

/** One mutation-score row. */
export interface MutationRow {
  task: string;
  condition: string;
  killed: number;
  total: number;
  validOnGold: boolean | null;
  /** A suite that fails gold, measured through its valid tests (mutation/score.ts): valid of tests. */
  validTests?: { valid: number; tests: number };
  /** Mutants dropped as equivalent (agree with the reference). */
  equivalent: number | null;
  /** Surviving non-equivalent mutants per operator (valid suites). */
  survivorsByOperator: Record<string, number>;
  /** Per operator, killed and non-equivalent mutants of a counted suite (from its per-mutant rows); {} for a suite whose kills do not count. */
  byOperator: Record<string, { killed: number; total: number }>;
  /** The suite's per-mutant rows (the non-equivalent mutants it was run on); [] for a suite whose kills do not count. */
  mutants?: { id: string; operator: string; killed: boolean | null }[];
}

/** mutation.json as activities/mutation/study.ts writes it (MutationFileSchema): one row per suite. */
export function parseMutation(json: unknown, file = 'mutation.json'): MutationRow[] {
  return parseWith(MutationFileSchema, json, file).suites.map((r) => ({
    task: r.task,
    condition: r.condition,
    killed: r.killed,
    total: r.total,
    validOnGold: r.validOnGold,
    ...(r.validTests ? { validTests: r.validTests } : {}),
    equivalent: r.equivalent,
    survivorsByOperator: r.survivorsByOperator,
    byOperator: countsKills(r) ? operatorCounts(r.mutants) : {},
    mutants: countsKills(r) ? r.mutants.map((m) => ({ id: m.id, operator: m.operator, killed: m.killed })) : [],
  }));
}

/** Killed and total per operator over a suite's per-mutant rows. */
function operatorCounts(mutants: { operator: string; killed: boolean | null }[]): Record<string, { killed: number; total: number }> {
  const out: Record<string, { killed: number; total: number }> = {};
  for (const m of mutants) {
    const c = (out[m.operator] ??= { killed: 0, total: 0 });
    c.total += 1;
    if (m.killed === true) c.killed += 1;
  }
  return out;
}

/** One gold mutant of a task as mutation.json records it, with how its output differed from the reference. */
export interface MutantVerdict {
  id: string;
  operator: string;
  /** killable (differs from the reference), equivalent (agrees), or another recorded verdict. */
  verdict: string;
  /** The comparison's failure categories of its output against the reference ("disagree [a, b]" of its summary, written by compare.ts describe); [] when it agreed or none were recorded. */
  categories: FailureCategory[];
}

/**
 * The failure categories of a mutant's summary (`disagree [values, precision]…`, or after the
 * confirmation on the study's database `agrees at SF=0.01; SF=1: disagree [values]…`, confirm.ts);
 * unknown names are left out. Pure.
 */
export function summaryCategories(summary: unknown): FailureCategory[] {
  const m = typeof summary === 'string' ? /disagree \[([^\]]*)\]/.exec(summary) : null;
  if (!m) return [];
  const known = new Set<string>(FAILURE_CATEGORIES);
  return m[1].split(',').map((c) => c.trim()).filter((c): c is FailureCategory => known.has(c));
}

/**
 * The gold mutants' verdicts per task from mutation.json (`mutants[<taskId>].mutants`: id,
 * operator, verdict, and the failure categories of its summary). @throws InputError naming the
 * file when it does not match its schema
 */
export function parseMutationVerdicts(json: unknown, file = 'mutation.json'): Record<string, MutantVerdict[]> {
  const m = parseWith(MutationFileSchema, json, file).mutants;
  return Object.fromEntries(Object.entries(m).map(([taskId, v]) => [taskId, v.mutants.map((x) => ({ id: x.id, operator: x.operator, verdict: x.verdict, categories: summaryCategories(x.summary) }))]));
}
