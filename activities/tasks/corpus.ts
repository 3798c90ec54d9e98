/**
 * `lockin tasks check` as an activity: validates task folders and runs every check of check.ts
 * with the inputs it needs from disk (the database manifest, the reference schemas, the query
 * texts). docs/protocol.md §1.
 */
import * as fs from 'fs';
import * as path from 'path';
import { databaseDir, referencesDir, tasksRoot, referencePaths } from '../common/paths';
import {
  checkOutputAgainstReference,
  checkRulesAgainstReference,
  checkTablesAgainstManifest,
  checkTaskSelf,
  leakCheck,
  locateLeak,
  queryAliases,
  sqlFragmentProblems,
  sqlFragments,
  type SqlFragmentKind,
} from './check';
import YAML from 'yaml';
import { eligibilitySummary, loadEligibility } from './eligibility';
import { readTaskForms } from './executable';
import { unswappableColumns } from './columns';
import { GOLD_SOLUTION } from './violation';
import { displayPath, listTaskIds, loadTaskFolder, TaskLoadError, type LoadedTask, type TaskProblem } from './load';
import { readQueryTexts } from './queryTexts';
import { checkEvaluationKeys, evaluationFile, loadEvaluationSpec } from './evaluation';
import { OBLIGATION_CLASSES, OBLIGATION_KINDS } from '../../protocol/corpus';
import { conventionNullable, manifestTables, structColumns, TPCDS_PRIMARY_KEYS, type ColumnType } from './sparkTypes';

/** The verdict of one task. */

/** The problems of unswappableColumns for a loaded task (none without a gold solution), naming obligations.yaml and the obligation's field. */
function swapReachProblems(t: LoadedTask): TaskProblem[] {
  const gold = path.join(t.dir, GOLD_SOLUTION);
  if (!fs.existsSync(gold)) return [];
  const index = new Map(t.obligations.obligations.map((o, i) => [o.id, i]));
  return unswappableColumns(t.obligations.obligations, t.task, fs.readFileSync(gold, 'utf8')).map(({ id, column }) => ({
    file: t.obligationsFile,
    field: `obligations[${index.get(id)}].statement`,
    message: `${id} names ${column}, which ${GOLD_SOLUTION} never names as a whole word, so the discrimination check cannot swap it: name the column literally in gold, or give ${id} a \`columns:\` list of the columns it is about`,
  }));
}

export interface TaskCheckResult {
  taskId: string;
  ok: boolean;
  problems: TaskProblem[];
  /** Obligation counts (0 when the task did not load). */
  obligations: number;
  /** Which optional checks ran. */
  checked: { manifest: boolean; reference: boolean; leak: boolean };
}

/** The report of a corpus check. */
export interface CorpusCheckReport {
  scale: number;
  tasks: TaskCheckResult[];
  /** summary: eligibilitySummary of the file when it loads. */
  eligibility: { checked: boolean; entries: number; problems: TaskProblem[]; summary?: string };
  totals: {
    tasks: number;
    ok: number;
    obligations: number;
    byClass: Record<string, number>;
    byKind: Record<string, number>;
    /** SQL fragments flagged in the prompts, per kind (check.ts sqlFragments). */
    sqlFragments: Record<SqlFragmentKind, number>;
  };
  notes: string[];
}

/** Reads a JSON file, or undefined when missing. @throws Error naming the file when it is not JSON. */
function readJson(p: string): unknown | undefined {
  if (!fs.existsSync(p)) return undefined;
  try {
    return JSON.parse(fs.readFileSync(p, 'utf8'));
  } catch (e) {
    throw new Error(`${p}: not valid JSON (${(e as Error).message})`);
  }
}

/**
 * Nullability of task.yaml columns against the corpus convention (a `*_sk` in its table's primary
 * key is NOT NULL; every other column nullable). Used because the manifest is written from
 * Parquet reads, which mark every column nullable.
 */
export function checkConventionNullability(t: Pick<LoadedTask, 'task' | 'taskFile'>): TaskProblem[] {
  const out: TaskProblem[] = [];
  t.task.tables.forEach((tb, i) =>
    tb.columns.forEach((c, j) => {
      const want = conventionNullable(tb.name, c.name);
      if (c.nullable !== want)
        out.push({
          file: t.taskFile,
          field: `tables[${i}].columns[${j}].nullable`,
          message: `${tb.name}.${c.name} should be nullable: ${want} (a *_sk column of the table's primary key is NOT NULL, every other column nullable)`,
        });
    }),
  );
  return out;
}

/** The leak problem of one task.yaml text against its query text, or null (see check.ts LEAK_NGRAM). */
export function leakProblem(file: string, taskId: string, taskText: string, queryText: string): TaskProblem | null {
  const leak = leakCheck(taskText, queryText);
  if (!leak.leak) return null;
  let fields: string[] = [];
  try {
    fields = locateLeak(YAML.parse(taskText), queryText);
  } catch {
    /* unparseable YAML: report the whole file */
  }
  return {
    file,
    field: fields.join(', '),
    message: `reference SQL leak: ${leak.shared} shared ${leak.n}-token runs with the ${taskId} query text (threshold ${leak.threshold}), e.g. "${leak.examples[0]}"`,
  };
}

/**
 * Checks task folders of the corpus.
 * Inputs: the scale whose manifest and reference schemas are used (checks that need a missing
 * file are skipped and a note says so); variant ids (default: every task folder); corpus root.
 * Returns: the CorpusCheckReport (never throws on a bad task: its problems are in the report).
 */
export async function checkCorpus(opts: { scale: number; ids?: string[]; root?: string; skipLeak?: boolean }): Promise<CorpusCheckReport> {
  const root = opts.root ?? tasksRoot();
  const ids = opts.ids && opts.ids.length > 0 ? opts.ids : listTaskIds(root);
  const notes: string[] = [];
  const manifestPath = path.join(databaseDir(opts.scale), 'manifest.json');
  const manifestRaw = readJson(manifestPath);
  const manifest = manifestRaw === undefined ? undefined : manifestTables(manifestRaw);
  if (!manifest) notes.push(`no database manifest at ${displayPath(manifestPath)}: table/type checks against the database skipped (\`npx lockin data prepare --scale ${opts.scale}\` builds it)`);
  // Parquet reads mark every column nullable: only a manifest with some NOT NULL column says anything about nullability.
  const manifestHasNullability = !!manifest && [...manifest.values()].some((cols) => cols.some((c) => !c.nullable));
  let texts: Record<string, string> = {};
  if (!opts.skipLeak) {
    try {
      texts = await readQueryTexts(ids);
    } catch (e) {
      notes.push(`query texts unavailable (${(e as Error).message}): leak check skipped`);
    }
  }
  const results: TaskCheckResult[] = [];
  const byClass: Record<string, number> = Object.fromEntries(OBLIGATION_CLASSES.map((c) => [c, 0]));
  const byKind: Record<string, number> = Object.fromEntries(OBLIGATION_KINDS.map((k) => [k, 0]));
  const refsMissing: string[] = [];
  const fragments: Record<SqlFragmentKind, number> = { 'column-predicate': 0, 'literal-expression': 0, 'query-alias': 0, 'reference-mention': 0 };
  const tableNames = new Set(Object.keys(TPCDS_PRIMARY_KEYS));
  for (const taskId of ids) {
    const checked = { manifest: false, reference: false, leak: false };
    let loaded: LoadedTask;
    try {
      loaded = loadTaskFolder(path.join(root, taskId));
    } catch (e) {
      const problems = e instanceof TaskLoadError ? [...e.problems] : [{ file: displayPath(path.join(root, taskId)), field: '', message: (e as Error).message }];
      const rawPath = path.join(root, taskId, 'task.yaml');
      if (texts[taskId] !== undefined && fs.existsSync(rawPath)) {
        checked.leak = true;
        const p = leakProblem(displayPath(rawPath), taskId, fs.readFileSync(rawPath, 'utf8'), texts[taskId]);
        if (p) problems.push(p);
      }
      results.push({ taskId, ok: false, problems, obligations: 0, checked });
      continue;
    }
    const problems = [...checkTaskSelf(loaded), ...checkConventionNullability(loaded), ...readTaskForms(loaded.dir, taskId, loaded.obligations.obligations, loaded.obligationsFile).problems, ...swapReachProblems(loaded)];
    if (manifest) {
      checked.manifest = true;
      problems.push(...checkTablesAgainstManifest(loaded, manifest, manifestHasNullability));
    }
    const refSchemaPath = referencePaths(referencesDir(opts.scale), taskId).schema;
    const refSchema = readJson(refSchemaPath);
    if (refSchema !== undefined) {
      const cols: ColumnType[] | null = structColumns(refSchema);
      if (!cols) problems.push({ file: displayPath(refSchemaPath), field: '', message: 'not a Spark StructType JSON' });
      else {
        checked.reference = true;
        problems.push(...checkOutputAgainstReference(loaded, cols));
        problems.push(...checkRulesAgainstReference(loaded.obligations.obligations, cols, loaded.obligationsFile));
        problems.push(...evaluationProblems(taskId, root, cols.map((c) => c.name)));
      }
    } else refsMissing.push(taskId);
    const text = texts[taskId];
    if (text !== undefined) {
      checked.leak = true;
      const p = leakProblem(loaded.taskFile, taskId, loaded.taskText, text);
      if (p) problems.push(p);
    } else if (!opts.skipLeak && Object.keys(texts).length > 0) notes.push(`${taskId}: no query text found: leak check skipped`);
    // SQL fragments in the prose (the query's aliases only when its text is at hand).
    const found = sqlFragments(YAML.parse(loaded.taskText), text === undefined ? [] : queryAliases(text, tableNames));
    for (const f of found) fragments[f.kind]++;
    problems.push(...sqlFragmentProblems(loaded.taskFile, found));
    for (const o of loaded.obligations.obligations) {
      byClass[o.class] = (byClass[o.class] ?? 0) + 1;
      byKind[o.kind] = (byKind[o.kind] ?? 0) + 1;
    }
    results.push({ taskId, ok: problems.length === 0, problems, obligations: loaded.obligations.obligations.length, checked });
  }
  if (refsMissing.length > 0) notes.push(`${refsMissing.length} task(s) without a reference schema under ${displayPath(referencesDir(opts.scale))} (${refsMissing.join(', ')}): output checks skipped for them`);
  const elig = loadEligibility(root);
  const totals = {
    tasks: results.length,
    ok: results.filter((r) => r.ok).length,
    obligations: results.reduce((s, r) => s + r.obligations, 0),
    byClass,
    byKind,
    sqlFragments: fragments,
  };
  return {
    scale: opts.scale,
    tasks: results,
    eligibility: { checked: true, entries: elig.value?.variants.length ?? 0, problems: elig.problems, summary: elig.value ? eligibilitySummary(elig.value) : undefined },
    totals,
    notes,
  };
}

/** evaluation.yaml problems of one task (invalid file, keys that are not reference columns); none without the file. */
function evaluationProblems(taskId: string, root: string, referenceColumns: string[]): TaskProblem[] {
  try {
    const spec = loadEvaluationSpec(taskId, root);
    return spec ? checkEvaluationKeys(spec, referenceColumns, displayPath(evaluationFile(taskId, root))) : [];
  } catch (e) {
    if (e instanceof TaskLoadError) return [...e.problems];
    throw e;
  }
}
