/**
 * Loads and validates one task folder of the corpus: `tasks/<taskId>/task.yaml` and
 * `tasks/<taskId>/obligations.yaml` (docs/protocol.md §1), against the zod schemas of schema.ts.
 *
 * Every problem is reported as "<file>: <field path>: <problem>", e.g.
 *   tasks/q3/task.yaml: tables[0].columns[2].type: not a Spark type name such as int, ...
 * with the file relative to the repository root when it lies inside it.
 */
import * as fs from 'fs';
import * as path from 'path';
import YAML from 'yaml';
import { z } from 'zod';
import { InputError } from '../common/errors';
import { REPO_ROOT, tasksRoot } from '../common/paths';
import { ObligationsFile, TaskSpec } from '../../protocol/corpus';

/** One validation problem: the file, the field path inside it ('' for the whole file) and what is wrong. */
export interface TaskProblem {
  file: string;
  field: string;
  message: string;
}

/** Formats a problem as "<file>: <field>: <message>" (the field part is left out when empty). */
export function formatProblem(p: TaskProblem): string {
  return p.field ? `${p.file}: ${p.field}: ${p.message}` : `${p.file}: ${p.message}`;
}

/** A task folder that failed to load; `problems` lists every problem found (never empty). */
export class TaskLoadError extends InputError {
  constructor(readonly problems: TaskProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'TaskLoadError';
  }
}

/** A loaded, schema-valid task folder. */
export interface LoadedTask {
  /** The variant id, e.g. "q3" (the folder name; equals task.yaml `id`). */
  taskId: string;
  /** Absolute folder path. */
  dir: string;
  /** Display paths (repo-relative when inside the repo). */
  taskFile: string;
  obligationsFile: string;
  /** The raw task.yaml text (passages are checked against it). */
  taskText: string;
  task: TaskSpec;
  obligations: ObligationsFile;
}

/** A display path: relative to the repository root when inside it, else absolute. */
export function displayPath(p: string): string {
  const rel = path.relative(REPO_ROOT, path.resolve(p));
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : path.resolve(p);
}

/**
 * Renders a zod issue path as a field path: ['tables', 0, 'columns', 2, 'type'] -> "tables[0].columns[2].type".
 * An empty path renders as "(top level)".
 */
export function fieldPath(p: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const seg of p) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${String(seg)}` : String(seg);
  }
  return out || '(top level)';
}

/** Converts zod issues into problems naming the file and field. */
export function zodProblems(file: string, error: z.ZodError): TaskProblem[] {
  return error.issues.map((i) => ({ file, field: fieldPath(i.path), message: i.message }));
}

/**
 * Parses a YAML text and validates it with a zod schema.
 * Inputs: the display file name (for messages), the text, the schema.
 * Returns: {value} on success, {problems} otherwise (YAML syntax errors carry line:col).
 */
export function parseYamlWith<T extends z.ZodTypeAny>(
  file: string,
  text: string,
  schema: T,
): { value: z.infer<T>; problems: [] } | { value?: undefined; problems: TaskProblem[] } {
  const doc = YAML.parseDocument(text);
  if (doc.errors.length > 0) {
    return {
      problems: doc.errors.map((e) => ({
        file,
        field: e.linePos ? `line ${e.linePos[0].line}:${e.linePos[0].col}` : '',
        message: `YAML syntax error: ${e.message.split('\n')[0]}`,
      })),
    };
  }
  const data = doc.toJS();
  if (data === null || data === undefined) return { problems: [{ file, field: '', message: 'the file is empty' }] };
  const res = schema.safeParse(data);
  if (!res.success) return { problems: zodProblems(file, res.error) };
  return { value: res.data, problems: [] };
}

/** Reads a file, or returns a problem naming it when it is missing. */
function readText(abs: string, display: string): { text?: string; problem?: TaskProblem } {
  if (!fs.existsSync(abs)) return { problem: { file: display, field: '', message: 'file missing' } };
  return { text: fs.readFileSync(abs, 'utf8') };
}

/**
 * Loads `<dir>/task.yaml` and `<dir>/obligations.yaml` and validates both (zod), plus the
 * identity fields: task.yaml `id` and obligations.yaml `task` must equal the folder name.
 * Inputs: the task folder (absolute or relative path).
 * Returns: the LoadedTask.
 * @throws TaskLoadError listing every problem, each naming the file, the field path and the problem.
 */
export function loadTaskFolder(dir: string): LoadedTask {
  const abs = path.resolve(dir);
  const taskId = path.basename(abs);
  const taskAbs = path.join(abs, 'task.yaml');
  const oblAbs = path.join(abs, 'obligations.yaml');
  const taskFile = displayPath(taskAbs);
  const obligationsFile = displayPath(oblAbs);
  const problems: TaskProblem[] = [];

  const t = readText(taskAbs, taskFile);
  const o = readText(oblAbs, obligationsFile);
  let task: TaskSpec | undefined;
  let obligations: ObligationsFile | undefined;
  if (t.problem) problems.push(t.problem);
  else {
    const r = parseYamlWith(taskFile, t.text!, TaskSpec);
    problems.push(...r.problems);
    task = r.value;
    if (task && task.id !== taskId)
      problems.push({ file: taskFile, field: 'id', message: `is "${task.id}" but the folder is "${taskId}"` });
  }
  if (o.problem) problems.push(o.problem);
  else {
    const r = parseYamlWith(obligationsFile, o.text!, ObligationsFile);
    problems.push(...r.problems);
    obligations = r.value;
    if (obligations && obligations.task !== taskId)
      problems.push({ file: obligationsFile, field: 'task', message: `is "${obligations.task}" but the folder is "${taskId}"` });
  }
  if (problems.length > 0 || !task || !obligations) throw new TaskLoadError(problems);
  return { taskId, dir: abs, taskFile, obligationsFile, taskText: t.text!, task, obligations };
}

/**
 * Lists the task folders of the corpus: sub-folders of `root` named like a variant (q3, q14a)
 * that contain a task.yaml, sorted by query number then suffix.
 * Inputs: the corpus root (default tasksRoot()). Returns: variant ids.
 */
export function listTaskIds(root: string = tasksRoot()): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^q\d+[ab]?$/.test(d.name) && fs.existsSync(path.join(root, d.name, 'task.yaml')))
    .map((d) => d.name)
    .sort(compareVariantIds);
}

/** Orders variant ids numerically: q2 < q10 < q14a < q14b. */
export function compareVariantIds(a: string, b: string): number {
  const pa = /^q(\d+)([ab]?)$/.exec(a);
  const pb = /^q(\d+)([ab]?)$/.exec(b);
  if (!pa || !pb) return a.localeCompare(b);
  return Number(pa[1]) - Number(pb[1]) || pa[2].localeCompare(pb[2]);
}

/**
 * Loads task `taskId` from the corpus root.
 * @throws TaskLoadError (folder missing or invalid).
 */
export function loadTask(taskId: string, root: string = tasksRoot()): LoadedTask {
  const dir = path.join(root, taskId);
  if (!fs.existsSync(path.join(dir, 'task.yaml')) && !fs.existsSync(dir))
    throw new TaskLoadError([{ file: displayPath(dir), field: '', message: `no task folder for ${taskId}` }]);
  return loadTaskFolder(dir);
}
