/**
 * Tables I–VII of the paper as Markdown, from the analyses of activities/scoring/analysis.ts.
 * Pure string builders. Percentages are printed with two decimals; x/n counts keep the
 * assigned-task denominator. A per-condition table shows the conditions its keys hold, or the
 * `shown` list it is given (the study's conditions, LoadedStudy.conditions), in Table I order.
 */
import { BUDGETS, PAPER_CONDITIONS, REVISION_BRANCHES, reportedConditions, type ConditionId } from '../../protocol/conditions';
import type { ConditionSummary } from '../scoring/analysis';
import type { PairedSummary, TaskScores, Trajectory, mechanisms } from '../scoring/scores';
import { TRAJECTORIES } from '../scoring/scores';
import type { ControlRow, ReproduceRow, MutationRow, MutantVerdict } from './sideFiles';
import { aggregateByCondition, countsKills } from '../mutation/score';
import type { FailureCategory } from '../../protocol/types';
import type { DifferentialOutcome } from '../../protocol/records';
import { FAILURE_CATEGORIES } from '../../protocol/types';
import type { TaskDiscrimination } from '../mutation/discrimination';
import type { LabellerAccuracyFile, LabellerCalibrationFile } from '../../protocol/sideFiles';
import type { AgreementRow } from '../scoring/raters';
import { wilson } from '../common/intervals';

/** Renders a Markdown table ('|' in cells escaped). */
export function mdTable(headers: string[], rows: (string | number)[][]): string {
  const esc = (v: string | number) => String(v).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [`| ${headers.map(esc).join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

/** A fraction as a percentage with two decimals ("—" for null/NaN). */
export function pct(x: number | null | undefined): string {
  return x === null || x === undefined || Number.isNaN(x) ? '—' : `${(x * 100).toFixed(2)}%`;
}

/** Percentage points with two decimals. */
export function pp(x: number): string {
  return Number.isNaN(x) ? '—' : x.toFixed(2);
}

const NAME = (c: ConditionId) => BUDGETS[c].name;

/** Table I: conditions, grounding, feedback, revision permissions and call budgets; one row per condition of `present` (default the paper's three), in Table I order. */
export function tableI(present: Iterable<string> = PAPER_CONDITIONS): string {
  const perm = (c: ConditionId) => {
    const m = BUDGETS[c].mayRevise;
    const parts = [m.plan ? 'plan.md' : null, m.solution ? 'solution.py' : null, m.tests === 'yes' ? 'test_solution.py' : m.tests === 'fixtures-only' ? 'test_solution.py (syntax/import/fixture fixes only)' : null].filter(Boolean);
    return parts.length ? parts.join(', ') : 'nothing';
  };
  return mdTable(['Condition', 'Grounding', 'Feedback', 'May revise', 'Call budget'], reportedConditions(present).map((c) => [NAME(c), BUDGETS[c].grounding, BUDGETS[c].feedback, perm(c), `≤ ${BUDGETS[c].callBudget}`]));
}

/**
 * Table II: evaluator controls per category (expected outcome, queries, controls, as expected,
 * verified). A skipped control (no reference to compare with, e.g. q12 at SF=0.01) counts as not
 * as expected, and its cell names it ("32/33 (1 skipped: q12)"), as the terminal's controls line
 * does (new-user finding). Pure.
 */
export function tableII(controls: ControlRow[] | null): string {
  if (!controls) return '_Evaluator controls: not run (no controls.json in the study folder)._';
  const asExpected = (cs: ControlRow[]) => {
    const skipped = cs.filter((c) => c.outcome === 'skipped').map((c) => c.taskId);
    return `${cs.filter((c) => c.asExpected).length}/${cs.length}${skipped.length ? ` (${skipped.length} skipped: ${skipped.join(', ')})` : ''}`;
  };
  const cats = [...new Set(controls.map((c) => c.category))];
  const rows = cats.map((cat) => {
    const cs = controls.filter((c) => c.category === cat);
    const verified = cs.filter((c) => c.verified === true).length;
    return [cat, [...new Set(cs.map((c) => c.expected))].join('/'), new Set(cs.map((c) => c.taskId)).size, cs.length, asExpected(cs), cs.some((c) => c.verified !== null) ? verified : '—'];
  });
  const acc = controls.filter((c) => c.expected === 'accept');
  const rej = controls.filter((c) => c.expected === 'reject');
  rows.push(['**Total**', `${acc.length} accept / ${rej.length} reject`, new Set(controls.map((c) => c.taskId)).size, controls.length, asExpected(controls), controls.some((c) => c.verified !== null) ? controls.filter((c) => c.verified).length : '—']);
  return mdTable(['Control category', 'Expected', 'Queries', 'Controls', 'As expected', 'Verified perturbations'], rows);
}

/** A rate x/n as "p% [lower%, upper%]" with its Wilson 95 % interval (activities/common/intervals.ts), two decimals; "—" for n = 0. */
export function rateWithWilson(x: number, n: number): string {
  if (n === 0) return '—';
  const w = wilson(x, n);
  return `${pct(w.p)} [${pct(w.lower)}, ${pct(w.upper)}]`;
}

/**
 * Table III: primary outcomes and score means per condition. The false-pass rate is over all
 * assigned runs (a missing run counts as one without a false pass) with its Wilson 95 % interval.
 */
export function tableIII(summary: Record<ConditionId, ConditionSummary>): string {
  return mdTable(
    ['Condition', 'Tests passed', 'Executed', 'Reference agreement', 'False passes', 'False-pass rate (all assigned runs) [Wilson 95 %]', 'Conditional false-pass proportion (passing runs)', 'Model calls', 'Plan score', 'Code score', 'Test coverage', 'SCOs'],
    reportedConditions(Object.keys(summary)).map((c) => {
      const s = summary[c];
      return [NAME(c), `${s.testPassed}/${s.tasks}`, `${s.executed}/${s.tasks}`, `${s.referenceAgreement}/${s.tasks}`, `${s.falsePasses}/${s.tasks}`, rateWithWilson(s.falsePasses, s.tasks), s.conditionalFalsePassProportion === null ? '— (no passing run)' : `${pct(s.conditionalFalsePassProportion)} (${s.falsePasses}/${s.testPassed})`, s.modelCalls, pct(s.planScoreMean), pct(s.codeScoreMean), pct(s.testScoreMean), s.sco];
    }),
  );
}

/** A run as aliasOnlyNote reads it. */
export interface AliasRunLite {
  condition: ConditionId;
  record: { falsePass: boolean; comparison?: { primaryCategory?: FailureCategory; ladderLevel?: number | null } | null } | null;
}

/**
 * Findings #19: per condition with false passes, how many are alias-only (primary category
 * alias-mismatch and the normalization ladder agrees at level 1, i.e. after renaming the columns
 * positionally); a sentence for Table III's caption, or null when no false pass is alias-only.
 * Names stay compared, as in the paper (docs/protocol.md §4). Pure.
 */
export function aliasOnlyNote(runs: readonly AliasRunLite[], shown: readonly ConditionId[]): string | null {
  const parts: string[] = [];
  for (const c of shown) {
    const fp = runs.filter((r) => r.condition === c && r.record?.falsePass);
    const alias = fp.filter((r) => r.record!.comparison?.primaryCategory === 'alias-mismatch' && r.record!.comparison?.ladderLevel === 1).length;
    if (alias > 0) parts.push(`${NAME(c)}: ${alias} of ${fp.length} false pass${fp.length === 1 ? '' : 'es'} ${alias === 1 ? 'is' : 'are'} alias-only${alias === fp.length ? ' (all of them)' : ''}`);
  }
  if (!parts.length) return null;
  return `Alias-only false passes (the result differs from the reference only in column names: primary category alias-mismatch, and the normalization ladder agrees at level 1, after renaming): ${parts.join('; ')}. Column names are compared (lower-cased), as in the paper; a prompt that does not give a column's name makes such a false pass likely.`;
}

/** Failure categories per condition: primary category counts (and any-category counts in parentheses). */
export function tableFailureCategories(cats: Record<ConditionId, { primary: Partial<Record<FailureCategory, number>>; any: Partial<Record<FailureCategory, number>>; notCompared: number }>): string {
  return mdTable(
    ['Condition', ...FAILURE_CATEGORIES, 'not compared'],
    reportedConditions(Object.keys(cats)).map((c) => [NAME(c), ...FAILURE_CATEGORIES.map((k) => `${cats[c].primary[k] ?? 0} (${cats[c].any[k] ?? 0})`), cats[c].notCompared]),
  );
}

const DIMS: [keyof TaskScores, string][] = [['plan', 'Plan'], ['code', 'Code'], ['test', 'Test coverage']];

/**
 * "Paired tasks" cell: the paired count, and "N (M missing)" when M assigned tasks are left out
 * because the branch's run or its one-pass partner has no record (findings #15). Pure.
 */
export function pairedCount(s: PairedSummary): string {
  return s.missing?.length ? `${s.n} (${s.missing.length} missing: ${s.missing.join(' ')})` : String(s.n);
}

/**
 * Table IV: paired within-task changes (branch − one-pass, pp) per revision branch and dimension,
 * over the tasks where both runs have a record (pairedForBranch); the missing ones are named.
 */
export function tableIV(paired: Partial<Record<ConditionId, Record<keyof TaskScores, PairedSummary>>>): string {
  const rows: (string | number)[][] = [];
  for (const b of REVISION_BRANCHES) {
    const p = paired[b];
    if (!p) continue;
    for (const [d, label] of DIMS) {
      const s = p[d];
      rows.push([NAME(b), label, pairedCount(s), pp(s.meanChange), `${s.improved}/${s.n}`, `${s.unchanged}/${s.n}`, `${s.decreased}/${s.n}`, pp(s.median), pp(s.lowerHinge), pp(s.upperHinge), pp(s.iqr)]);
    }
  }
  if (rows.length === 0) return '_No revision branch paired with Frozen One-Pass in this study (it has no one-pass run or no revision branch)._';
  return mdTable(['Branch', 'Score', 'Paired tasks', 'Mean change (pp)', 'Improved', 'Unchanged', 'Decreased', 'Median (pp)', 'Lower hinge (pp)', 'Upper hinge (pp)', 'IQR (pp)'], rows);
}

/**
 * Table V (part A): SQL re-execution of the reference inventory (paper, "SQL re-execution").
 * A reference that is empty reproduces trivially (0 rows both times), so such rows read
 * "yes (empty reference)" and the head says how many of the reproduced are empty; the
 * counts themselves are the paper's (every reproduced reference counts).
 * Input: reproduce.json rows (rows = the re-executed output's row count, null when not recorded)
 * and the study's task ids. Output: markdown.
 */
export function tableVReproduce(rows: ReproduceRow[] | null, studyTasks: string[]): string {
  if (!rows) return '_SQL re-execution: not run (no reproduce.json in the study folder)._';
  const inStudy = rows.filter((r) => studyTasks.includes(r.taskId));
  const emptyReproduced = (rs: ReproduceRow[]) => rs.filter((r) => r.reproduced && r.rows === 0).map((r) => r.taskId);
  const empty = emptyReproduced(rows);
  const emptyInStudy = emptyReproduced(inStudy);
  const emptyNote = empty.length
    ? ` Of the reproduced, ${empty.length} ${empty.length === 1 ? 'is' : 'are'} empty (${empty.join(', ')}${emptyInStudy.length ? `; in the study: ${emptyInStudy.join(', ')}` : ''}): 0 rows both times, which shows little.`
    : '';
  const head = `Reproduced: ${rows.filter((r) => r.reproduced).length}/${rows.length} references; ${inStudy.filter((r) => r.reproduced).length}/${studyTasks.length} study tasks.${emptyNote}`;
  const cell = (r: ReproduceRow) => (r.reproduced ? (r.rows === 0 ? 'yes (empty reference)' : 'yes') : 'no');
  return `${head}\n\n${mdTable(['Query', 'In study', 'Reproduced', 'Detail'], rows.map((r) => [r.taskId, studyTasks.includes(r.taskId) ? 'yes' : 'no', cell(r), r.detail]))}`;
}

/** One sensitivity restriction's results. */
export interface SensitivityResult {
  label: string;
  /** The subset's rule in words (protocol/sensitivity.ts). */
  rule: string;
  tasks: string[];
  summary: Record<ConditionId, ConditionSummary>;
  paired: Partial<Record<ConditionId, Record<keyof TaskScores, PairedSummary>>>;
}

/** Table V (part B): outcomes and paired changes under each sensitivity restriction (pairing preserved). */
export function tableVSensitivity(results: SensitivityResult[]): string {
  const a = mdTable(
    ['Restriction', 'Condition', 'Tasks', 'Obligations', 'Tests passed', 'Reference agreement', 'False passes', 'Conditional false-pass proportion', 'Plan score', 'Code score', 'Test coverage'],
    results.flatMap((r) =>
      reportedConditions(Object.keys(r.summary)).map((c) => {
        const s = r.summary[c];
        return [r.label, NAME(c), s.tasks, s.obligations, `${s.testPassed}/${s.tasks}`, `${s.referenceAgreement}/${s.tasks}`, `${s.falsePasses}/${s.tasks}`, pct(s.conditionalFalsePassProportion), pct(s.planScoreMean), pct(s.codeScoreMean), pct(s.testScoreMean)];
      }),
    ),
  );
  const rows: (string | number)[][] = [];
  for (const r of results)
    for (const b of REVISION_BRANCHES)
      for (const [d, label] of DIMS) {
        const s = r.paired[b]?.[d];
        if (s) rows.push([r.label, NAME(b), label, pairedCount(s), pp(s.meanChange), `${s.improved}/${s.n}`, `${s.unchanged}/${s.n}`, `${s.decreased}/${s.n}`, pp(s.median), pp(s.iqr)]);
      }
  const b = mdTable(['Restriction', 'Branch', 'Score', 'Paired tasks', 'Mean change (pp)', 'Improved', 'Unchanged', 'Decreased', 'Median (pp)', 'IQR (pp)'], rows);
  return `${a}\n\n${b}`;
}

/**
 * Table VI: mechanisms of violated obligations in false passes (scores.ts mechanisms): the
 * paper's two totals, "no test covered it" and "a test covered it and passed anyway", the second
 * split into an inadequate check (a test passing gold checks it) and assertions repeating
 * incorrect logic (a test fails gold and passes a program violating it). The last column, shown
 * only when a condition has such obligations, counts those labelled before per-test validity as
 * invalid-on-gold (a whole suite failing gold was not measured).
 */
export function tableVI(mech: Record<ConditionId, ReturnType<typeof mechanisms> & { falsePassRuns: number }>): string {
  const conds = reportedConditions(Object.keys(mech));
  const legacy = conds.some((c) => mech[c].suiteInvalidOnGold > 0);
  return mdTable(
    ['Condition', 'False-pass runs', 'Violated obligations', 'No test covered it', 'A test covered it and passed anyway', '… a test passing gold checked it (inadequate check)', '… a test asserted its wrong value (repeats incorrect logic)', ...(legacy ? ['Suite fails on gold (coverage not measured)'] : [])],
    conds.map((c) => {
      const m = mech[c];
      return [NAME(c), m.falsePassRuns, m.violated, `${m.noTestCovered}/${m.violated}`, `${m.coveredPassedAnyway}/${m.violated}`, `${m.inadequateCheck}/${m.violated}`, `${m.repeatsIncorrectLogic}/${m.violated}`, ...(legacy ? [`${m.suiteInvalidOnGold}/${m.violated}`] : [])];
    }),
  );
}

/** One replicate cell: "passed/total P|F|E" plus "✓" when the reference matched. */
export interface ReplicateCell {
  passed: number | null;
  total: number | null;
  pfe: string;
  matched: boolean;
}

/** Table VII: targeted replication: passed/total tests and P/F/E per run. */
export function tableVII(cells: Map<string, Partial<Record<ConditionId, ReplicateCell>>>): string {
  if (cells.size === 0) return '_Targeted replication: not run (no records with `replicate` set)._';
  const fmt = (c?: ReplicateCell) => (c ? `${c.passed ?? '—'}/${c.total ?? '—'} ${c.pfe}${c.matched ? ' (reference agreement)' : ''}` : '—');
  const shown = reportedConditions([...cells.values()].flatMap((v) => Object.keys(v)));
  return mdTable(['Query (replicate)', ...shown.map(NAME)], [...cells.entries()].map(([k, v]) => [k, ...shown.map((c) => fmt(v[c]))]));
}

/**
 * Trajectories per revision branch: counts per trajectory (in parentheses, how many had their
 * judging assertions changed). Contract-First gets "—" in parentheses: it is judged by its contract
 * suite (contract_test.py, written at C-0 and frozen, docs/protocol.md §2), a different suite from
 * the snapshot's test_solution.py, so every test label would count as "changed" (new-user finding 20). Pure.
 */
export function tableTrajectories(tab: Partial<Record<ConditionId, Record<Trajectory, { count: number; assertionsChanged: number }>>>): string {
  const rows: (string | number)[][] = [];
  for (const b of REVISION_BRANCHES) {
    const t = tab[b];
    if (t) rows.push([NAME(b), ...TRAJECTORIES.map((k) => `${t[k].count} (${b === 'contract-first' ? '—' : t[k].assertionsChanged})`)]);
  }
  return mdTable(['Branch', 'Persistent mistake', 'Repair', 'New defect', 'Unchanged-correct'], rows);
}

/**
 * Mutation scores per condition (activities/mutation/score.ts aggregateByCondition: a suite that
 * fails gold counts through its valid tests, or not at all), or "not run". Columns: suites, suites
 * invalid on gold (of them measured through their valid tests), killed/non-equivalent mutants over
 * the counted suites, pooled score, mean per-suite score.
 */
export function tableMutation(rows: MutationRow[] | null, shown?: readonly ConditionId[]): string {
  if (!rows) return '_Mutation scores: not run (no mutation.json in the study folder)._';
  const agg = new Map(aggregateByCondition(rows).map((a) => [a.condition, a]));
  return mdTable(
    ['Condition', 'Suites', 'Suites invalid on gold (measured through their valid tests)', 'Mutants killed (counted suites)', 'Mutation score (pooled)', 'Mean per-suite score'],
    (shown ?? reportedConditions(agg.keys())).map((c) => {
      const a = agg.get(c);
      if (!a) return [NAME(c), 0, '0 (0)', '0/0', '—', '—'];
      return [NAME(c), a.suites, `${a.invalidSuites} (${a.measuredThroughValidTests})`, `${a.killed}/${a.total}`, a.pooledScore === null ? '—' : pct(a.pooledScore), a.meanScore === null ? '—' : pct(a.meanScore)];
    }),
  );
}

/** One run's automated test labels as tableViolationKills reads them. */
export interface ViolationKillRun {
  condition: ConditionId;
  /** The automated label of each obligation: its test label and the labeller that gave it. */
  labels: { test: string; source: { test: string } }[];
}

/**
 * Kills of the obligation violations by the frozen suites, per condition (the violations used as mutants,
 * docs/protocol.md §5 "Executable labels"): the executable test labels say, for each obligation
 * with a violation (tasks/<taskId>/obligations/<Oid>/violation.diff), whether the run's scored
 * suite (test_solution.py; contract_test.py for Contract-First) fails on that violation
 * (covered = killed) or passes (not-covered = survived); a suite that fails gold labels every
 * obligation invalid-on-gold and counts in no kill. Columns: suites with executable test labels,
 * of them invalid on gold, violations run on valid suites, killed, and the kill rate with its
 * 95 % Wilson interval (violations of one suite are not independent: read the interval as a
 * lower bound on the uncertainty). Input: primary runs (missing runs contribute nothing). Pure.
 */
export function tableViolationKills(runs: ViolationKillRun[], shown?: readonly ConditionId[]): string {
  const by = new Map<ConditionId, { suites: number; invalid: number; run: number; killed: number }>();
  for (const r of runs) {
    const exec = r.labels.filter((l) => l.source.test === 'executable');
    if (!exec.length) continue;
    const a = by.get(r.condition) ?? { suites: 0, invalid: 0, run: 0, killed: 0 };
    a.suites += 1;
    if (exec.some((l) => l.test === 'invalid-on-gold')) a.invalid += 1;
    else {
      a.run += exec.length;
      a.killed += exec.filter((l) => l.test === 'covered').length;
    }
    by.set(r.condition, a);
  }
  return mdTable(
    ['Condition', 'Suites with executable test labels', 'Suites invalid on gold', 'Violations killed (valid suites)', 'Kill rate [95% Wilson]'],
    (shown ?? reportedConditions(by.keys())).map((c) => {
      const a = by.get(c) ?? { suites: 0, invalid: 0, run: 0, killed: 0 };
      return [NAME(c), a.suites, a.invalid, `${a.killed}/${a.run}`, rateWithWilson(a.killed, a.run)];
    }),
  );
}

/**
 * Per task: each condition's suite as "killed/total" (or "invalid" when it fails gold) and the
 * mutants dropped as equivalent. Rows in the given task order.
 */
export function tableMutationPerSuite(rows: MutationRow[], tasks: string[], conditions?: readonly ConditionId[]): string {
  const shown = conditions ?? reportedConditions(rows.map((r) => r.condition));
  const cell = (r: MutationRow | undefined) => (!r ? '—' : !countsKills(r) ? 'invalid on gold' : r.validTests ? `${r.killed}/${r.total} (${r.validTests.valid} of ${r.validTests.tests} tests valid)` : `${r.killed}/${r.total}`);
  const body = tasks
    .filter((t) => rows.some((r) => r.task === t))
    .map((t) => {
      const rs = rows.filter((r) => r.task === t);
      const eq = rs.find((r) => r.equivalent !== null)?.equivalent;
      return [t, ...shown.map((c) => cell(rs.find((r) => r.condition === c))), eq ?? '—'];
    });
  return mdTable(['Task', ...shown.map(NAME), 'Equivalent mutants dropped'], body);
}

/** One false-pass run as tableFalsePassMutants reads it. */
export interface FalsePassRun {
  taskId: string;
  condition: ConditionId;
  /** The comparison's categories against the reference, and its primary one (records.ts ComparisonOutcome). */
  categories: FailureCategory[];
  primaryCategory?: FailureCategory;
  /** Obligations labelled code violated whose test label is not covered: the run's own suite does not check them. */
  uncovered: string[];
}

/**
 * Why the mutation analysis did not foresee a false pass (beyond the paper): per false-pass run,
 * its suite's mutation score and the task's gold mutants whose output differs from the reference
 * the same way as the candidate's (the mutant's comparison categories include the run's primary
 * category, or its first one when none is primary): how many there are and how many the run's suite killed.
 * None: the mutation score is blind to this fault; all killed: the suite catches gold's faults of
 * this kind but not the candidate's (another column, constant or join than the mutant's);
 * some survive: the suite misses the kind. Inputs: the false-pass runs, mutation.json's suite
 * rows (MutationRow) and per-task mutant verdicts (parseMutationVerdicts). Output: a markdown
 * table, or a sentence when there is no false pass. Pure.
 */
export function tableFalsePassMutants(runs: FalsePassRun[], suites: MutationRow[], verdicts: Record<string, MutantVerdict[]>): string {
  if (runs.length === 0) return '_No false pass: nothing for the mutants to have missed._';
  const body = runs.map((r) => {
    const kind = r.primaryCategory ?? r.categories[0];
    const differs = kind ? `${kind}${r.categories.length > 1 ? ` (also ${r.categories.filter((c) => c !== kind).join(', ')})` : ''}` : '—';
    const suite = suites.find((s) => s.task === r.taskId && s.condition === r.condition);
    const sameWay = (verdicts[r.taskId] ?? []).filter((m) => m.verdict === 'killable' && (kind ? m.categories.includes(kind) : false));
    const killedIds = new Set((suite?.mutants ?? []).filter((m) => m.killed === true).map((m) => m.id));
    const killed = sameWay.filter((m) => killedIds.has(m.id));
    const score = !suite ? '—' : !countsKills(suite) ? 'invalid on gold' : `${suite.killed}/${suite.total}${suite.validTests ? ` (${suite.validTests.valid} of ${suite.validTests.tests} tests valid)` : ''}`;
    const mutants = !suite || !countsKills(suite) ? '—' : sameWay.length === 0 ? 'none' : killed.length === sameWay.length ? `${killed.length}/${sameWay.length} killed (${sameWay.map((m) => m.id).join(', ')})` : `${killed.length}/${sameWay.length} killed; survived: ${sameWay.filter((m) => !killedIds.has(m.id)).map((m) => m.id).join(', ')}`;
    let why: string;
    if (!suite) why = 'no mutation result for this suite';
    else if (!countsKills(suite)) why = 'no test of its suite passes gold, so it counts no kill';
    else if (!kind) why = 'the comparison recorded no failure category';
    else if (sameWay.length === 0) why = `no mutant of gold differs from the reference by ${kind}: the mutation score cannot see this kind of fault`;
    else if (killed.length === sameWay.length) why = `its suite kills gold's ${kind} mutants but passed this candidate: the candidate's ${kind} fault is another one than the mutants'`;
    else why = `${sameWay.length - killed.length} of ${sameWay.length} ${kind} mutants survived its suite too: the suite does not check this kind of fault`;
    const uncovered = r.uncovered.length ? `; violated obligations its suite does not cover: ${r.uncovered.join(', ')}` : '';
    return [r.taskId, NAME(r.condition), differs, score, mutants, `${why}${uncovered}`];
  });
  return mdTable(['Task', 'Condition', 'Differs from the reference by', 'Suite mutation score', 'Gold mutants that differ the same way', 'Why the mutants did not foresee it'], body);
}

/**
 * Kills per operator and condition (valid suites): "killed/non-equivalent" mutants of that
 * operator summed over the condition's valid suites, so the join operators (semi-join, anti-join:
 * where lock-in happens) can be read against the others. Falls back to the survivor counts when
 * mutation.json has no per-mutant rows. Pure.
 */
export function tableSurvivors(rows: MutationRow[], conditions?: readonly ConditionId[], verdicts?: Record<string, MutantVerdict[]>): string {
  const withRows = rows.some((r) => Object.keys(r.byOperator).length > 0);
  if (withRows) {
    // With the tasks' mutant verdicts: a last column of the gold mutants dropped as equivalent per
    // operator (over all tasks), so an operator whose every mutant was equivalent is listed too.
    const equivalent = new Map<string, number>();
    for (const m of Object.values(verdicts ?? {}).flat()) if (m.verdict === 'equivalent') equivalent.set(m.operator, (equivalent.get(m.operator) ?? 0) + 1);
    const ops = [...new Set([...rows.flatMap((r) => Object.keys(r.byOperator)), ...equivalent.keys()])].sort();
    const cell = (c: ConditionId, op: string) => {
      const rs = rows.filter((r) => r.condition === c);
      const killed = rs.reduce((a, r) => a + (r.byOperator[op]?.killed ?? 0), 0);
      const total = rs.reduce((a, r) => a + (r.byOperator[op]?.total ?? 0), 0);
      return total ? `${killed}/${total}` : '—';
    };
    const conds = conditions ?? reportedConditions(rows.map((r) => r.condition));
    const head = ['Operator', ...conds.map((c) => `${NAME(c)} (killed/non-equivalent)`), ...(verdicts ? ['Gold mutants dropped as equivalent (all tasks)'] : [])];
    return mdTable(head, ops.map((op) => [op, ...conds.map((c) => cell(c, op)), ...(verdicts ? [equivalent.get(op) ?? 0] : [])]));
  }
  const ops = [...new Set(rows.flatMap((r) => Object.keys(r.survivorsByOperator)))].sort();
  if (ops.length === 0) return '_No surviving mutants recorded._';
  const shown = conditions ?? reportedConditions(rows.map((r) => r.condition));
  return mdTable(['Operator', ...shown.map(NAME)], ops.map((op) => [op, ...shown.map((c) => rows.filter((r) => r.condition === c).reduce((a, r) => a + (r.survivorsByOperator[op] ?? 0), 0))]));
}

/** One run's robustness results and usage (from its record). */
export interface RunExtras {
  taskId: string;
  condition: ConditionId;
  agree: boolean | null;
  ladderLevel: number | null | undefined;
  toleranceAgreement: number | null | undefined;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  costUsd: number;
}

/**
 * Robustness per condition: the normalization ladder's first agreeing level (0 exact,
 * 1 positional alias normalization, 2 numeric cast to float64, 3 row sorting; "none" when no
 * level agrees; "—" when not computed) and key-aligned tolerance agreement.
 */
export function tableRobustness(runs: RunExtras[], shown?: readonly ConditionId[]): string {
  return mdTable(
    ['Condition', 'Ladder level 0', 'Level 1', 'Level 2', 'Level 3', 'No level agrees', 'Ladder not computed', 'Tolerance comparison agrees (tightest tolerance: count)'],
    (shown ?? reportedConditions(runs.map((r) => r.condition))).map((c) => {
      const rs = runs.filter((r) => r.condition === c);
      const lv = (n: number) => rs.filter((r) => r.ladderLevel === n).length;
      const tol = new Map<number, number>();
      for (const r of rs) if (typeof r.toleranceAgreement === 'number') tol.set(r.toleranceAgreement, (tol.get(r.toleranceAgreement) ?? 0) + 1);
      const tolText = [...tol.entries()].sort((a, b) => a[0] - b[0]).map(([t, n]) => `${t}: ${n}`).join(', ') || '—';
      return [NAME(c), lv(0), lv(1), lv(2), lv(3), rs.filter((r) => r.ladderLevel === null).length, rs.filter((r) => r.ladderLevel === undefined).length, tolText];
    }),
  );
}

/**
 * Discrimination per task (activities/mutation/discrimination.ts): reference rows, whether an
 * empty output with the right schema disagrees, how many gold mutants disagree / agree /
 * are undecided, and the verdict; a task that does not discriminate is flagged in bold with
 * the reason. Pure.
 */
export function tableDiscrimination(rows: TaskDiscrimination[]): string {
  if (rows.length === 0) return '_No task._';
  const yesNo = (b: boolean | null) => (b === null ? '—' : b ? 'yes' : '**no**');
  // One column per variant database (differential execution), when any row records one: rows, then the empty check.
  const variants = [...new Set(rows.flatMap((r) => Object.keys(r.databases ?? {})))];
  const variantCell = (r: TaskDiscrimination, v: string) => {
    const d = r.databases?.[v];
    if (!d) return '—';
    if (d.failed) return 'SQL fails';
    return d.referenceRows === null ? '—' : `${d.referenceRows} rows, ${yesNo(d.emptyDisagrees)}`;
  };
  return mdTable(
    ['Task', 'Reference rows', 'Empty result disagrees', ...variants.map((v) => `Variant ${v}: rows, empty disagrees`), 'Gold mutants disagreeing', 'Agreeing (equivalent)', 'Undecided', 'Discriminates', 'Flag'],
    rows.map((r) => [
      r.task, r.referenceRows ?? '—', yesNo(r.emptyDisagrees), ...variants.map((v) => variantCell(r, v)), r.mutants ? r.mutants.disagree : '—', r.mutants ? r.mutants.agree.length : '—', r.mutants ? r.mutants.undecided : '—',
      // Before the mutation analysis (no mutant verdicts), "yes" rests on the empty-result check alone.
      r.discriminates === true && !r.mutants ? 'yes (empty-result check only; mutants not run)' : yesNo(r.discriminates), r.flags.length ? `**${r.flags.join('; ')}**` : '',
    ]),
  );
}

/** A tolerance as the ladder writes it: 1e-8, 0.0001 → 1e-4. */
function tolText(t: number): string {
  return t.toExponential().replace(/\.?0*e/, 'e').replace('e+', 'e');
}

/**
 * Robustness (a) per task (docs/protocol.md §4; paper: "Robustness analyses"): for each task
 * with recorded keys (tasks/<taskId>/evaluation.yaml) or a recorded key-aligned result, per
 * condition the primary verdict and the tightest tolerance of the key-aligned ladder that
 * agrees. "disagree → 1e-6": the exact comparison fails and the keyed one agrees from 1e-6 on;
 * "agree (1e-8)": both agree; "no tolerance": the keyed comparison fails at every tolerance;
 * "not computed": the run's record has no key-aligned result (e.g. keys recorded after it ran);
 * "—": no run record. Pure.
 * @param runs the study's runs (task, condition, primary agreement, tightest agreeing tolerance)
 * @param keys per task, its key columns ([] = one group)
 * @param tasks the study's task order
 */
export function tableKeyedRobustness(runs: RunExtras[], keys: Record<string, string[]>, tasks: string[], shownConditions?: readonly ConditionId[]): string {
  const shown = tasks.filter((t) => keys[t] !== undefined || runs.some((r) => r.taskId === t && r.toleranceAgreement !== undefined));
  if (shown.length === 0) return '_No task of this study has recorded keys (tasks/<taskId>/evaluation.yaml)._';
  const cell = (r: RunExtras | undefined): string => {
    if (!r) return '—';
    if (r.toleranceAgreement === undefined) return 'not computed';
    const exact = r.agree === true ? 'agree' : 'disagree';
    if (r.toleranceAgreement === null) return `${exact}; no tolerance`;
    return r.agree === true ? `agree (${tolText(r.toleranceAgreement)})` : `disagree → ${tolText(r.toleranceAgreement)}`;
  };
  const keyText = (t: string) => (keys[t] === undefined ? '(not recorded now)' : keys[t].length ? keys[t].join(', ') : '(none: one group)');
  const conds = shownConditions ?? reportedConditions(runs.map((r) => r.condition));
  return mdTable(['Task', 'Keys', ...conds.map(NAME)], shown.map((t) => [t, keyText(t), ...conds.map((c) => cell(runs.find((r) => r.taskId === t && r.condition === c)))]));
}

/** Model usage per condition: calls are in Table III; tokens and cost summed over the condition's runs. */
export function tableUsage(runs: RunExtras[], shown?: readonly ConditionId[]): string {
  return mdTable(
    ['Condition', 'Input tokens', 'Output tokens', 'Cache-read tokens', 'Cost (USD)'],
    (shown ?? reportedConditions(runs.map((r) => r.condition))).map((c) => {
      const rs = runs.filter((r) => r.condition === c);
      const sum = (f: (r: RunExtras) => number) => rs.reduce((a, r) => a + f(r), 0);
      return [NAME(c), sum((r) => r.inputTokens), sum((r) => r.outputTokens), sum((r) => r.cacheReadTokens), sum((r) => r.costUsd).toFixed(4)];
    }),
  );
}

/**
 * The labellers measured on known truth (docs/protocol.md §5; activities/obligations/studyAccuracy.ts):
 * one row per code labeller with its accuracy and its confusion matrix (truth satisfied / violated
 * against the label given), then the coverage of executable forms over the study's tasks.
 * Input: runs/<id>/labeller-accuracy.json parsed (null: not measured). Pure.
 */
export function tableLabellerAccuracy(file: LabellerAccuracyFile | null): string {
  if (!file) return '_Not measured for this study (labeller-accuracy.json is written by the mutation analysis, step 5)._';
  const pct = (c: number, n: number) => (n ? `${((100 * c) / n).toFixed(1)}%` : '—');
  const cell = (m: Record<string, number>) =>
    Object.entries(m)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || '—';
  const labellers = mdTable(
    ['Labeller', 'Labels', 'Right', 'Accuracy [Wilson 95 %]', 'Truth satisfied → labelled', 'Truth violated → labelled'],
    file.labellers.map((l) => [l.labeller, l.n, l.correct, withInterval(l.correct, l.n), cell(l.confusion.satisfied), cell(l.confusion.violated)]),
  );
  const checked = file.tasks.filter((t) => t.checked);
  const obligations = checked.reduce((s, t) => s + (t.obligations ?? 0), 0);
  const executable = checked.reduce((s, t) => s + t.executable, 0);
  const notExecutable = checked.reduce((s, t) => s + t.notExecutable, 0);
  const failed = checked.filter((t) => t.ok === false).map((t) => t.taskId);
  const without = file.tasks.filter((t) => !t.checked).map((t) => t.taskId);
  const lines = [
    labellers,
    '',
    `Known truth from ${checked.length} of ${file.tasks.length} tasks (SF=${file.scale}): ${executable} of ${obligations} obligations have a violation and acceptance tests, ${notExecutable} marked not executable (with a reason).` +
      (without.length ? ` Tasks without executable forms yet (their code and test labels come from the schema rules, the judge or the heuristic): ${without.join(', ')}.` : '') +
      (failed.length ? ` **\`lockin obligations check\` fails for ${failed.join(', ')}**.` : ''),
  ];
  return lines.join('\n');
}

/** "97.0% [93.1%, 98.7%]": a proportion with its Wilson 95 % interval ("—" for n = 0). */
function withInterval(x: number, n: number): string {
  if (n === 0) return '—';
  const w = wilson(x, n);
  const f = (v: number) => `${(100 * v).toFixed(1)}%`;
  return `${f(x / n)} [${f(w.lower)}, ${f(w.upper)}]`;
}

/**
 * The labellers measured on the realistic faults (runs/<id>/labeller-calibration.json,
 * activities/obligations/calibration.ts): per labeller the labels compared with the hand labels,
 * the agreement with its Wilson 95 % interval, the confusion matrix (hand label → labeller's), and
 * every disagreement named. Pure.
 */
export function tableLabellerCalibration(file: LabellerCalibrationFile | null): string {
  if (!file) return '_Not measured for this study (labeller-calibration.json is written by the mutation analysis, step 5, for tasks with faults under tasks/<id>/faults/)._';
  const names: Record<string, string> = { code: 'code (executable)', test: 'test (executable, per-test validity)', mechanism: 'Table VI mechanism (from the test label)', 'plan-heuristic': 'plan (keyword heuristic)' };
  const table = mdTable(
    ['Labeller', 'Labels compared', 'Agree', 'Agreement [Wilson 95 %]', 'Hand label → labelled'],
    file.labellers.map((l) => [names[l.labeller] ?? l.labeller, l.n, l.agree, withInterval(l.agree, l.n), Object.entries(l.confusion).sort(([a], [b]) => a.localeCompare(b)).map(([t, row]) => `${t} → ${Object.entries(row).map(([k, v]) => `${k} ${v}`).join(', ')}`).join('; ') || '—']),
  );
  const programs = file.tasks.flatMap((t) => t.faults.map((f) => `${t.taskId}/${f}`));
  const wrong = file.labellers.filter((l) => l.labeller !== 'plan-heuristic').flatMap((l) => l.errors.map((e) => `- ${l.labeller}: ${e.task}/${e.fault} ${e.obligation}: hand ${e.truth}, labelled ${e.label}${e.evidence ? ` (${e.evidence.slice(0, 200)})` : ''}`));
  const problems = file.tasks.flatMap((t) => t.problems.map((p) => `- **${t.taskId}: ${p}**`));
  return [
    table,
    '',
    `${programs.length} program(s): ${programs.join(', ') || '—'}. Obligations without an executable form get no code or test label here (${file.tasks.filter((t) => t.notExecutable.length).map((t) => `${t.taskId}: ${t.notExecutable.join(', ')}`).join('; ') || 'none'}). The labels of one program are not independent, so the intervals understate the uncertainty.`,
    ...(wrong.length ? ['', 'Disagreements of the code, test and mechanism labellers:', '', ...wrong] : []),
    ...(problems.length ? ['', ...problems] : []),
  ].join('\n');
}

/**
 * Cohen's kappa rows as a table (activities/scoring/raters.ts agreementRows): dimension, who
 * against whom, items labelled by both, observed agreement and kappa. Pure.
 */
export function formatAgreement(rows: ReadonlyArray<AgreementRow>): string {
  if (rows.length === 0) return '_No rater labels._';
  const f = (x: number | null) => (x === null ? '—' : x.toFixed(3));
  return mdTable(['Dimension', 'Labeller A', 'Labeller B', 'Items', 'Observed agreement', "Cohen's kappa"], rows.map((r) => [r.dimension, r.a, r.b, r.kappa.n, r.kappa.n ? f(r.kappa.observed) : '—', f(r.kappa.kappa)]));
}

/** A run as tableDifferential reads it (LoadedRun's fields it needs). */
export interface DifferentialRunLite {
  taskId: string;
  condition: ConditionId;
  record: { testPassed: boolean; referenceAgreement: boolean; referenceAgreementDifferential?: boolean; differential?: DifferentialOutcome } | null;
}

/**
 * Differential reference agreement beside the paper's single-database figure (differential execution;
 * docs/protocol.md §7 "Differential execution"), per condition: runs with a differential result,
 * reference agreement on the study database, differential agreement, and the false passes under
 * each; plus one line per run where the two differ, naming the databases that disagree. Pure.
 * @returns null when no run has a differential result (no variant database, or an older study)
 */
export function tableDifferential(runs: DifferentialRunLite[]): { table: string; differing: string[] } | null {
  const withDiff = runs.filter((r) => r.record && r.record.referenceAgreementDifferential !== undefined);
  if (withDiff.length === 0) return null;
  const conds = reportedConditions([...new Set(withDiff.map((r) => r.condition))]).filter((c) => withDiff.some((r) => r.condition === c));
  const table = mdTable(
    ['Condition', 'Runs compared', 'Reference agreement (study database)', 'Differential agreement (study + variants)', 'False passes (study database)', 'False passes (differential)'],
    conds.map((c) => {
      const rs = withDiff.filter((r) => r.condition === c).map((r) => r.record!);
      const n = rs.length;
      return [
        BUDGETS[c].name, n, `${rs.filter((r) => r.referenceAgreement).length}/${n}`, `${rs.filter((r) => r.referenceAgreementDifferential).length}/${n}`,
        `${rs.filter((r) => r.testPassed && !r.referenceAgreement).length}/${n}`, `${rs.filter((r) => r.testPassed && !r.referenceAgreementDifferential).length}/${n}`,
      ];
    }),
  );
  const differing = withDiff
    .filter((r) => r.record!.referenceAgreement !== r.record!.referenceAgreementDifferential)
    .map((r) => {
      const bad = (r.record!.differential?.databases ?? []).filter((d) => d.verdict === 'disagree' || d.verdict === 'execution-failed');
      return `${r.taskId} / ${BUDGETS[r.condition].name}: agrees on the study database, not on ${bad.map((d) => `${d.database} (${d.verdict === 'disagree' ? d.summary.slice(0, 120) : 'execution failed'})`).join(', ')}`;
    });
  return { table, differing };
}
