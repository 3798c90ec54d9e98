/**
 * Scores and analyses (docs/protocol.md §5; the paper, "Obligation scores and paired analysis",
 * "Within-task changes", sensitivity analyses, Table VI and the closing recommendation on
 * trajectories). Pure functions over plain values; every one is tested on hand-worked examples
 * in test/scoring/.
 *
 * Units: scores are fractions in [0, 1]; paired changes are percentage points (pp).
 */
import type { FailureCategory } from '../../protocol/types';
import { PLAN_WEIGHTS, CODE_WEIGHTS, TEST_WEIGHTS, type PlanLabel, type CodeLabel, type TestLabel } from '../../protocol/labels';

/** The three labels of one obligation in one run (final labels unless said otherwise). */
export interface LabelTriple {
  plan: PlanLabel;
  code: CodeLabel;
  test: TestLabel;
}

/** A run's plan, code and test scores: mean weight over its obligations, each in [0, 1]. */
export interface TaskScores {
  plan: number;
  code: number;
  test: number;
}

const EPS = 1e-9;

/** Arithmetic mean; NaN for an empty list. */
export function mean(xs: number[]): number {
  return xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/**
 * Task score = mean weight over the task's obligations (the paper's weights: plan
 * present 1, partial/ambiguous 0.5, absent/contradicted 0; code satisfied 1, else 0; test
 * covered 1, partially-covered 0.5, not-covered 0).
 * Input: one label triple per obligation. Output: {plan, code, test} in [0, 1].
 * @throws Error when there are no labels (a task has 8–12 obligations).
 */
export function taskScores(labels: LabelTriple[]): TaskScores {
  if (labels.length === 0) throw new Error('taskScores: no obligation labels');
  return {
    plan: mean(labels.map((l) => PLAN_WEIGHTS[l.plan])),
    code: mean(labels.map((l) => CODE_WEIGHTS[l.code])),
    test: mean(labels.map((l) => TEST_WEIGHTS[l.test])),
  };
}

/**
 * Self-confirming omission (SCO): plan absent or contradicted, AND code violated (an
 * execution failure is NOT an SCO), AND test not-covered. Recomputed from labels.
 */
export function isSCO(l: LabelTriple): boolean {
  return (l.plan === 'absent' || l.plan === 'contradicted') && l.code === 'violated' && l.test === 'not-covered';
}

/** Number of SCOs among one run's labels. */
export function countSCO(labels: LabelTriple[]): number {
  return labels.filter(isSCO).length;
}

/**
 * Condition mean over the assigned task list: every task counts, and a task without scores
 * (no run record, or no labels) contributes 0 (the paper keeps all 30 assigned tasks; failed
 * executions contribute zero code scores).
 * Input: task ids; scores keyed by task id. Output: mean {plan, code, test} in [0, 1].
 */
export function conditionMeans(tasks: string[], scores: Map<string, TaskScores>): TaskScores {
  const pick = (d: keyof TaskScores) => mean(tasks.map((t) => scores.get(t)?.[d] ?? 0));
  return { plan: pick('plan'), code: pick('code'), test: pick('test') };
}

/** Median of a list (mean of the two middle values for even n); NaN for an empty list. */
export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Quartiles as Tukey hinges: the medians of the lower and upper halves of the sorted list
 * (the paper, "quartiles as medians of the lower and upper halves"). For odd n the median
 * belongs to BOTH halves (Tukey's own definition, as in R's fivenum): [1,2,3,4,5] → hinges 2
 * and 4 (each half has (n+1)/2 values). For even n the halves are disjoint: [1,2,3,4] → 1.5, 3.5.
 * Output: {lower, median, upper, iqr = upper − lower}; all NaN for an empty list.
 */
export function tukeyHinges(xs: number[]): { lower: number; median: number; upper: number; iqr: number } {
  if (xs.length === 0) return { lower: NaN, median: NaN, upper: NaN, iqr: NaN };
  const s = [...xs].sort((a, b) => a - b);
  const half = Math.ceil(s.length / 2);
  const lower = median(s.slice(0, half));
  const upper = median(s.slice(s.length - half));
  return { lower, median: median(s), upper, iqr: upper - lower };
}

/** Paired within-task changes of one score dimension for one revision branch. */
export interface PairedSummary {
  n: number;
  improved: number;
  unchanged: number;
  decreased: number;
  /** All in percentage points. */
  meanChange: number;
  median: number;
  lowerHinge: number;
  upperHinge: number;
  iqr: number;
  changes: { task: string; change: number }[];
  /**
   * Assigned tasks left out because the branch's run or its one-pass partner has no run record
   * (a failed task): not paired, so counted in no column above (activities/scoring/analysis.ts).
   */
  missing?: string[];
}

/**
 * Paired within-task changes: change = branch score − inherited one-pass score, in percentage
 * points, for every task in `tasks` (a task without a score counts 0 on that side: pairing is
 * never broken). |change| < 1e-9 pp counts as unchanged.
 * Output: counts improved/unchanged/decreased, mean, median, Tukey hinges and IQR (pp).
 */
export function pairedChanges(tasks: string[], base: Map<string, number>, branch: Map<string, number>): PairedSummary {
  const changes = tasks.map((t) => {
    const c = ((branch.get(t) ?? 0) - (base.get(t) ?? 0)) * 100;
    return { task: t, change: Math.abs(c) < EPS ? 0 : c };
  });
  const xs = changes.map((c) => c.change);
  const h = tukeyHinges(xs);
  return {
    n: tasks.length,
    improved: xs.filter((x) => x > 0).length,
    unchanged: xs.filter((x) => x === 0).length,
    decreased: xs.filter((x) => x < 0).length,
    meanChange: mean(xs),
    median: h.median,
    lowerHinge: h.lower,
    upperHinge: h.upper,
    iqr: h.iqr,
    changes,
  };
}

/** The binary outcomes of one run that the false-pass figures need. */
export interface RunOutcome {
  testPassed: boolean;
  referenceAgreement: boolean;
}

/**
 * False-pass figures (docs/protocol.md §4): a false pass is a passing suite without reference
 * agreement. falsePassRate = falsePasses / all assigned runs; conditionalFalsePassProportion =
 * falsePasses / test-passing runs (null when no run passed its tests).
 * Input: one outcome per assigned run (a missing run counts as an assigned run that neither
 * passed nor matched).
 */
export function falsePassFigures(runs: RunOutcome[]): { runs: number; testPassed: number; referenceAgreement: number; falsePasses: number; falsePassRate: number; conditionalFalsePassProportion: number | null } {
  const testPassed = runs.filter((r) => r.testPassed).length;
  const falsePasses = runs.filter((r) => r.testPassed && !r.referenceAgreement).length;
  return {
    runs: runs.length,
    testPassed,
    referenceAgreement: runs.filter((r) => r.referenceAgreement).length,
    falsePasses,
    falsePassRate: runs.length === 0 ? NaN : falsePasses / runs.length,
    conditionalFalsePassProportion: testPassed === 0 ? null : falsePasses / testPassed,
  };
}

/**
 * Mechanisms (Table VI): over the violated obligations (code = violated; execution failures
 * excluded) of false-pass runs, count "no test covered it" (test not-covered) versus "a test
 * covered it and passed anyway" (test covered or partially-covered). An obligation whose run's
 * suite fails on gold (test invalid-on-gold, executable labels: its coverage is not measured, never counted
 * as coverage) is in neither and counted apart, so violated = noTestCovered + coveredPassedAnyway
 * + suiteInvalidOnGold.
 * Input: per false-pass run, its final labels. Output: counts of obligations.
 */
export function mechanisms(falsePassRuns: LabelTriple[][]): { violated: number; noTestCovered: number; coveredPassedAnyway: number; suiteInvalidOnGold: number } {
  const violated = falsePassRuns.flat().filter((l) => l.code === 'violated');
  const noTestCovered = violated.filter((l) => l.test === 'not-covered').length;
  const coveredPassedAnyway = violated.filter((l) => l.test === 'covered' || l.test === 'partially-covered').length;
  const suiteInvalidOnGold = violated.filter((l) => l.test === 'invalid-on-gold').length;
  return { violated: violated.length, noTestCovered, coveredPassedAnyway, suiteInvalidOnGold };
}

/**
 * Failure categories of one condition's runs: the primary category counts and the
 * (non-exclusive) any-category counts, over runs that failed reference agreement.
 */
export function failureCategories(comparisons: ({ agree: boolean; primaryCategory?: FailureCategory; categories: FailureCategory[] } | null)[]): { primary: Partial<Record<FailureCategory, number>>; any: Partial<Record<FailureCategory, number>>; notCompared: number } {
  const primary: Partial<Record<FailureCategory, number>> = {};
  const any: Partial<Record<FailureCategory, number>> = {};
  let notCompared = 0;
  for (const c of comparisons) {
    if (!c) {
      notCompared++;
      continue;
    }
    if (c.agree) continue;
    if (c.primaryCategory) primary[c.primaryCategory] = (primary[c.primaryCategory] ?? 0) + 1;
    for (const k of new Set(c.categories)) any[k] = (any[k] ?? 0) + 1;
  }
  return { primary, any, notCompared };
}

export const TRAJECTORIES = ['persistent-mistake', 'repair', 'new-defect', 'unchanged-correct'] as const;
export type Trajectory = (typeof TRAJECTORIES)[number];

/**
 * The trajectory of one obligation from the one-pass snapshot to a revision branch (the paper's
 * closing recommendation), on the code label: correct = satisfied.
 *   wrong → wrong: persistent-mistake; wrong → correct: repair;
 *   correct → wrong: new-defect; correct → correct: unchanged-correct.
 * `assertionsChanged` flags a change to what judges the obligation: its test label changed, or
 * the branch's test_solution.py differs from the snapshot's.
 */
export function trajectory(base: LabelTriple, branch: LabelTriple, testFileChanged: boolean): { trajectory: Trajectory; assertionsChanged: boolean } {
  const b = base.code === 'satisfied';
  const r = branch.code === 'satisfied';
  const t: Trajectory = b ? (r ? 'unchanged-correct' : 'new-defect') : r ? 'repair' : 'persistent-mistake';
  return { trajectory: t, assertionsChanged: testFileChanged || base.test !== branch.test };
}

/**
 * Tabulates trajectories: counts per trajectory, and how many of each had their assertions
 * changed. Input: [{trajectory, assertionsChanged}].
 */
export function tabulateTrajectories(items: { trajectory: Trajectory; assertionsChanged: boolean }[]): Record<Trajectory, { count: number; assertionsChanged: number }> {
  const out = Object.fromEntries(TRAJECTORIES.map((t) => [t, { count: 0, assertionsChanged: 0 }])) as Record<Trajectory, { count: number; assertionsChanged: number }>;
  for (const i of items) {
    out[i.trajectory].count++;
    if (i.assertionsChanged) out[i.trajectory].assertionsChanged++;
  }
  return out;
}

/**
 * A sensitivity restriction of the task list (the paper: exclude q11; restrict to tasks whose
 * reference reproduces under SQL re-execution; both). The same list is used for every
 * condition, so task pairing is preserved.
 * Input: the study's task list; tasks to exclude; the reproduced set (null = no restriction).
 * Output: the restricted task list, in the original order.
 */
export function restrictTasks(tasks: string[], opts: { exclude?: string[]; reproduced?: Set<string> | null }): string[] {
  const ex = new Set(opts.exclude ?? []);
  return tasks.filter((t) => !ex.has(t) && (!opts.reproduced || opts.reproduced.has(t)));
}
