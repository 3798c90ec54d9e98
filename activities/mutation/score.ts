/**
 * Test-suite validity and mutation score (issue "Gold solutions and replay corpora"). Pure.
 *
 * Rules:
 * - A suite is VALID when it passes on the gold solution (pytest exit 0). A suite that fails
 *   gold rejects a right answer: it is reported as invalid on gold, and the tests that fail gold
 *   count no kill (they would "kill" every mutant for the wrong reason).
 * - Per-test validity (docs/protocol.md §5, as for the test labels): a suite that fails gold is
 *   still measured through its VALID TESTS, those that pass gold, when the mutants were run with
 *   only those tests (`validTestsOnly`); a mutant is then killed when one of them fails on it. A
 *   suite none of whose tests passes gold (or that was not run on the mutants, status not-run)
 *   counts no kill and has no score.
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
  /** killed / total for a counted suite (valid, or measured through its valid tests) with total > 0, else null. */
  score: number | null;
  /**
   * A suite that fails gold, measured through its valid tests: how many of its tests pass gold
   * (valid) out of those gold ran (tests). Absent for a valid suite and for one not measured.
   */
  validTests?: { valid: number; tests: number };
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

/** True when a suite row's kills count: valid on gold, or measured through its valid tests (null validOnGold: an older file, counted). */
export function countsKills(r: { validOnGold: boolean | null; validTests?: { valid: number } }): boolean {
  return r.validOnGold !== false || (r.validTests?.valid ?? 0) > 0;
}

/**
 * Scores one suite.
 * Inputs: task and condition ids, the suite's sha256, the mutants as classified by the
 * equivalence check (all of them, equivalent ones included), the suite's runs (one per
 * variant: "gold", run in full, plus every killable mutant id) and, for a suite that fails
 * gold, `validTestsOnly`: the tests (names as gold's run recorded them) that pass gold, to which
 * the mutant runs were restricted (module header, per-test validity). Without it a suite that
 * fails gold counts no kill.
 * Returns the SuiteScore. Throws Error when the gold run or a killable mutant's run is missing.
 */
export function scoreSuite(task: string, condition: string, suiteSha: string, mutants: ClassifiedMutant[], runs: VariantRun[], validTestsOnly?: readonly string[]): SuiteScore {
  const byId = new Map(runs.map((r) => [r.variant, r]));
  const gold = byId.get('gold');
  if (!gold) throw new Error(`${task}/${condition}: no run of the suite on gold`);
  const killable = mutants.filter((m) => m.verdict === 'killable');
  const valid = gold.passed;
  const throughValidTests = !valid && (validTestsOnly?.length ?? 0) > 0;
  const counts = valid || throughValidTests;
  const rows = killable.map((m) => {
    const r = byId.get(m.id);
    if (!r) throw new Error(`${task}/${condition}: no run of the suite on mutant ${m.id}`);
    const detected = r.status !== 'not-run' && !r.passed;
    return { id: m.id, operator: m.operator, detected, killed: counts && detected, status: r.status };
  });
  const killed = counts ? rows.filter((r) => r.killed).length : 0;
  const survivorsByOperator: Record<string, number> = {};
  if (counts) for (const r of rows) if (!r.killed) survivorsByOperator[r.operator] = (survivorsByOperator[r.operator] ?? 0) + 1;
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
    score: counts && rows.length > 0 ? killed / rows.length : null,
    mutants: rows,
    survivorsByOperator,
    ...(throughValidTests ? { validTests: { valid: validTestsOnly!.length, tests: gold.tests?.length ?? validTestsOnly!.length } } : {}),
  };
}

/** One condition's line of the mutation table. */
export interface ConditionMutation {
  condition: string;
  suites: number;
  validSuites: number;
  /** Suites that fail gold (measured through their valid tests or not at all). */
  invalidSuites: number;
  /** Of the invalid suites, those measured through their valid tests (their kills count). */
  measuredThroughValidTests: number;
  /** Σ killed and Σ non-equivalent mutants over the counted suites (valid, or measured through their valid tests). */
  killed: number;
  total: number;
  /** killed / total, or null when total = 0. */
  pooledScore: number | null;
  /** Mean of the valid suites' scores (suites with no mutant left out), or null. */
  meanScore: number | null;
}

/**
 * Aggregates suite scores per condition, in first-seen condition order.
 * Input: SuiteScore-like rows ({condition, validOnGold, validTests?, killed, total}); validOnGold
 * null (unknown, e.g. an older mutation.json) counts as valid; a suite that fails gold counts
 * when measured through its valid tests (countsKills).
 * Returns one ConditionMutation per condition.
 */
export function aggregateByCondition(rows: { condition: string; validOnGold: boolean | null; validTests?: { valid: number; tests: number }; killed: number; total: number }[]): ConditionMutation[] {
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
    const counted = g.filter(countsKills);
    const killed = counted.reduce((a, r) => a + r.killed, 0);
    const total = counted.reduce((a, r) => a + r.total, 0);
    const scored = counted.filter((r) => r.total > 0).map((r) => r.killed / r.total);
    return {
      condition,
      suites: g.length,
      validSuites: valid.length,
      invalidSuites: g.length - valid.length,
      measuredThroughValidTests: counted.length - valid.length,
      killed,
      total,
      pooledScore: total > 0 ? killed / total : null,
      meanScore: scored.length > 0 ? scored.reduce((a, b) => a + b, 0) / scored.length : null,
    };
  });
}
