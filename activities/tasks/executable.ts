/**
 * The executable forms of a task's obligations (tasks/README.md "Executable obligations";
 * executable labels): per obligation either
 *   - a violation `tasks/<taskId>/obligations/<Oid>/violation.diff` (a unified diff against
 *     gold/solution.py that breaks this one obligation; violation.ts) and at least one acceptance test in `tasks/<taskId>/acceptance/test_acceptance.py`
 *     marked `@pytest.mark.obligation("<Oid>")`, or
 *   - `executable: false` with a `reason` in obligations.yaml.
 * This module only reads the layout and checks it names existing obligations; running the
 * tests is activities/obligations/check.ts.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Obligation } from '../../protocol/corpus';
import { displayPath, type TaskProblem } from './load';
import { applyViolation, GOLD_SOLUTION, parseViolationDiff, VIOLATION_FILE, ViolationError } from './violation';

/** The acceptance test file of a task folder. */
export function acceptanceFile(taskDir: string): string {
  return path.join(taskDir, 'acceptance', 'test_acceptance.py');
}

/** The violation (a diff against gold) of obligation `id` in a task folder. */
export function violationFile(taskDir: string, id: string): string {
  return path.join(taskDir, 'obligations', id, VIOLATION_FILE);
}

/** One acceptance test and the obligations its markers name. */
export interface AcceptanceTest {
  /** The test function's name, e.g. "test_unmatched_item_keys_are_dropped". */
  name: string;
  /** 1-based line of the `def`. */
  line: number;
  obligations: string[];
}

/** How one obligation can be executed. */
export type FormStatus = 'executable' | 'not-executable' | 'missing' | 'incomplete';

/** What the task folder holds for one obligation. */
export interface ObligationForm {
  id: string;
  status: FormStatus;
  /** Absolute path of violation.diff, when present (apply it with violation.ts before running it). */
  violation?: string;
  /** Other obligations the violation declares it breaks too ("# Also violates O7: why"). */
  also?: string[];
  /** Names of the acceptance tests marked with this obligation. */
  tests: string[];
  /** For not-executable: the stated reason; for incomplete: what is missing. */
  note?: string;
}

/** Every obligation's form plus the format problems of the folder. */
export interface TaskForms {
  taskId: string;
  /** Absolute path of the acceptance test file, when present. */
  acceptance?: string;
  tests: AcceptanceTest[];
  forms: ObligationForm[];
  problems: TaskProblem[];
}

const MARK = /^\s*@pytest\.mark\.obligation\(([^)]*)\)\s*$/;
const DEF = /^\s*def\s+(test\w*)\s*\(/;

/**
 * Reads the tests of an acceptance file and their `@pytest.mark.obligation("O3")` markers
 * (one or more ids per marker, several markers per test). Pure: takes the text.
 * Returns: the tests, and problems for a marker with no id or not followed by a test function
 * (each naming the file and the line).
 */
export function parseAcceptanceTests(text: string, file: string): { tests: AcceptanceTest[]; problems: TaskProblem[] } {
  const tests: AcceptanceTest[] = [];
  const problems: TaskProblem[] = [];
  let pending: { ids: string[]; line: number }[] = [];
  text.split('\n').forEach((raw, i) => {
    const m = MARK.exec(raw);
    if (m) {
      const ids = [...m[1].matchAll(/["'](O\d+)["']/g)].map((x) => x[1]);
      if (ids.length === 0) problems.push({ file, field: `line ${i + 1}`, message: `obligation marker names no obligation id such as "O3": ${raw.trim()}` });
      pending.push({ ids, line: i + 1 });
      return;
    }
    const d = DEF.exec(raw);
    if (d) {
      tests.push({ name: d[1], line: i + 1, obligations: [...new Set(pending.flatMap((p) => p.ids))] });
      pending = [];
    } else if (/^\s*def\s/.test(raw) && pending.length > 0) {
      for (const p of pending) problems.push({ file, field: `line ${p.line}`, message: 'obligation marker on a function that is not a test (its name must start with test)' });
      pending = [];
    }
  });
  for (const p of pending) problems.push({ file, field: `line ${p.line}`, message: 'obligation marker not followed by a test function' });
  return { tests, problems };
}

/**
 * Reads a task folder's executable forms and checks that they fit its obligations: every
 * violation folder and every marker names an existing obligation; every violation.diff parses
 * and applies to gold/solution.py (violation.ts; a leftover violation.py is a problem); an obligation with
 * `executable: false` has neither; an obligation with a violation has a test and vice versa
 * (otherwise "incomplete", a problem). An obligation with neither and no reason is "missing"
 * (reported, not a format problem: the corpus is written one obligation at a time).
 * Inputs: the task folder, its obligations, the display name of obligations.yaml.
 */
export function readTaskForms(taskDir: string, taskId: string, obligations: ReadonlyArray<Obligation>, obligationsFile: string): TaskForms {
  const problems: TaskProblem[] = [];
  const ids = new Set(obligations.map((o) => o.id));
  const accAbs = acceptanceFile(taskDir);
  let tests: AcceptanceTest[] = [];
  if (fs.existsSync(accAbs)) {
    const shown = displayPath(accAbs);
    const parsed = parseAcceptanceTests(fs.readFileSync(accAbs, 'utf8'), shown);
    tests = parsed.tests;
    problems.push(...parsed.problems);
    for (const t of tests)
      for (const o of t.obligations)
        if (!ids.has(o)) problems.push({ file: shown, field: `line ${t.line}`, message: `${t.name} is marked with obligation ${o}, which ${obligationsFile} does not define` });
  }
  const oblDir = path.join(taskDir, 'obligations');
  const goldAbs = path.join(taskDir, GOLD_SOLUTION);
  const gold = fs.existsSync(goldAbs) ? fs.readFileSync(goldAbs, 'utf8') : undefined;
  const also = new Map<string, string[]>();
  if (fs.existsSync(oblDir)) {
    for (const e of fs.readdirSync(oblDir, { withFileTypes: true })) {
      const shown = displayPath(path.join(oblDir, e.name));
      const diffAbs = path.join(oblDir, e.name, VIOLATION_FILE);
      if (!e.isDirectory()) problems.push({ file: shown, field: '', message: 'not a folder: obligations/ holds one folder per obligation id' });
      else if (!ids.has(e.name)) problems.push({ file: shown, field: '', message: `a violation for ${e.name}, which ${obligationsFile} does not define` });
      else if (fs.existsSync(path.join(oblDir, e.name, 'violation.py'))) problems.push({ file: displayPath(path.join(oblDir, e.name, 'violation.py')), field: '', message: `a violation is stored as ${VIOLATION_FILE} (a diff against gold): write it with \`lockin obligations diff\`` });
      else if (!fs.existsSync(diffAbs)) problems.push({ file: shown, field: '', message: `no ${VIOLATION_FILE} in the folder` });
      else if (gold === undefined) problems.push({ file: displayPath(diffAbs), field: '', message: `no ${GOLD_SOLUTION} to apply it to` });
      else {
        const shownDiff = displayPath(diffAbs);
        const text = fs.readFileSync(diffAbs, 'utf8');
        try {
          applyViolation(gold, text, shownDiff, e.name);
          const declared = parseViolationDiff(text, shownDiff, e.name).also.map((a) => a.id);
          for (const a of declared) if (!ids.has(a)) problems.push({ file: shownDiff, field: '', message: `"Also violates ${a}": ${obligationsFile} does not define ${a}` });
          also.set(e.name, declared);
        } catch (err) {
          if (!(err instanceof ViolationError)) throw err;
          problems.push({ file: shownDiff, field: err.field ?? '', message: err.detail });
        }
      }
    }
  }
  const forms: ObligationForm[] = obligations.map((o, i) => {
    const v = violationFile(taskDir, o.id);
    const violation = fs.existsSync(v) ? v : undefined;
    const own = tests.filter((t) => t.obligations.includes(o.id)).map((t) => t.name);
    if (o.executable === false) {
      if (violation || own.length > 0)
        problems.push({ file: obligationsFile, field: `obligations[${i}].executable`, message: `${o.id} is executable: false but has ${violation ? 'a violation' : 'acceptance tests'}` });
      return { id: o.id, status: 'not-executable', tests: own, note: o.reason };
    }
    if (violation && own.length > 0) return { id: o.id, status: 'executable', violation, tests: own, ...(also.get(o.id)?.length ? { also: also.get(o.id) } : {}) };
    if (!violation && own.length === 0) return { id: o.id, status: 'missing', tests: [] };
    const note = violation ? `${o.id} has a violation but no acceptance test marked with it` : `${o.id} has acceptance tests but no obligations/${o.id}/${VIOLATION_FILE}`;
    problems.push({ file: obligationsFile, field: `obligations[${i}]`, message: note });
    return { id: o.id, status: 'incomplete', ...(violation ? { violation } : {}), tests: own, note };
  });
  return { taskId, ...(fs.existsSync(accAbs) ? { acceptance: accAbs } : {}), tests, forms, problems };
}
