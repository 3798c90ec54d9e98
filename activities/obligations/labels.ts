/**
 * Executable code and test labels of one frozen run (tasks/README.md "Executable obligations"; the data
 * flow is /work/shared/design/ARCHITECTURE.md "Data flow of a label"):
 *   - code label of obligation O = the candidate's solve run against O's acceptance tests:
 *     satisfied (all pass) / violated (one fails) / execution-failed (no test could run: the
 *     solution does not import, or the run crashed);
 *   - test label of O = the run's scored suite (the candidate's own test_solution.py; for
 *     Contract-First the frozen contract_test.py, protocol/conditions.ts scoredSuite), when it
 *     passes on gold, run on O's violation: fails → covered, passes → not-covered; a suite that fails on gold is
 *     invalid-on-gold and every test label says so (never counted as coverage). The violations
 *     are applied from their diffs (tasks/violation.ts) into `<workDir>/violations/<id>/`.
 * Both runs are sandboxed pytest processes (activities/mutation/suites.ts) on the Spark queue.
 * Obligations without an executable form get no executable label: the judge (or, as a
 * labelled last resort, the heuristic) labels them in autoLabels.
 * The result is written to `<conditionDir>/executable-labels.json` (ExecutableLabelsFile).
 */
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import type { SparkMode, SparkSettings } from '../../protocol/settings';
import { tasksRoot } from '../common/paths';
import { runSuiteOnVariants } from '../mutation/suites';
import { reuseKey, reuseRun } from '../execution/reuse';
import { readTaskForms } from '../tasks/executable';
import { writeViolationSolutions } from '../tasks/violation';
import { loadTask } from '../tasks/load';
import { CODE_LABELS } from '../../protocol/labels';
import { executableLabel } from './accuracy';
import { ACCEPTANCE_TEST_TIMEOUT_S, TABLES_FILE, tablesJson } from './check';

export const EXECUTABLE_LABELS_FILE = 'executable-labels.json';

/** `<conditionDir>/executable-labels.json`. */
export const ExecutableLabelsFile = z.object({
  schemaVersion: z.literal(1),
  taskId: z.string(),
  /** Per executable obligation: the code label from its acceptance tests, and the failing tests. */
  code: z.record(z.string(), z.object({ label: z.enum(CODE_LABELS), evidence: z.string() })),
  /** Per executable obligation: the test label from the candidate's suite on its violation. */
  test: z.record(z.string(), z.object({ label: z.enum(['covered', 'not-covered', 'invalid-on-gold']), evidence: z.string() })),
  /** The candidate's suite on gold: passed, or the first failure (then every test label is invalid-on-gold). */
  suiteOnGold: z.object({ passed: z.boolean(), failure: z.string().optional() }),
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
  const common = [task.taskId, JSON.stringify(input.settings), input.sparkMode ?? 'default-mode', JSON.stringify(tablesJson(task.task))];
  const codeKey = reuseKey([
    'executable-labels-code-v1', ...common, { file: solution }, forms.acceptance ? { file: forms.acceptance } : 'no-acceptance', ...executable.flatMap((f) => [f.id, f.tests.join(',')]),
  ]);
  const testKey = reuseKey([
    'executable-labels-test-v1', ...common, `suite:${suiteName}`, { file: suite }, { file: gold }, ...executable.flatMap((f) => [f.id, { file: f.violation! }]),
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
  const out: ExecutableLabelsFile = { schemaVersion: 1, taskId: task.taskId, code: code.code, test: test.test, suiteOnGold: test.suiteOnGold };
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
    outDir: path.join(work, 'acceptance'), full: true, stopIfGoldFails: false, perTestTimeoutS: ACCEPTANCE_TEST_TIMEOUT_S, extraFiles: { [TABLES_FILE]: tablesJson(task.task) }, sparkMode: input.sparkMode,
  });
  for (const f of executable) {
    const label = executableLabel(run, f.tests);
    const failed = (run.tests ?? []).filter((t) => f.tests.includes(t.name) && t.outcome !== 'passed').map((t) => `${t.name} ${t.outcome}`);
    code[f.id] = { label, evidence: label === 'execution-failed' ? `acceptance run ${run.status}, exit ${run.exitCode}` : failed.length ? failed.join(', ') : `${f.tests.length} acceptance test(s) passed` };
  }
  return { code, stable: !unstable(run) };
}

/**
 * The test labels: the run's scored suite on gold, then (when it passes there) on each
 * violation, in one sandboxed pytest process. `stable` as in codeLabels.
 */
async function testLabels(
  input: ExecutableLabelsInput, task: ReturnType<typeof loadTask>, executable: Forms, work: string, suite: string, goldFile: string,
): Promise<{ test: ExecutableLabelsFile['test']; suiteOnGold: ExecutableLabelsFile['suiteOnGold']; stable: boolean }> {
  const test: ExecutableLabelsFile['test'] = {};
  if (executable.length === 0) return { test, suiteOnGold: { passed: false }, stable: true };
  if (!fs.existsSync(suite)) {
    const name = path.basename(suite);
    for (const f of executable) test[f.id] = { label: 'invalid-on-gold', evidence: `no ${name}` };
    return { test, suiteOnGold: { passed: false, failure: `no ${name}` }, stable: true };
  }
  const applied = writeViolationSolutions(task.dir, executable.map((f) => f.id), path.join(work, 'violations'));
  const variants = [{ id: 'gold', solutionFile: goldFile }, ...executable.map((f) => ({ id: f.id, solutionFile: applied.get(f.id)! }))];
  const runs = await runSuiteOnVariants({ suiteFile: suite, variants, settings: input.settings, outDir: path.join(work, 'suite'), stopIfGoldFails: true, sparkMode: input.sparkMode });
  const gold = runs[0];
  for (const [i, f] of executable.entries()) {
    const r = runs[i + 1];
    if (!gold.passed) test[f.id] = { label: 'invalid-on-gold', evidence: `the suite fails gold: ${gold.failure ?? gold.status}` };
    else test[f.id] = r.passed ? { label: 'not-covered', evidence: 'the suite passes on the violation' } : { label: 'covered', evidence: `the suite fails on the violation (${r.status}, exit ${r.exitCode})` };
  }
  return { test, suiteOnGold: { passed: gold.passed, ...(gold.failure ? { failure: gold.failure } : {}) }, stable: !runs.some(unstable) };
}

/** Reads `<conditionDir>/executable-labels.json` when present and valid, else null. */
export function readExecutableLabels(conditionDir: string): ExecutableLabelsFile | null {
  const file = path.join(conditionDir, EXECUTABLE_LABELS_FILE);
  if (!fs.existsSync(file)) return null;
  const r = ExecutableLabelsFile.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  return r.success ? r.data : null;
}
