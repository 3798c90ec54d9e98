/**
 * Test-suite validity and mutation score (issue "Gold solutions and replay corpora"). Pure.
 *
 * Rules:
 * - A suite is VALID when it passes on the gold solution (pytest exit 0). A suite that fails
 *   gold rejects a right answer: it is reported as invalid, and its kills are not counted in
 *   any score (it would "kill" every mutant for the wrong reason). By default it is not even run
 *   on the mutants (status not-run: detected and killed false).
 * - Only non-equivalent mutants count: a mutant whose output agrees with the reference is
 *   equivalent (it cannot be told from gold by its result) and is dropped and counted.
 * - A mutant is KILLED when the suite does not pass on it (a failing or erroring test, a
 *   collection error, a hang stopped by the time limit, a crash).
 * - Mutation score of a valid suite = killed / non-equivalent mutants; per condition, the
 *   pooled score = Σ killed / Σ mutants over its valid suites, next to the mean per-suite score.
 */
import type { VariantRun } from './suites';

/** A mutant as the equivalence check classified it. */
export interface ClassifiedMutant {
  id: string;
  operator: string;
  /** killable: its output differs from the reference (or it raised); equivalent: agrees. */
  verdict: 'killable' | 'equivalent' | 'error';
}

/** One frozen suite's row of mutation.json. */
export interface SuiteScore {
  task: string;
  condition: string;
  /** sha256 of the frozen test_solution.py. */
  suiteSha: string;
  validOnGold: boolean;
  /** pytest's exit code on gold (null: stopped or crashed). */
  goldExitCode: number | null;
  /** Why the suite fails gold: its first failing test and message (absent for a valid suite). */
  goldFailure?: string;
  /** Non-equivalent mutants the suite ran against. */
  total: number;
  /** Of those, how many the suite detected (0 when the suite is invalid: not counted). */
  killed: number;
  /** Mutants dropped as equivalent (agree with the reference). */
  equivalent: number;
  /** Mutants whose equivalence could not be decided (lockin failed to run them): left out. */
  undecided: number;
  /** killed / total for a valid suite with total > 0, else null. */
  score: number | null;
  /**
   * Per mutant: id, operator, detected (the suite did not pass on it, as observed), killed
   * (detected and counted: false for every mutant of a suite invalid on gold), the run's status.
   */
  mutants: { id: string; operator: string; detected: boolean; killed: boolean; status: VariantRun['status'] }[];
  /** Survivors per operator (valid suites only): which kinds of defect the suite misses. */
  survivorsByOperator: Record<string, number>;
  /**
   * Where its runs came from (absent in mutation.json files written before, and for a missing
   * suite): `here`, run for this study (its results are in the study's mutation/ folder);
   * `cache`, copied from an identical run made before it (the same suite, gold, mutants,
   * settings and Spark mode: another condition's identical suite in this study, or an earlier
   * study's; activities/mutation/study.ts suiteScoreOf); `same-suite`, one run shared with an
   * identical suite analysed at the same time (`lockin study mutation`, two tasks at once).
   */
  ran?: 'here' | 'cache' | 'same-suite';
}

/**
 * Scores one suite.
 * Inputs: task and condition ids, the suite's sha256, the mutants as classified by the
 * equivalence check (all of them, equivalent ones included) and the suite's runs (one per
 * variant: "gold" plus every killable mutant id).
 * Returns the SuiteScore. Throws Error when the gold run or a killable mutant's run is missing.
 */
export function scoreSuite(task: string, condition: string, suiteSha: string, mutants: ClassifiedMutant[], runs: VariantRun[]): SuiteScore {
  const byId = new Map(runs.map((r) => [r.variant, r]));
  const gold = byId.get('gold');
  if (!gold) throw new Error(`${task}/${condition}: no run of the suite on gold`);
  const killable = mutants.filter((m) => m.verdict === 'killable');
  const valid = gold.passed;
  const rows = killable.map((m) => {
    const r = byId.get(m.id);
    if (!r) throw new Error(`${task}/${condition}: no run of the suite on mutant ${m.id}`);
    const detected = r.status !== 'not-run' && !r.passed;
    return { id: m.id, operator: m.operator, detected, killed: valid && detected, status: r.status };
  });
  const killed = valid ? rows.filter((r) => r.killed).length : 0;
  const survivorsByOperator: Record<string, number> = {};
  if (valid) for (const r of rows) if (!r.killed) survivorsByOperator[r.operator] = (survivorsByOperator[r.operator] ?? 0) + 1;
  return {
    task,
    condition,
    suiteSha,
    validOnGold: valid,
    goldExitCode: gold.exitCode,
    ...(valid ? {} : { goldFailure: gold.failure ?? `pytest exit ${gold.exitCode ?? 'none'}` }),
    total: rows.length,
    killed,
    equivalent: mutants.filter((m) => m.verdict === 'equivalent').length,
    undecided: mutants.filter((m) => m.verdict === 'error').length,
    score: valid && rows.length > 0 ? killed / rows.length : null,
    mutants: rows,
    survivorsByOperator,
  };
}

/** One condition's line of the mutation table. */
export interface ConditionMutation {
  condition: string;
  suites: number;
  validSuites: number;
  invalidSuites: number;
  /** Σ killed and Σ non-equivalent mutants over valid suites. */
  killed: number;
  total: number;
  /** killed / total, or null when total = 0. */
  pooledScore: number | null;
  /** Mean of the valid suites' scores (suites with no mutant left out), or null. */
  meanScore: number | null;
}

/**
 * Aggregates suite scores per condition, in first-seen condition order.
 * Input: SuiteScore-like rows ({condition, validOnGold, killed, total}); validOnGold null
 * (unknown, e.g. an older mutation.json) counts as valid.
 * Returns one ConditionMutation per condition.
 */
export function aggregateByCondition(rows: { condition: string; validOnGold: boolean | null; killed: number; total: number }[]): ConditionMutation[] {
  const order: string[] = [];
  const groups = new Map<string, typeof rows>();
  for (const r of rows) {
    if (!groups.has(r.condition)) {
      groups.set(r.condition, []);
      order.push(r.condition);
    }
    groups.get(r.condition)!.push(r);
  }
  return order.map((condition) => {
    const g = groups.get(condition)!;
    const valid = g.filter((r) => r.validOnGold !== false);
    const killed = valid.reduce((a, r) => a + r.killed, 0);
    const total = valid.reduce((a, r) => a + r.total, 0);
    const scored = valid.filter((r) => r.total > 0).map((r) => r.killed / r.total);
    return {
      condition,
      suites: g.length,
      validSuites: valid.length,
      invalidSuites: g.length - valid.length,
      killed,
      total,
      pooledScore: total > 0 ? killed / total : null,
      meanScore: scored.length > 0 ? scored.reduce((a, b) => a + b, 0) / scored.length : null,
    };
  });
}
