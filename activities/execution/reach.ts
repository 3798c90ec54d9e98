/**
 * The reach check (docs/verdicts.md "Layer 1"): before a candidate's Python files run, a static
 * reading of their text (activities/python/reach_check.py, run with the venv's Python outside
 * every sandbox; `ast.parse` executes nothing) refuses any text that reaches the process, the
 * interpreter's internals or pytest's machinery. A refused file is never run: its suite is "not
 * passed: reaches <what> (<file> line N)". The same reading enumerates the file's test functions,
 * the independent count a run's collected tests are checked against (verdict.ts).
 */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { pythonDir, venvPython } from '../common/paths';

/** One refused construct: the file (base name), its 1-based line, what it reaches, the line's text. */
export interface ReachRefusal {
  file: string;
  line: number;
  what: string;
  text: string;
}

/** What the check found in a set of files. */
export interface ReachResult {
  /** Every refusal, file by file in the order given, by line. Empty: the files may run. */
  refusals: ReachRefusal[];
  /** Per file (base name): its test functions ("test_x", "TestC::test_y"), sorted; absent for a file that does not parse. */
  tests: Record<string, string[]>;
  /** Per file: names pytest may also collect (a test defined under a condition, rebound, or bound by an assignment or import). */
  maybeTests?: Record<string, string[]>;
}

/**
 * Checks `files` (paths; missing files are skipped).
 * Returns the refusals and the test functions of each file that parses (a file that does not
 * parse has no refusal: pytest reports it as a collection error).
 * Throws Error when the checker itself cannot run (no venv, a crash of reach_check.py): lockin's
 * side, never a verdict on the candidate.
 */
export function reachCheck(files: string[]): ReachResult {
  const r = spawnSync(venvPython(), [path.join(pythonDir(), 'reach_check.py'), ...files], { encoding: 'utf8', maxBuffer: 16 << 20, timeout: 120_000 });
  if (r.status !== 0) throw new Error(`reach_check.py failed (exit ${r.status ?? r.signal}): ${(r.stderr || r.error?.message || '').slice(-2000)}`);
  const parsed = JSON.parse(r.stdout) as { files: Record<string, { refusals: Omit<ReachRefusal, 'file'>[]; tests: string[]; maybeTests?: string[]; syntaxError?: string }> };
  const out: ReachResult = { refusals: [], tests: {} };
  for (const [file, v] of Object.entries(parsed.files)) {
    out.refusals.push(...v.refusals.map((x) => ({ file, ...x })));
    if (!v.syntaxError) out.tests[file] = v.tests;
    if (!v.syntaxError && v.maybeTests?.length) (out.maybeTests ??= {})[file] = v.maybeTests;
  }
  return out;
}

/** A refusal as the run's reason: "reaches os._exit (ending the process) (test_solution.py line 12)". Pure. */
export function refusalReason(r: ReachRefusal): string {
  return `reaches ${r.what} (${r.file} line ${r.line})`;
}

/** The reason for a set of refusals: the first one, and how many more. Pure; undefined when there is none. */
export function refusalsReason(refusals: ReachRefusal[]): string | undefined {
  if (!refusals.length) return undefined;
  const more = refusals.length - 1;
  return `${refusalReason(refusals[0])}${more ? ` and ${more} more` : ''}`;
}
