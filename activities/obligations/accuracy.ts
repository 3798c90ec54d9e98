/**
 * The code labellers measured on known truth (docs/protocol.md §5).
 * On gold every obligation is satisfied; on the violation of obligation O, O is violated and
 * every other obligation is satisfied (a violation breaks one obligation, as far as can be told),
 * except those its violation.diff declares it cannot help breaking too ("# Also violates O7: why").
 * Each labeller labels the same variants, and its labels are tallied against that truth:
 *   - executable: the obligation's acceptance tests on the variant (all pass → satisfied);
 *   - schema-rule: the obligation's `rule` on the variant's output schema (schemaRules.ts);
 *   - heuristic: the keyword fallback (heuristic.ts) on the variant's solution text, with the
 *     variant's reference agreement, exactly as autoLabels would call it.
 * Pure: the runs and outputs are passed in.
 */
import type { FailureCategory } from '../../protocol/types';
import { heuristicCode, keyTerms } from './heuristic';
import type { CodeLabel } from '../../protocol/labels';
import { checkRule, type OutputField } from './schemaRules';
import type { ObligationForm } from '../tasks/executable';
import type { Obligation } from '../../protocol/corpus';
import type { VariantRun } from '../mutation/suites';

export const LABELLERS = ['executable', 'schema-rule', 'heuristic'] as const;
export type Labeller = (typeof LABELLERS)[number];
export type Truth = 'satisfied' | 'violated';

/** One solution whose truth is known: gold (violates null) or the violation of one obligation. */
export interface VariantEvidence {
  variant: string;
  violates: string | null;
  /** Obligations the violation declares it cannot help breaking too ("# Also violates O7: why"). */
  alsoViolates?: string[];
  /** The acceptance tests' run on it. */
  run: VariantRun;
  /** Its solution.py text. */
  solution: string;
  /** Its run on the database and comparison with the reference, when made. */
  output?: { status: string; agree?: boolean; categories?: FailureCategory[]; schema?: OutputField[] };
}

/** Counts and accuracy of one labeller. */
export interface LabellerAccuracy {
  labeller: Labeller;
  /** confusion[truth][predicted label] = count. */
  confusion: Record<Truth, Partial<Record<CodeLabel, number>>>;
  n: number;
  correct: number;
  byClass: Record<string, { n: number; correct: number }>;
  byKind: Record<string, { n: number; correct: number }>;
  /**
   * The wrong labels of the labellers a study's final labels use first (executable, schema-rule):
   * which task, program (gold or the violation's obligation id) and obligation, the truth and the
   * label given. Absent for the heuristic (its misses are many and expected) and in older files.
   */
  errors?: LabelError[];
}

/** One wrong label: on `program` (gold, or the violation of obligation `program`), obligation `obligation`. */
export interface LabelError {
  task: string;
  program: string;
  obligation: string;
  truth: Truth;
  label: CodeLabel;
}

/** The labellers whose wrong labels are listed (LabellerAccuracy.errors). */
const LISTED: ReadonlySet<Labeller> = new Set(['executable', 'schema-rule']);

function empty(labeller: Labeller): LabellerAccuracy {
  return { labeller, confusion: { satisfied: {}, violated: {} }, n: 0, correct: 0, byClass: {}, byKind: {} };
}

function tally(acc: LabellerAccuracy, ob: Obligation, truth: Truth, label: CodeLabel, where: { task: string; program: string }): void {
  acc.confusion[truth][label] = (acc.confusion[truth][label] ?? 0) + 1;
  const right = label === truth ? 1 : 0;
  if (!right && LISTED.has(acc.labeller)) (acc.errors = acc.errors ?? []).push({ ...where, obligation: ob.id, truth, label });
  acc.n++;
  acc.correct += right;
  for (const [table, key] of [[acc.byClass, ob.class], [acc.byKind, ob.kind]] as const) {
    table[key] = table[key] ?? { n: 0, correct: 0 };
    table[key].n++;
    table[key].correct += right;
  }
}

/**
 * The executable label of one obligation on one acceptance run: satisfied when every test of
 * the obligation passed, violated when one failed or errored, execution-failed when the run
 * recorded no test at all (the solution could not be imported, or the run crashed).
 */
export function executableLabel(run: VariantRun, testNames: string[]): CodeLabel {
  if (!run.tests || run.tests.length === 0) return 'execution-failed';
  const own = run.tests.filter((t) => testNames.includes(t.name));
  if (own.length < testNames.length) return 'execution-failed';
  return own.every((t) => t.outcome === 'passed') ? 'satisfied' : 'violated';
}

/**
 * Labels every obligation of every variant with each labeller and tallies against the truth.
 * Inputs: the task's obligations, their forms, the variants; the task id (named in the errors).
 * Returns one LabellerAccuracy per labeller (a labeller that applies to no obligation has n = 0),
 * with the executable and schema-rule labellers' wrong labels listed.
 */
export function measureLabellers(obligations: ReadonlyArray<Obligation>, forms: ReadonlyArray<ObligationForm>, variants: ReadonlyArray<VariantEvidence>, taskId = ''): LabellerAccuracy[] {
  const acc = Object.fromEntries(LABELLERS.map((l) => [l, empty(l)])) as Record<Labeller, LabellerAccuracy>;
  for (const v of variants) {
    const where = { task: taskId, program: v.violates ?? v.variant };
    for (const ob of obligations) {
      const truth: Truth = v.violates === ob.id || (v.alsoViolates ?? []).includes(ob.id) ? 'violated' : 'satisfied';
      const form = forms.find((f) => f.id === ob.id);
      if (form?.status === 'executable') tally(acc.executable, ob, truth, executableLabel(v.run, form.tests), where);
      if (ob.rule && v.output?.schema) tally(acc['schema-rule'], ob, truth, checkRule(ob.rule, v.output.schema).label, where);
      if (v.output) {
        const agree = v.output.agree ?? false;
        tally(acc.heuristic, ob, truth, v.output.status === 'ok' ? heuristicCode(ob, keyTerms(ob.statement), v.solution, agree, v.output.categories ?? []) : 'execution-failed', where);
      }
    }
  }
  return LABELLERS.map((l) => acc[l]);
}

/** Sums the accuracies of several tasks, labeller by labeller. */
export function mergeAccuracy(parts: ReadonlyArray<ReadonlyArray<LabellerAccuracy>>): LabellerAccuracy[] {
  const out = Object.fromEntries(LABELLERS.map((l) => [l, empty(l)])) as Record<Labeller, LabellerAccuracy>;
  for (const part of parts)
    for (const a of part) {
      const o = out[a.labeller];
      if (a.errors?.length) (o.errors = o.errors ?? []).push(...a.errors);
      o.n += a.n;
      o.correct += a.correct;
      for (const t of ['satisfied', 'violated'] as const)
        for (const [k, c] of Object.entries(a.confusion[t])) o.confusion[t][k as CodeLabel] = (o.confusion[t][k as CodeLabel] ?? 0) + (c ?? 0);
      for (const [dst, src] of [[o.byClass, a.byClass], [o.byKind, a.byKind]] as const)
        for (const [k, v] of Object.entries(src)) {
          dst[k] = dst[k] ?? { n: 0, correct: 0 };
          dst[k].n += v.n;
          dst[k].correct += v.correct;
        }
    }
  return LABELLERS.map((l) => out[l]);
}
