/**
 * Executable code and test labels of one frozen run (docs/protocol.md §5 "Executable labels";
 * the data flow is /work/shared/design/ARCHITECTURE.md "Data flow of a label"):
 *   - code label of obligation O = the candidate's solve run against O's acceptance tests:
 *     satisfied (all pass) / violated (one fails) / execution-failed (no test could run: the
 *     solution does not import, or the run crashed);
 *   - test label of O = the run's scored suite (the candidate's own test_solution.py; for
 *     Contract-First the frozen contract_test.py, protocol/conditions.ts scoredSuite), run test
 *     by test on gold and on O's violation. A test that fails gold asserts against the task's
 *     contract and covers nothing; the suite is measured through its *valid* tests (those that
 *     pass gold): covered when one of them fails on O's violation, not-covered otherwise (also
 *     when there is no suite file, or no test passes gold);
 *   - repeats (the paper's "assertions repeating incorrect logic", Table VI): for an obligation
 *     no valid test covers, the tests that fail gold yet pass a program that violates O (O's
 *     violation, or gold reading a plausible alternative of a column O names: tasks/columns.ts):
 *     such a test asserts the wrong value a violation of O produces.
 * The violations are applied from their diffs (tasks/violation.ts) into `<workDir>/violations/<id>/`.
 * The runs are sandboxed pytest processes (activities/mutation/suites.ts) on the Spark queue.
 * Obligations without an executable form get no executable label: the judge (or, as a
 * labelled last resort, the heuristic) labels them in autoLabels.
 * The result is written to `<conditionDir>/executable-labels.json` (ExecutableLabelsFile).
 */
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import type { SparkMode, SparkSettings } from '../../protocol/settings';
import { tasksRoot } from '../common/paths';
import { runSuiteOnVariants, type VariantRun } from '../mutation/suites';
import { swapColumn, taskSwaps } from '../tasks/columns';
import { reuseKey, reuseRun } from '../execution/reuse';
import { readTaskForms } from '../tasks/executable';
import { writeViolationSolutions } from '../tasks/violation';
import { loadTask } from '../tasks/load';
import { CODE_LABELS } from '../../protocol/labels';
import { executableLabel } from './accuracy';
import { ACCEPTANCE_TEST_TIMEOUT_S } from './check';
import { TABLES_FILE, tablesJson } from '../tasks/acceptanceTables';

export const EXECUTABLE_LABELS_FILE = 'executable-labels.json';

const Outcome = z.enum(['passed', 'failed', 'error', 'skipped']);

/** A test of the suite that fails gold yet passes a program violating the obligation (its "via"). */
export const Repeats = z.object({
  /** The tests (function names). */
  tests: z.array(z.string()).min(1),
  /** The program they pass: the obligation's violation (its id) or a column swap of gold (`swap.<column>.<alternative>`). */
  via: z.string(),
});
export type Repeats = z.infer<typeof Repeats>;

/**
 * `<conditionDir>/executable-labels.json`. schemaVersion 1 (before per-test validity): a suite
 * that failed gold labelled every test dimension invalid-on-gold; version 2 measures it through
 * the tests that pass gold.
 */
export const ExecutableLabelsFile = z.object({
  schemaVersion: z.union([z.literal(1), z.literal(2)]),
  taskId: z.string(),
  /** Per executable obligation: the code label from its acceptance tests, and the failing tests. */
  code: z.record(z.string(), z.object({ label: z.enum(CODE_LABELS), evidence: z.string() })),
  /** Per executable obligation: the test label from the suite's valid tests on its violation, and what repeats a wrong value. */
  test: z.record(z.string(), z.object({ label: z.enum(['covered', 'not-covered', 'invalid-on-gold']), evidence: z.string(), repeats: Repeats.optional() })),
  /** The candidate's suite on gold: passed (every test), or the first failure; with version 2 how many tests passed (valid) and failed or erred (invalid) there. */
  suiteOnGold: z.object({ passed: z.boolean(), failure: z.string().optional(), valid: z.number().int().optional(), invalid: z.number().int().optional() }),
  /** Version 2: every test of the suite, its outcome on gold and on each violation it ran on (absent: not run there). */
  suiteTests: z.array(z.object({ name: z.string(), gold: Outcome, violations: z.record(z.string(), Outcome) })).optional(),
});
export type ExecutableLabelsFile = z.infer<typeof ExecutableLabelsFile>;

export interface ExecutableLabelsInput {
  taskId: string;
  /** The frozen run's folder holding solution.py and the suite. */
  conditionDir: string;
  /** The suite whose coverage the test labels measure, a file of conditionDir (default test_solution.py; contract_test.py for Contract-First). */
  suite?: string;
  settings: SparkSettings;
  /** The corpus root (default tasks/). */
  tasksDir?: string;
  /** Where the pytest runs keep their reports (default `<conditionDir>/executable-labels/`). */
  workDir?: string;
  /**
   * Study id: within the study, a run whose solution (with the same acceptance tests) was already
   * labelled copies its code labels, and one whose suite was already run on gold and the
   * violations copies its test labels (activities/execution/reuse.ts; the conditions that kept the
   * shared initial generation copy both, one that revised only its solution reruns only the code
   * labels); undefined: always run.
   */
  reuseScope?: string;
  /** cold or warm (activities/execution/slots.ts); default LOCKIN_SPARK_MODE, else warm (sparkModeFromEnv). */
  sparkMode?: SparkMode;
}

/**
 * Labels a frozen run's obligations by execution and writes executable-labels.json.
 * A missing solution.py labels every code dimension execution-failed; a missing suite labels
 * every test dimension invalid-on-gold (there is no suite to measure).
 * Returns: the file's path and content (empty maps when the task has no executable forms).
 * @throws InputError naming a violation.diff that no longer applies to gold (tasks/violation.ts).
 */
export async function executableLabels(input: ExecutableLabelsInput): Promise<{ file: string; labels: ExecutableLabelsFile }> {
  const root = input.tasksDir ?? tasksRoot();
  const task = loadTask(input.taskId, root);
  const forms = readTaskForms(task.dir, task.taskId, task.obligations.obligations, task.obligationsFile);
  const executable = forms.forms.filter((f) => f.status === 'executable');
  const work = input.workDir ?? path.join(input.conditionDir, 'executable-labels');
  const solution = path.join(input.conditionDir, 'solution.py');
  const suiteName = input.suite ?? 'test_solution.py';
  const suite = path.join(input.conditionDir, suiteName);
  const gold = path.join(task.dir, 'gold', 'solution.py');
  // The two halves are reused separately (within the study): the code labels depend on the
  // solution and the acceptance tests, the test labels on the suite, gold and the violations, so
  // a condition that revised only its solution (or only its suite) reruns only that half.
  const common = [task.taskId, JSON.stringify(input.settings), input.sparkMode ?? 'default-mode', JSON.stringify(tablesJson(task.task, task.obligations.obligations))];
  const codeKey = reuseKey([
    'executable-labels-code-v2-blind', ...common, { file: solution }, forms.acceptance ? { file: forms.acceptance } : 'no-acceptance', ...executable.flatMap((f) => [f.id, f.tests.join(',')]),
  ]);
  const testKey = reuseKey([
    'executable-labels-test-v3-blind', ...common, `suite:${suiteName}`, { file: suite }, { file: gold }, ...executable.flatMap((f) => [f.id, { file: f.violation! }]),
  ]);
  const code = await reuseRun({
    scope: input.reuseScope, kind: 'labels', key: codeKey, outDir: path.join(work, 'acceptance'), files: [],
    run: () => codeLabels(input, task, executable, forms.acceptance, work, solution),
    reusable: (v) => v.stable,
    relocate: (v) => v,
  });
  const test = await reuseRun({
    scope: input.reuseScope, kind: 'labels', key: testKey, outDir: path.join(work, 'suite'), files: [],
    run: () => testLabels(input, task, executable, work, suite, gold),
    reusable: (v) => v.stable,
    relocate: (v) => v,
  });
  const out: ExecutableLabelsFile = { schemaVersion: 2, taskId: task.taskId, code: code.code, test: test.test, suiteOnGold: test.suiteOnGold, ...(test.suiteTests ? { suiteTests: test.suiteTests } : {}) };
  const file = path.join(input.conditionDir, EXECUTABLE_LABELS_FILE);
  fs.writeFileSync(file, `${JSON.stringify(ExecutableLabelsFile.parse(out), null, 2)}\n`);
  return { file, labels: out };
}

type Forms = ReturnType<typeof readTaskForms>['forms'];
const unstable = (r: { status: string }) => r.status === 'timeout' || r.status === 'crash';

/**
 * The code labels: the task's acceptance tests run once, in full, on the candidate's solution
 * (one sandboxed pytest process). `stable`: the run neither timed out nor crashed (only then may
 * the labels be reused).
 */
async function codeLabels(
  input: ExecutableLabelsInput, task: ReturnType<typeof loadTask>, executable: Forms, acceptance: string | null | undefined, work: string, solution: string,
): Promise<{ code: ExecutableLabelsFile['code']; stable: boolean }> {
  const code: ExecutableLabelsFile['code'] = {};
  if (executable.length === 0 || !acceptance) return { code, stable: true };
  if (!fs.existsSync(solution)) {
    for (const f of executable) code[f.id] = { label: 'execution-failed', evidence: 'no solution.py' };
    return { code, stable: true };
  }
  const [run] = await runSuiteOnVariants({
    suiteFile: acceptance, variants: [{ id: 'candidate', solutionFile: solution }], settings: input.settings,
    outDir: path.join(work, 'acceptance'), full: true, stopIfGoldFails: false, perTestTimeoutS: ACCEPTANCE_TEST_TIMEOUT_S, extraFiles: { [TABLES_FILE]: tablesJson(task.task, task.obligations.obligations) }, sparkMode: input.sparkMode, untrusted: 'solutions',
  });
  for (const f of executable) {
    const label = executableLabel(run, f.tests);
    const failed = (run.tests ?? []).filter((t) => f.tests.includes(t.name) && t.outcome !== 'passed').map((t) => `${t.name} ${t.outcome}`);
    code[f.id] = { label, evidence: label === 'execution-failed' ? `acceptance run ${run.status}, exit ${run.exitCode}` : failed.length ? failed.join(', ') : `${f.tests.length} acceptance test(s) passed` };
  }
  return { code, stable: !unstable(run) };
}

/**
 * The test labels: the run's scored suite on gold and on each violation, every test recorded
 * (one sandboxed pytest process), then labelled by testLabelsFrom; when a test fails gold and an
 * obligation is left uncovered, those tests run once more on the plausible column swaps of the
 * obligation's columns (a second process) to find which wrong value they repeat. `stable` as in
 * codeLabels.
 */
async function testLabels(
  input: ExecutableLabelsInput, task: ReturnType<typeof loadTask>, executable: Forms, work: string, suite: string, goldFile: string,
): Promise<{ test: ExecutableLabelsFile['test']; suiteOnGold: ExecutableLabelsFile['suiteOnGold']; suiteTests?: ExecutableLabelsFile['suiteTests']; stable: boolean }> {
  if (executable.length === 0) return { test: {}, suiteOnGold: { passed: false }, stable: true };
  if (!fs.existsSync(suite)) {
    const name = path.basename(suite);
    const test: ExecutableLabelsFile['test'] = {};
    for (const f of executable) test[f.id] = { label: 'not-covered', evidence: `no ${name}: no test covers it` };
    return { test, suiteOnGold: { passed: false, failure: `no ${name}`, valid: 0, invalid: 0 }, stable: true };
  }
  const applied = writeViolationSolutions(task.dir, executable.map((f) => f.id), path.join(work, 'violations'));
  const variants = [{ id: 'gold', solutionFile: goldFile }, ...executable.map((f) => ({ id: f.id, solutionFile: applied.get(f.id)! }))];
  const runs = await runSuiteOnVariants({ suiteFile: suite, variants, settings: input.settings, outDir: path.join(work, 'suite'), stopIfGoldFails: false, full: true, sparkMode: input.sparkMode });
  const byId = new Map(runs.map((r) => [r.variant, r]));
  let labelled = testLabelsFrom(executable.map((f) => f.id), byId, new Map());
  let swapRuns: VariantRun[] = [];
  const invalid = (byId.get('gold')?.tests ?? []).filter((t) => t.outcome === 'failed' || t.outcome === 'error').map((t) => t.name);
  const open = executable.filter((f) => labelled.test[f.id].label !== 'covered' && !labelled.test[f.id].repeats);
  if (invalid.length && open.length) {
    const gold = fs.readFileSync(goldFile, 'utf8');
    const swaps = taskSwaps(task.obligations.obligations.filter((o) => open.some((f) => f.id === o.id)), task.task, gold).filter((sw) => sw.plausible);
    if (swaps.length) {
      const sv = swaps.map((sw) => {
        const file = path.join(work, 'swaps', sw.id, 'solution.py');
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, swapColumn(gold, sw.from, sw.to)!);
        return { id: sw.id, solutionFile: file, only: invalid };
      });
      swapRuns = await runSuiteOnVariants({ suiteFile: suite, variants: sv, settings: input.settings, outDir: path.join(work, 'swaps-run'), stopIfGoldFails: false, sparkMode: input.sparkMode });
      const swapsOf = new Map<string, { via: string; run: VariantRun }[]>();
      for (const [i, sw] of swaps.entries()) for (const o of sw.obligations) swapsOf.set(o, [...(swapsOf.get(o) ?? []), { via: sw.id, run: swapRuns[i] }]);
      labelled = testLabelsFrom(executable.map((f) => f.id), byId, swapsOf);
    }
  }
  return { ...labelled, stable: ![...runs, ...swapRuns].some(unstable) };
}

/**
 * The test labels from the suite's runs (pure; the rule is the module header's):
 * `runs` by variant id ("gold" and each obligation id), every test recorded; `swaps` per
 * obligation, runs of the tests that fail gold on gold reading a plausible alternative of one of
 * its columns. Returns the labels, the suite's record on gold, and every test's outcomes.
 */
export function testLabelsFrom(
  obligations: string[], runs: ReadonlyMap<string, VariantRun>, swaps: ReadonlyMap<string, { via: string; run: VariantRun }[]>,
): { test: ExecutableLabelsFile['test']; suiteOnGold: ExecutableLabelsFile['suiteOnGold']; suiteTests: NonNullable<ExecutableLabelsFile['suiteTests']> } {
  const gold = runs.get('gold');
  const goldTests = gold?.tests ?? [];
  const bad = (o: string | undefined) => o === 'failed' || o === 'error';
  const valid = goldTests.filter((t) => t.outcome === 'passed').map((t) => t.name);
  const invalid = goldTests.filter((t) => bad(t.outcome)).map((t) => t.name);
  const outcome = (run: VariantRun | undefined, name: string) => run?.tests?.find((t) => t.name === name)?.outcome;
  const firstInvalid = invalid.length ? `${invalid[0]}` : undefined;
  const why = !gold?.tests?.length ? `the suite ran no test on gold (${gold?.status ?? 'not run'}, exit ${gold?.exitCode ?? '-'})` : `${valid.length} of ${goldTests.length} test(s) pass gold`;
  const test: ExecutableLabelsFile['test'] = {};
  for (const id of obligations) {
    const r = runs.get(id);
    const killers = valid.filter((n) => bad(outcome(r, n)));
    const endedEarly = !!r && (r.status === 'timeout' || r.status === 'crash') && valid.length > 0;
    if (killers.length) test[id] = { label: 'covered', evidence: `${killers.slice(0, 3).join(', ')}${killers.length > 3 ? ' …' : ''} (passing gold) fail(s) on the violation` };
    else if (endedEarly) test[id] = { label: 'covered', evidence: `the suite ended early on the violation (${r!.status}), having passed gold` };
    else test[id] = { label: 'not-covered', evidence: valid.length ? `none of the ${valid.length} test(s) passing gold fails on the violation` : `no test covers it: ${why}` };
    if (test[id].label === 'covered' || !invalid.length) continue;
    const via = [{ via: id, run: r }, ...(swaps.get(id) ?? [])];
    for (const v of via) {
      const repeats = invalid.filter((n) => outcome(v.run, n) === 'passed');
      if (repeats.length) {
        test[id].repeats = { tests: repeats, via: v.via };
        test[id].evidence += `; ${repeats.join(', ')} fail(s) gold and pass(es) ${v.via === id ? 'the violation' : `gold reading ${v.via.split('.').slice(2).join('.')} for ${v.via.split('.')[1]}`}: it asserts the wrong value`;
        break;
      }
    }
  }
  const names = [...new Set([...goldTests.map((t) => t.name), ...obligations.flatMap((o) => (runs.get(o)?.tests ?? []).map((t) => t.name))])];
  const suiteTests = names.map((name) => ({
    name,
    gold: outcome(gold, name) ?? 'error',
    violations: Object.fromEntries(obligations.map((o) => [o, outcome(runs.get(o), name)]).filter((e): e is [string, NonNullable<ReturnType<typeof outcome>>] => e[1] !== undefined)),
  }));
  return {
    test,
    suiteOnGold: { passed: !!gold?.passed, ...(gold && !gold.passed ? { failure: gold.failure ?? firstInvalid ?? gold.status } : {}), valid: valid.length, invalid: invalid.length },
    suiteTests,
  };
}

/** Reads `<conditionDir>/executable-labels.json` when present and valid, else null. */
export function readExecutableLabels(conditionDir: string): ExecutableLabelsFile | null {
  const file = path.join(conditionDir, EXECUTABLE_LABELS_FILE);
  if (!fs.existsSync(file)) return null;
  const r = ExecutableLabelsFile.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  return r.success ? r.data : null;
}
