/**
 * `lockin obligations check`: validates a task's executable obligations (executable labels; the format is
 * tasks/README.md "Executable obligations", read by activities/tasks/executable.ts).
 *
 * For one task:
 *   0. every violation.diff is applied to gold (tasks/violation.ts); one that no longer applies
 *      is a format problem naming the file, and its obligation is not run;
 *   1. the acceptance tests run, sandboxed, on gold and on every violation, each test recorded
 *      (activities/mutation/suites.ts with `full`): every test must pass on gold, and each
 *      violation must fail at least one test of its own obligation (it is "killed") and no test
 *      of another obligation, unless its violation.diff declares "# Also violates O7: why";
 *   2. every violation (and gold) runs on databaseDir(scale) and is compared with the reference,
 *      the way the mutation analysis decides equivalence (generate.ts mutantOutputs +
 *      compareOutputs): a violation that agrees with the reference is reported "equivalent" at
 *      that scale (a note, not a failure: no row of that database may expose it);
 *   3. the labellers are measured on this known truth (accuracy.ts): gold is satisfied on every
 *      obligation; a violation is violated on its own obligation and satisfied on the others;
 *   4. with `swaps` (the discrimination check, tasks/README.md "Discriminating fixtures"): for every
 *      input column an obligation names, gold reading each same-typed column of the same table
 *      instead (tasks/columns.ts taskSwaps) must fail a test of every obligation naming the
 *      column (the fixtures tell the right column from each alternative); a swap for a
 *      *plausible* alternative (its family: another price column, another date key …) must also
 *      pass every test of the obligations that do not name the column (one fault, one
 *      obligation: the fixtures of the other obligations copy the alternative from the column).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { SparkSettings } from '../../protocol/settings';
import type { FailureCategory } from '../../protocol/types';
import { referencesDir, tasksRoot, referencePaths } from '../common/paths';
import { compareOutputs } from '../compare/activity';
import { mutantOutputs } from '../mutation/generate';
import { runSuiteOnVariants, type TestOutcome, type VariantRun } from '../mutation/suites';
import { readTaskForms, type FormStatus } from '../tasks/executable';
import { applyViolation, GOLD_SOLUTION, VIOLATION_FILE } from '../tasks/violation';
import { loadTask, type TaskProblem, formatProblem } from '../tasks/load';
import { TABLES_FILE, tablesJson } from '../tasks/acceptanceTables';
import { swapColumn, taskSwaps, type Swap } from '../tasks/columns';
import type { Obligation } from '../../protocol/corpus';
import { parseSparkSchema, type OutputField } from './schemaRules';
import { measureLabellers, type LabellerAccuracy, type VariantEvidence } from './accuracy';

/** How a violation's output compares with the reference at the check's scale. */
export type ReferenceVerdict = 'disagrees' | 'raises' | 'equivalent' | 'error' | 'no-reference' | 'not-run';

/** The check of one obligation. */
export interface ObligationCheck {
  id: string;
  class: Obligation['class'];
  kind: Obligation['kind'];
  form: FormStatus;
  /** The reason of a not-executable obligation, or what an incomplete one lacks. */
  note?: string;
  tests: number;
  /** Every test of this obligation passed on gold (null: no test). */
  goldPasses: boolean | null;
  /** A test of this obligation failed on its own violation (null: no violation or not run). */
  killed: boolean | null;
  /** Other obligations whose acceptance tests fail on this obligation's violation (a violation breaks one obligation: each is a failure unless declared). */
  alsoFails: string[];
  /** Other obligations the violation.diff declares it cannot help breaking ("# Also violates O7: why"). */
  alsoDeclared: string[];
  reference: ReferenceVerdict;
  referenceSummary?: string;
  /** Failures of this obligation (empty = ok); "equivalent" is a note, not a failure. */
  failures: string[];
  /** With the discrimination check: the column swaps of the columns it names, and those its tests did not tell from gold. */
  swaps?: { checked: number; undetected: string[] };
}

/** The check of one task. */
export interface TaskObligationsCheck {
  taskId: string;
  scale: number;
  /** No failure in any obligation and no format problem. */
  ok: boolean;
  obligations: ObligationCheck[];
  /** Format problems (each naming file and field). */
  problems: string[];
  /** Tests that fail on gold (name: outcome), whatever obligation they belong to. */
  goldFailures: string[];
  labellers: LabellerAccuracy[];
  notes: string[];
  /** With the discrimination check: every swap run, and what it failed. */
  swaps?: SwapResult[];
}

/** One column swap of gold run against the acceptance tests (the discrimination check). */
export interface SwapResult {
  id: string;
  from: string;
  to: string;
  plausible: boolean;
  /** The obligations naming `from` whose tests all passed on the swap (each a failure). */
  undetectedBy: string[];
  /** For a plausible swap: the other obligations whose tests failed on it (each a failure). */
  alsoFails: { id: string; tests: string[] }[];
  /** The run did not record its tests (crash or time-out): neither of the above can be told. */
  notRun?: string;
}

/**
 * pytest-timeout per acceptance test, seconds. Generous: the fixtures are tiny, but on a loaded
 * machine a first Spark job can take a minute, and a test stopped by pytest-timeout mid-call
 * can leave the shared session unusable for every later test of the run.
 */
export const ACCEPTANCE_TEST_TIMEOUT_S = 300;

/** Whether all tests named `names` passed in a run (false when any failed or is missing). */
export function testsPass(run: VariantRun | undefined, names: string[]): boolean {
  if (!run?.tests) return false;
  return names.every((n) => run.tests!.some((t: TestOutcome) => t.name === n && t.outcome === 'passed'));
}

/**
 * The other obligations whose acceptance tests fail (or error) on the violation of `own`: each
 * failing test not marked with `own` counts for every obligation its markers name.
 * Returns: [{id, tests}] in order of first failing test; empty when the run recorded no tests.
 */
export function crossFailures(run: VariantRun | undefined, own: string): { id: string; tests: string[] }[] {
  const out: { id: string; tests: string[] }[] = [];
  for (const t of run?.tests ?? []) {
    if (t.outcome === 'passed' || t.outcome === 'skipped' || t.obligations.includes(own)) continue;
    for (const id of t.obligations) {
      const e = out.find((x) => x.id === id) ?? out[out.push({ id, tests: [] }) - 1];
      e.tests.push(t.name);
    }
  }
  return out;
}

function firstLine(s: string | undefined, n = 240): string {
  return (s ?? '').split('\n')[0].slice(0, n);
}

/**
 * The line of a run's error reason worth showing (at most `n` characters): its first line, except
 * for a Py4JJavaError, whose first line only names the JVM call ("An error occurred while calling
 * o1055.getResult."): then the Java exception's line that py4j puts after it (": org.apache.spark.
 * SparkException: …"), e.g. "Py4JJavaError: org.apache.spark.SparkException: …". Pure.
 */
export function reasonLine(s: string | undefined, n = 240): string {
  const lines = (s ?? '').split('\n');
  if (/^Py4JJavaError: An error occurred while calling /.test(lines[0] ?? '')) {
    const java = lines.slice(1).find((l) => /^: \S/.test(l));
    if (java) return `Py4JJavaError: ${java.slice(2)}`.slice(0, n);
  }
  return (lines[0] ?? '').slice(0, n);
}

/**
 * Checks one task's executable obligations at `scale`.
 * Inputs: taskId; scale (database and reference); Spark settings; corpus root (default tasks/);
 * workDir for staged variants and outputs (default a fresh temporary folder, removed after);
 * onProgress, told each phase as it starts (one line, no newline).
 * Returns: the TaskObligationsCheck. A task with no executable form at all is ok with a note.
 * @throws TaskLoadError for a task folder that does not load.
 */
export async function checkTaskObligations(opts: { taskId: string; scale: number; settings: SparkSettings; root?: string; workDir?: string; skipReference?: boolean; swaps?: boolean; onProgress?: (what: string) => void }): Promise<TaskObligationsCheck> {
  const progress = opts.onProgress ?? (() => undefined);
  const root = opts.root ?? tasksRoot();
  const task = loadTask(opts.taskId, root);
  const obligations = task.obligations.obligations;
  const forms = readTaskForms(task.dir, task.taskId, obligations, task.obligationsFile);
  const problems = forms.problems.map((p: TaskProblem) => formatProblem(p));
  const notes: string[] = [];
  const goldFile = path.join(task.dir, GOLD_SOLUTION);
  const work = opts.workDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `lockin-obligations-${task.taskId}-`));
  // The applied violations, `<work>/violations/<id>/solution.py`; a diff that does not apply is
  // already a problem of readTaskForms (naming the file) and its obligation is not run.
  const solutions = new Map<string, string>();
  const texts = new Map<string, string>();
  const goldText = fs.existsSync(goldFile) ? fs.readFileSync(goldFile, 'utf8') : '';
  for (const f of forms.forms.filter((x) => x.violation)) {
    try {
      const text = applyViolation(goldText, fs.readFileSync(f.violation!, 'utf8'), f.violation!, f.id);
      const file = path.join(work, 'violations', f.id, 'solution.py');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      solutions.set(f.id, file);
      texts.set(f.id, text);
    } catch {
      /* reported by readTaskForms */
    }
  }
  const withViolation = forms.forms.filter((f) => solutions.has(f.id));
  // The discrimination check's column swaps of gold: plausible ones run every test (isolation),
  // the others only the tests of the obligations naming the column, to their first failure.
  const tested = forms.forms.filter((f) => f.tests.length > 0);
  const swaps = opts.swaps && forms.acceptance ? taskSwaps(obligations.filter((o) => tested.some((f) => f.id === o.id)), task.task, goldText) : [];
  const testsOf = (ids: string[]) => [...new Set(tested.filter((f) => ids.includes(f.id)).flatMap((f) => f.tests))];
  for (const sw of swaps) {
    const file = path.join(work, 'swaps', sw.id, 'solution.py');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, swapColumn(goldText, sw.from, sw.to)!);
    solutions.set(sw.id, file);
  }
  let runs = new Map<string, VariantRun>();
  const outputs = new Map<string, { status: string; reason?: string; agree?: boolean; categories?: FailureCategory[]; summary?: string; schema?: OutputField[] }>();
  try {
    if (forms.acceptance) {
      const variants = [
        { id: 'gold', solutionFile: goldFile },
        ...withViolation.map((f) => ({ id: f.id, solutionFile: solutions.get(f.id)! })),
        ...swaps.map((sw) => ({ id: sw.id, solutionFile: solutions.get(sw.id)!, ...(sw.plausible ? {} : { only: testsOf(sw.obligations) }) })),
      ];
      progress(`acceptance tests on gold and ${withViolation.length} violation(s)${swaps.length ? ` and ${swaps.length} column swap(s) (${swaps.filter((x) => x.plausible).length} plausible)` : ''}`);
      const res = await runSuiteOnVariants({ suiteFile: forms.acceptance, variants, settings: opts.settings, outDir: path.join(work, 'acceptance'), full: true, stopIfGoldFails: false, perTestTimeoutS: ACCEPTANCE_TEST_TIMEOUT_S, extraFiles: { [TABLES_FILE]: tablesJson(task.task, task.obligations.obligations) } });
      runs = new Map(res.map((r) => [r.variant, r]));
      // Kept (--keep): the tables the tests read, for a run of the acceptance tests by hand.
      if (opts.workDir) fs.writeFileSync(path.join(work, 'acceptance', TABLES_FILE), tablesJson(task.task, task.obligations.obligations));
      const vr = res.slice(1, 1 + withViolation.length);
      progress(`acceptance tests ran on ${res.length} program(s): gold ${res[0]?.passed ? 'passes' : 'FAILS'}, ${vr.filter((r) => !r.passed).length} of ${vr.length} violation(s) fail them`);
    } else notes.push('no acceptance tests (acceptance/test_acceptance.py)');
    const reference = referencePaths(referencesDir(opts.scale), task.taskId);
    const refDir = reference.dir;
    if (opts.skipReference) notes.push('violations not compared with the reference (--skip-reference)');
    else if (!fs.existsSync(reference.schema)) notes.push(`no reference for ${task.taskId} at SF=${opts.scale}: violations not compared`);
    else {
      const ids = ['gold', ...withViolation.map((f) => f.id)];
      const dirs = ids.map((id) => {
        const d = path.join(work, 'outputs', id);
        fs.mkdirSync(d, { recursive: true });
        fs.copyFileSync(id === 'gold' ? goldFile : solutions.get(id)!, path.join(d, 'solution.py'));
        return d;
      });
      progress(`executing gold and ${withViolation.length} violation(s) on the SF=${opts.scale} database, to compare each with the reference`);
      const results = await mutantOutputs({ dirs, scale: opts.scale, settings: opts.settings, onVariant: (l) => progress(`executed ${l}`) });
      for (const [i, id] of ids.entries()) {
        const r = results[i];
        if (r.status !== 'ok') {
          outputs.set(id, { status: r.status, reason: reasonLine(r.reason) });
          continue;
        }
        const cmp = await compareOutputs({ candidateDir: path.join(dirs[i], 'out'), referenceDir: refDir, outDir: dirs[i], execution: { status: 'ok' } });
        const schema = parseSparkSchema(JSON.parse(fs.readFileSync(path.join(dirs[i], 'out', 'schema.json'), 'utf8')));
        outputs.set(id, { status: 'ok', agree: cmp.outcome.agree, categories: cmp.outcome.categories, summary: firstLine(cmp.outcome.summary), schema });
      }
      const g = outputs.get('gold');
      if (g && !g.agree) problems.push(`gold does not agree with the reference at SF=${opts.scale}: ${g.reason ?? g.summary}`);
    }
  } finally {
    if (!opts.workDir) fs.rmSync(work, { recursive: true, force: true });
  }

  const gold = runs.get('gold');
  const goldFailures = (gold?.tests ?? []).filter((t) => t.outcome !== 'passed').map((t) => `${t.name}: ${t.outcome}`);
  if (gold && !gold.tests) goldFailures.push(`the acceptance tests did not run on gold (${gold.status}, exit ${gold.exitCode})`);
  const checks: ObligationCheck[] = obligations.map((o) => {
    const f = forms.forms.find((x) => x.id === o.id)!;
    const failures: string[] = [];
    const goldPasses = f.tests.length > 0 && forms.acceptance ? testsPass(gold, f.tests) : null;
    if (goldPasses === false) failures.push('an acceptance test fails on gold');
    let killed: boolean | null = null;
    if (f.violation && f.tests.length > 0 && forms.acceptance) {
      const run = runs.get(o.id);
      killed = run?.tests ? !testsPass(run, f.tests) : run ? run.status !== 'completed' || !run.passed : null;
      if (killed === false) failures.push('the violation passes its own acceptance tests');
    }
    const alsoDeclared = f.also ?? [];
    const alsoFails = crossFailures(runs.get(o.id), o.id);
    for (const x of alsoFails.filter((a) => !alsoDeclared.includes(a.id)))
      failures.push(`the violation also fails the acceptance tests of ${x.id} (${x.tests.join(', ')}): isolate it, or declare "# Also violates ${x.id}: why" in its ${VIOLATION_FILE}`);
    for (const d of alsoDeclared.filter((a) => runs.has(o.id) && !alsoFails.some((x) => x.id === a)))
      failures.push(`its ${VIOLATION_FILE} declares it also violates ${d}, but ${d}'s acceptance tests pass on it`);
    let reference: ReferenceVerdict = f.violation ? (outputs.size ? 'not-run' : 'no-reference') : 'not-run';
    let referenceSummary: string | undefined;
    const out = outputs.get(o.id);
    if (f.violation && out) {
      if (out.status === 'exception') reference = 'raises';
      else if (out.status !== 'ok') reference = 'error';
      else reference = out.agree ? 'equivalent' : 'disagrees';
      referenceSummary = out.reason ?? out.summary;
      if (reference === 'error') failures.push(`the violation could not be run on SF=${opts.scale}: ${referenceSummary}`);
      if (reference === 'raises') failures.push(`the violation raises on SF=${opts.scale} (a violation breaks a meaning, not the run): ${referenceSummary}`);
    }
    if (f.violation && !solutions.has(o.id)) failures.push('its violation.diff does not apply to gold (see the problem naming the file)');
    if (f.status === 'incomplete') failures.push(f.note ?? 'incomplete');
    return { id: o.id, class: o.class, kind: o.kind, form: f.status, ...(f.note ? { note: f.note } : {}), tests: f.tests.length, goldPasses, killed, alsoFails: alsoFails.map((x) => x.id), alsoDeclared, reference, ...(referenceSummary ? { referenceSummary } : {}), failures };
  });
  const swapResults = swaps.map((sw) => swapResult(sw, runs.get(sw.id), tested));
  if (opts.swaps) {
    for (const c of checks) {
      const mine = swapResults.filter((r) => swaps.find((x) => x.id === r.id)!.obligations.includes(c.id));
      if (!mine.length) continue;
      const undetected = mine.filter((r) => r.undetectedBy.includes(c.id)).map((r) => `${r.from}→${r.to}`);
      c.swaps = { checked: mine.length, undetected };
      if (undetected.length) c.failures.push(`its tests do not tell ${undetected.length} column swap(s) from gold: ${undetected.slice(0, 6).join(', ')}${undetected.length > 6 ? ', …' : ''} (give the alternative a value that changes what the test asserts)`);
    }
    for (const r of swapResults) {
      if (r.notRun) problems.push(`column swap ${r.from}→${r.to}: ${r.notRun}`);
      for (const x of r.alsoFails) {
        const c = checks.find((k) => k.id === x.id);
        c?.failures.push(`the plausible swap ${r.from}→${r.to} (an obligation that ${x.id} does not name) fails its tests (${x.tests.join(', ')}): its fixtures must not depend on which of the two the candidate reads`);
      }
    }
  }
  const evidence: VariantEvidence[] = [];
  if (gold) evidence.push({ variant: 'gold', violates: null, run: gold, solution: goldText, output: outputs.get('gold') });
  for (const f of withViolation) {
    const run = runs.get(f.id);
    if (run) evidence.push({ variant: f.id, violates: f.id, ...(f.also ? { alsoViolates: f.also } : {}), run, solution: texts.get(f.id)!, output: outputs.get(f.id) });
  }
  const labellers = measureLabellers(obligations, forms.forms, evidence, task.taskId);
  const ok = problems.length === 0 && goldFailures.length === 0 && checks.every((c) => c.failures.length === 0);
  return { taskId: task.taskId, scale: opts.scale, ok, obligations: checks, problems, goldFailures, labellers, notes, ...(opts.swaps ? { swaps: swapResults } : {}) };
}

/**
 * What one column swap's acceptance run shows (pure): the obligations naming the swapped column
 * none of whose tests failed on it, and for a plausible swap the other obligations whose tests
 * failed. A run that recorded no test is `notRun`.
 */
export function swapResult(sw: Swap, run: VariantRun | undefined, tested: ReadonlyArray<{ id: string; tests: string[] }>): SwapResult {
  const base = { id: sw.id, from: sw.from, to: sw.to, plausible: sw.plausible };
  if (!run?.tests?.length) return { ...base, undetectedBy: [], alsoFails: [], notRun: run ? `the run recorded no test (${run.status}, exit ${run.exitCode})` : 'not run' };
  const failed = new Set(run.tests.filter((t) => t.outcome === 'failed' || t.outcome === 'error').map((t) => t.name));
  const own = new Set(tested.filter((f) => sw.obligations.includes(f.id)).flatMap((f) => f.tests));
  const undetectedBy = sw.obligations.filter((id) => !(tested.find((f) => f.id === id)?.tests ?? []).some((t) => failed.has(t)));
  const alsoFails = sw.plausible
    ? tested.filter((f) => !sw.obligations.includes(f.id)).map((f) => ({ id: f.id, tests: f.tests.filter((t) => failed.has(t) && !own.has(t)) })).filter((x) => x.tests.length > 0)
    : [];
  return { ...base, undetectedBy, alsoFails };
}
