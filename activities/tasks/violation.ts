/**
 * Violations stored as diffs (tasks/README.md "Executable obligations"; executable labels): the violation
 * of obligation O is `tasks/<taskId>/obligations/<O>/violation.diff`, a unified diff against the
 * task's `gold/solution.py` that shows the one change, opened by a comment line saying what it
 * breaks:
 *
 *     # Violation of O6 (a left join keeps sales whose date key matches no date) in the gold solution for q3.
 *     # Also violates O7: <why this violation cannot help breaking O7 too>     (optional, one per obligation)
 *     --- gold/solution.py
 *     +++ gold/solution.py
 *     @@ -9,7 +9,7 @@
 *     …
 *
 * It is applied (the `diff` package's applyPatch, exact context, no fuzz) whenever a violation
 * is run: `lockin obligations check` and the executable labels. Pure text functions here, plus
 * `writeViolationSolutions`, which writes the applied copies for a run.
 */
import * as fs from 'fs';
import * as path from 'path';
import { applyPatch, createTwoFilesPatch, FILE_HEADERS_ONLY, parsePatch, type StructuredPatch } from 'diff';
import { InputError } from '../common/errors';

/** The file name of a stored violation inside `obligations/<Oid>/`. */
export const VIOLATION_FILE = 'violation.diff';

/** The gold solution's path inside a task folder, as the diff's file headers name it. */
export const GOLD_SOLUTION = 'gold/solution.py';

/** A parsed violation.diff. */
export interface ParsedViolation {
  /** The header sentence without the leading "# ", e.g. "Violation of O6 (a left join …) in the gold solution for q3." */
  header: string;
  /** What the violation does: the text inside the parentheses of the header. */
  what: string;
  /** Other obligations it cannot help breaking, declared by "# Also violates O7: why" lines (tasks/README.md). */
  also: { id: string; reason: string }[];
  patch: StructuredPatch;
}

/** A violation.diff that does not parse or apply: an InputError naming the file, with the bare problem in `detail`. */
export class ViolationError extends InputError {
  constructor(
    readonly detail: string,
    file?: string,
    field?: string,
  ) {
    super(detail, file, field);
    this.name = 'ViolationError';
  }
}

const HEADER = /^Violation of (O\d+) \((.+)\) in the gold solution\b/;
const ALSO = /^Also violates (O\d+): (\S.*)$/;

/**
 * The header line of a violation: "# Violation of O6 (what) in the gold solution for q3."
 * Inputs: task id, obligation id, what the violation does (one line, no parentheses at its end).
 * @throws ViolationError (an InputError) when `what` is empty or spans lines.
 */
export function violationHeader(taskId: string, id: string, what: string): string {
  const w = what.trim();
  if (!w || /[\r\n]/.test(w)) throw new ViolationError('the violation\'s description must be one non-empty line', undefined, 'what');
  return `# Violation of ${id} (${w}) in the gold solution for ${taskId}.`;
}

/**
 * Parses the text of a violation.diff: the comment lines before the "---" file header (the
 * first reads "# Violation of <id> (<what>) in the gold solution for <taskId>."; later ones may
 * declare "# Also violates O7: why", one per obligation, or be notes) and exactly one file patch
 * with at least one hunk.
 * Inputs: the text, the file's display name (for errors), the obligation id its folder names.
 * Returns: ParsedViolation. Pure.
 * @throws ViolationError (an InputError) naming the file (and line): no or wrong header, another id than the
 *   folder's, an "Also violates" of its own id or twice the same, not a unified diff, more than
 *   one file, no hunk.
 */
export function parseViolationDiff(text: string, file: string, id: string): ParsedViolation {
  const lines = text.split('\n');
  const comments: string[] = [];
  for (const l of lines) {
    if (!l.startsWith('#')) break;
    comments.push(l.replace(/^#\s?/, '').trim());
  }
  if (comments.length === 0) throw new ViolationError(`the first line must be a comment "# Violation of ${id} (what it does) in the gold solution for <taskId>."`, file, 'line 1');
  const header = comments[0];
  const also: { id: string; reason: string }[] = [];
  comments.slice(1).forEach((c, i) => {
    const a = ALSO.exec(c);
    if (!a) {
      if (/^also violates/i.test(c)) throw new ViolationError('write "# Also violates O7: why" (one obligation id, a colon, the reason)', file, `line ${i + 2}`);
      return;
    }
    if (a[1] === id) throw new ViolationError(`"Also violates ${id}" names the violation's own obligation`, file, `line ${i + 2}`);
    if (also.some((x) => x.id === a[1])) throw new ViolationError(`"Also violates ${a[1]}" twice`, file, `line ${i + 2}`);
    also.push({ id: a[1], reason: a[2].trim() });
  });
  const m = HEADER.exec(header);
  if (!m) throw new ViolationError(`the header must read "Violation of ${id} (what it does) in the gold solution for <taskId>.", found: ${header.slice(0, 120)}`, file, 'line 1');
  if (m[1] !== id) throw new ViolationError(`the header names ${m[1]}, but the folder is ${id}`, file, 'line 1');
  let patches: StructuredPatch[];
  try {
    patches = parsePatch(lines.slice(comments.length).join('\n'));
  } catch (err) {
    throw new ViolationError(`not a unified diff: ${(err as Error).message}`, file);
  }
  const withHunks = patches.filter((p) => p.hunks.length > 0);
  if (withHunks.length === 0) throw new ViolationError(`no hunk: a violation changes ${GOLD_SOLUTION}`, file);
  if (patches.length > 1) throw new ViolationError(`${patches.length} file patches: a violation changes ${GOLD_SOLUTION} only`, file);
  return { header, what: m[2], also, patch: withHunks[0] };
}

/**
 * Applies a violation.diff to the gold solution's text.
 * Inputs: gold's text; the diff's text; its display name; the obligation id.
 * Returns: the violation's solution text (never equal to gold).
 * @throws ViolationError (an InputError) naming the file when the diff does not parse (parseViolationDiff), no longer
 *   applies to gold (its context or removed lines are not in gold), or changes nothing.
 */
export function applyViolation(gold: string, diffText: string, file: string, id: string): string {
  const { patch } = parseViolationDiff(diffText, file, id);
  const out = applyPatch(gold, patch);
  if (out === false) throw new ViolationError(`no longer applies to ${GOLD_SOLUTION} (a hunk's context or removed lines are not there); rewrite it with \`lockin obligations diff\``, file);
  if (out === gold) throw new ViolationError(`applied to ${GOLD_SOLUTION} it changes nothing`, file);
  return out;
}

/**
 * The text of a violation.diff: the header line, the "Also violates" lines, and the unified diff
 * (3 lines of context) from gold to the edited copy, both file headers naming gold/solution.py.
 * Inputs: task id, obligation id, what the violation does, gold's text, the edited text, the
 * other obligations it cannot help breaking (optional).
 * Returns: the diff text (ends with a newline). Pure.
 * @throws ViolationError (an InputError) when the edited text equals gold (a violation changes something).
 */
export function violationDiff(opts: { taskId: string; id: string; what: string; gold: string; edited: string; also?: ReadonlyArray<{ id: string; reason: string }> }): string {
  if (opts.edited === opts.gold) throw new ViolationError(`the edited copy is ${GOLD_SOLUTION} unchanged`, undefined, opts.id);
  const body = createTwoFilesPatch(GOLD_SOLUTION, GOLD_SOLUTION, opts.gold, opts.edited, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
  const also = (opts.also ?? []).map((a) => `# Also violates ${a.id}: ${a.reason}\n`).join('');
  return `${violationHeader(opts.taskId, opts.id, opts.what)}\n${also}${body}`;
}

/**
 * Writes the applied violation of each obligation in `ids` to `<dir>/<id>/solution.py`.
 * Inputs: the task folder (holding gold/solution.py and obligations/<id>/violation.diff), ids,
 * an output folder (created).
 * Returns: id → absolute path of the written solution.py.
 * @throws ViolationError (an InputError) naming the diff that does not parse or apply (applyViolation).
 */
export function writeViolationSolutions(taskDir: string, ids: ReadonlyArray<string>, dir: string): Map<string, string> {
  const gold = fs.readFileSync(path.join(taskDir, GOLD_SOLUTION), 'utf8');
  const out = new Map<string, string>();
  for (const id of ids) {
    const diffFile = path.join(taskDir, 'obligations', id, VIOLATION_FILE);
    const text = applyViolation(gold, fs.readFileSync(diffFile, 'utf8'), diffFile, id);
    const target = path.join(dir, id, 'solution.py');
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
    out.set(id, target);
  }
  return out;
}
