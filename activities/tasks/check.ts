/**
 * Pure checks on a loaded task (docs/protocol.md §1 "task.yaml ... never reveals SQL text";
 * "A prompt-inferable obligation cites the task.yaml passage it follows from"; §3 leak control).
 * No I/O here: the caller passes the texts, the database manifest and the reference schema.
 */
import type { LoadedTask, TaskProblem } from './load';
import type { ColumnType } from './sparkTypes';

/**
 * Every prompt-inferable obligation's `passage` must be an exact substring of the task.yaml text.
 * Inputs: the raw task.yaml text, the obligations, the display name of obligations.yaml.
 * Returns: one problem per passage not found (field obligations[i].passage).
 */
export function checkPassages(
  taskText: string,
  obligations: ReadonlyArray<{ id: string; class: string; passage?: string }>,
  obligationsFile: string,
  taskFile = 'task.yaml',
): TaskProblem[] {
  const out: TaskProblem[] = [];
  obligations.forEach((o, i) => {
    if (o.class !== 'prompt-inferable' || o.passage === undefined) return;
    if (!taskText.includes(o.passage))
      out.push({
        file: obligationsFile,
        field: `obligations[${i}].passage`,
        message: `${o.id}: the passage is not an exact substring of ${taskFile}: "${o.passage.slice(0, 80)}"`,
      });
  });
  return out;
}

/**
 * Obligation ids must be unique within a task.
 * Returns: one problem per repeated id (at its second and later occurrences).
 */
export function checkObligationIds(obligations: ReadonlyArray<{ id: string }>, obligationsFile: string): TaskProblem[] {
  const seen = new Map<string, number>();
  const out: TaskProblem[] = [];
  obligations.forEach((o, i) => {
    const first = seen.get(o.id);
    if (first !== undefined)
      out.push({ file: obligationsFile, field: `obligations[${i}].id`, message: `duplicate id ${o.id} (first at obligations[${first}])` });
    else seen.set(o.id, i);
  });
  return out;
}

/**
 * Leak check parameters (documented in tasks/README.md):
 * - tokens: lower-cased identifiers/words ([a-z_][a-z0-9_]*), numbers, and the SQL operators and
 *   punctuation = <> != <= >= < > ( ) , * + - / ; quotes, dots, colons, dashes of YAML lists and
 *   SQL comments are dropped (`--` comment lines of the query text are removed first);
 * - n = 8 consecutive tokens;
 * - a leak is reported when the task.yaml text and the query text share at least
 *   LEAK_THRESHOLD = 2 distinct 8-grams, i.e. any verbatim run of 9 or more query tokens
 *   (or two separate 8-token runs). Prose that names the same columns and values in its own
 *   words shares short runs only (a join "ss_item_sk = i_item_sk" is 3 tokens).
 */
export const LEAK_NGRAM = 8;
export const LEAK_THRESHOLD = 2;

/** Tokenizes text for the leak check (see LEAK_NGRAM). Returns the token list. */
export function leakTokens(text: string): string[] {
  const noComments = text.replace(/--[^\n]*/g, ' ');
  const re = /[a-z_][a-z0-9_]*|\d+(?:\.\d+)?|<>|!=|<=|>=|[=<>(),*+\/-]/g;
  return (noComments.toLowerCase().match(re) ?? []).filter((t) => t !== '-');
}

/** The set of n-grams (joined by a space) of a token list. */
export function ngrams(tokens: readonly string[], n: number): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + n <= tokens.length; i++) out.add(tokens.slice(i, i + n).join(' '));
  return out;
}

/** The result of a leak check of one task.yaml against one query text. */
export interface LeakResult {
  /** Distinct n-grams the two texts share. */
  shared: number;
  /** True when shared >= threshold. */
  leak: boolean;
  /** Up to 3 shared n-grams, to show the author where. */
  examples: string[];
  n: number;
  threshold: number;
}

/**
 * Token n-gram overlap between a task.yaml text and a reference query text.
 * Inputs: both texts; n and threshold (defaults LEAK_NGRAM, LEAK_THRESHOLD).
 * Returns: the LeakResult. Pure.
 */
export function leakCheck(taskText: string, queryText: string, n = LEAK_NGRAM, threshold = LEAK_THRESHOLD): LeakResult {
  const q = ngrams(leakTokens(queryText), n);
  const t = ngrams(leakTokens(taskText), n);
  const shared: string[] = [];
  for (const g of t) if (q.has(g)) shared.push(g);
  return { shared: shared.length, leak: shared.length >= threshold, examples: shared.slice(0, 3), n, threshold };
}

/**
 * Locates a leak: the field paths of the task.yaml string values that share at least one
 * n-gram with the query text (e.g. "notes[0]", "filters[2]").
 * Inputs: the parsed task.yaml value (any JSON-like value), the query text.
 * Returns: the paths, in document order (empty when the shared runs span several values).
 */
export function locateLeak(value: unknown, queryText: string, n = LEAK_NGRAM): string[] {
  const q = ngrams(leakTokens(queryText), n);
  const out: string[] = [];
  const walk = (v: unknown, p: string) => {
    if (typeof v === 'string') {
      for (const g of ngrams(leakTokens(v), n)) if (q.has(g)) return void out.push(p || '(top level)');
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${p}[${i}]`));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, p ? `${p}.${k}` : k);
  };
  walk(value, '');
  return out;
}

/**
 * Input tables of task.yaml against the database manifest: every listed table exists, every
 * listed column exists with the same type and nullability, and every column of the table is
 * listed (the convention: each table's full column list).
 * Inputs: the task, the manifest tables ({table: columns}); `checkNullability` false skips the
 * nullability comparison (a manifest written from Parquet reads marks every column nullable).
 * Returns: problems naming task.yaml fields (tables[i].columns[j].type ...).
 */
export function checkTablesAgainstManifest(
  task: Pick<LoadedTask, 'task' | 'taskFile'>,
  manifest: ReadonlyMap<string, ColumnType[]>,
  checkNullability = true,
): TaskProblem[] {
  const out: TaskProblem[] = [];
  const file = task.taskFile;
  task.task.tables.forEach((t, i) => {
    const cols = manifest.get(t.name);
    if (!cols) {
      out.push({ file, field: `tables[${i}].name`, message: `table "${t.name}" is not in the database manifest` });
      return;
    }
    const byName = new Map(cols.map((c) => [c.name.toLowerCase(), c]));
    const listed = new Set<string>();
    t.columns.forEach((c, j) => {
      listed.add(c.name.toLowerCase());
      const m = byName.get(c.name.toLowerCase());
      if (!m) {
        out.push({ file, field: `tables[${i}].columns[${j}].name`, message: `column "${c.name}" is not in table ${t.name} of the database manifest` });
        return;
      }
      if (m.type !== c.type)
        out.push({ file, field: `tables[${i}].columns[${j}].type`, message: `${t.name}.${c.name} is ${c.type} here but ${m.type} in the database` });
      if (checkNullability && m.nullable !== c.nullable)
        out.push({ file, field: `tables[${i}].columns[${j}].nullable`, message: `${t.name}.${c.name} is nullable: ${c.nullable} here but ${m.nullable} in the database` });
    });
    const missing = cols.filter((c) => !listed.has(c.name.toLowerCase())).map((c) => c.name);
    if (missing.length > 0)
      out.push({ file, field: `tables[${i}].columns`, message: `${t.name} lacks ${missing.length} column(s) of the database table: ${missing.join(', ')}` });
  });
  return out;
}

/**
 * Output columns declared with a name and/or a type against the reference schema, by position:
 * output.columns[k] describes the reference's k-th column. The column count must match; a
 * declared name must equal the reference's (lower-cased), a declared type must equal its type.
 * Inputs: the task; the reference columns (from referencesDir(S)/<taskId>/schema.json).
 * Returns: problems naming task.yaml fields (output.columns[k].name ...).
 */
export function checkOutputAgainstReference(task: Pick<LoadedTask, 'task' | 'taskFile'>, reference: readonly ColumnType[]): TaskProblem[] {
  const out: TaskProblem[] = [];
  const file = task.taskFile;
  const cols = task.task.output.columns;
  if (cols.length !== reference.length)
    out.push({ file, field: 'output.columns', message: `describes ${cols.length} column(s) but the reference has ${reference.length}` });
  cols.forEach((c, k) => {
    const r = reference[k];
    if (!r) return;
    if (c.name !== undefined && c.name.toLowerCase() !== r.name.toLowerCase())
      out.push({ file, field: `output.columns[${k}].name`, message: `is "${c.name}" but the reference's column ${k} is "${r.name}"` });
    if (c.type !== undefined && c.type !== r.type)
      out.push({ file, field: `output.columns[${k}].type`, message: `is ${c.type} but the reference's column ${k} (${r.name}) is ${r.type}` });
  });
  return out;
}

/**
 * The structural checks that need nothing but the loaded task: passages and unique ids.
 * Returns: problems (empty when the task is consistent).
 */
export function checkTaskSelf(t: LoadedTask): TaskProblem[] {
  return [
    ...checkPassages(t.taskText, t.obligations.obligations, t.obligationsFile, t.taskFile),
    ...checkObligationIds(t.obligations.obligations, t.obligationsFile),
  ];
}

/**
 * Every obligation `rule` must hold on the reference schema (a rule states what the reference
 * requires, so the reference satisfies it by construction): column-name -> the reference's
 * column at `position` has that name; column-type -> the reference column of that name has that
 * type (and, with `position`, is at that position); columns -> every listed name is a reference column (with exact: the reference's columns
 * are the listed names in order). Names compare lower-cased.
 * Inputs: obligations, the reference columns, the display name of obligations.yaml.
 * Returns: one problem per rule the reference violates (field obligations[i].rule).
 */
export function checkRulesAgainstReference(
  obligations: ReadonlyArray<{ id: string; rule?: { kind: string; position?: number; name?: string; type?: string; names?: string[]; exact?: boolean } }>,
  reference: readonly ColumnType[],
  obligationsFile: string,
): TaskProblem[] {
  const out: TaskProblem[] = [];
  const names = reference.map((c) => c.name.toLowerCase());
  obligations.forEach((o, i) => {
    const r = o.rule;
    if (!r) return;
    const field = `obligations[${i}].rule`;
    if (r.kind === 'column-name') {
      const got = names[r.position ?? -1];
      if (got !== r.name?.toLowerCase())
        out.push({ file: obligationsFile, field, message: `${o.id}: the reference's column ${r.position} is ${got === undefined ? 'missing' : `"${got}"`}, not "${r.name}"` });
    } else if (r.kind === 'column-type') {
      const col = reference.find((c) => c.name.toLowerCase() === r.name?.toLowerCase());
      if (!col) out.push({ file: obligationsFile, field, message: `${o.id}: the reference has no column "${r.name}"` });
      else if (col.type !== r.type) out.push({ file: obligationsFile, field, message: `${o.id}: the reference's ${col.name} is ${col.type}, not ${r.type}` });
      else if (r.position !== undefined && names[r.position] !== r.name?.toLowerCase())
        out.push({ file: obligationsFile, field, message: `${o.id}: position ${r.position}: the reference's column ${r.position} is ${names[r.position] === undefined ? 'missing' : `"${names[r.position]}"`}, not "${r.name}" (it is column ${names.indexOf(col.name.toLowerCase())})` });
    } else if (r.kind === 'columns') {
      const missing = (r.names ?? []).filter((n) => !names.includes(n.toLowerCase()));
      if (missing.length > 0) out.push({ file: obligationsFile, field, message: `${o.id}: the reference has no column(s) ${missing.join(', ')}` });
      else if (r.exact) {
        const want = (r.names ?? []).map((n) => n.toLowerCase());
        if (want.length !== names.length || want.some((n, j) => names[j] !== n))
          out.push({ file: obligationsFile, field, message: `${o.id}: exact: the reference's columns are [${names.join(', ')}], not [${want.join(', ')}]` });
      }
    }
  });
  return out;
}

/** The kinds of SQL fragment the prompt check flags (tasks/README.md "task.yaml rules"). */
export type SqlFragmentKind = 'column-predicate' | 'literal-expression' | 'query-alias' | 'reference-mention';

/** One SQL fragment found in a task.yaml prose value. */
export interface SqlFragment {
  kind: SqlFragmentKind;
  /** The task.yaml field path (e.g. "joins[2]", "output.columns[3].description"). */
  field: string;
  /** The fragment as written. */
  text: string;
}

/** Fields of task.yaml that are not prose: the input schemas, declared output names/types, ids. */
const NOT_PROSE = [/^tables(\[|$)/, /^output\.columns\[\d+\]\.(name|type)$/, /^(id|artifacts|limit)(\[|$)/];

const IDENT = '(?:[a-z_][a-z0-9_]*\\.)?[a-z][a-z0-9]*_[a-z0-9_]+';
/** `a = b` (or `<>`, `!=`) between two column-like identifiers (a `_` in each), optionally table-qualified. */
const COLUMN_PREDICATE = new RegExp(`\\b${IDENT}\\s*(?:==|=|<>|!=)\\s*${IDENT}\\b`, 'gi');
/** SQL literal expressions: casts, typed decimal literals, CASE WHEN, interval arithmetic. */
const LITERAL_EXPRESSION = /\bcast\s*\([^)]*\)|\bdecimal\s*\(\s*\d+\s*,\s*\d+\s*\)|\bcase\s+when\b|\binterval\s+'?\d+'?\s+days?\b/gi;
/** Mentions of the reference the prompt must not lean on. */
const REFERENCE_MENTION = /\b(?:the\s+)?reference(?:'s)?\s+(?:report|query|sql|output|answer)s?\b|\bthe\s+(?:sql|query)\s+(?:text|itself)\b/gi;

/** Words an alias may coincide with that are English (never flagged as a query alias). */
const ENGLISH = new Set(['a', 'an', 'as', 'at', 'by', 'in', 'is', 'it', 'of', 'on', 'or', 'to', 'we', 'x', 'y', 'ty', 'ly', 'all', 'tmp', 'total', 'sales', 'returns', 'channel', 'item', 'year', 'store', 'customer', 'result', 'results', 'revenue', 'profit', 'sum', 'count']);

const SQL_KEYWORDS = new Set([
  'where', 'join', 'inner', 'left', 'right', 'full', 'outer', 'cross', 'on', 'group', 'order', 'having', 'union', 'intersect', 'except', 'minus',
  'limit', 'select', 'and', 'or', 'as', 'with', 'lateral', 'using', 'natural', 'window', 'from', 'over', 'partition', 'by', 'asc', 'desc', 'then',
  'else', 'end', 'when', 'case', 'all', 'distinct', 'not', 'in', 'exists', 'is', 'null', 'between', 'like', 'rollup', 'cube', 'grouping',
]);

/**
 * The table, derived-table and CTE aliases a query text defines (`from store_sales ss1`,
 * `customer_demographics as cd2`, `with ssales as (`, `(select …) x`), lower-cased. Column
 * aliases are not included (an output name may be stated by a prompt); neither are SQL keywords,
 * English words, one-letter aliases or the table names themselves. Pure.
 * Input: the query text; the names of the database's tables.
 */
export function queryAliases(queryText: string, tableNames: ReadonlySet<string>): string[] {
  const q = queryText.replace(/--[^\n]*/g, ' ').toLowerCase();
  const ctes = new Set<string>();
  for (const m of q.matchAll(/(?:\bwith|,)\s*([a-z_][a-z0-9_]*)\s+as\s*\(/g)) ctes.add(m[1]);
  const out = new Set<string>(ctes);
  const after = (i: number) => /^\s*(?:as\s+)?([a-z_][a-z0-9_]*)/.exec(q.slice(i))?.[1];
  // (select …) alias: the identifier after a parenthesis that opened a subquery
  const open: number[] = [];
  for (let i = 0; i < q.length; i++) {
    if (q[i] === '(') open.push(i);
    else if (q[i] === ')') {
      const o = open.pop();
      if (o !== undefined && /^\(\s*select\b/.test(q.slice(o, o + 12))) {
        const a = after(i + 1);
        if (a) out.add(a);
      }
    }
  }
  // table [as] alias, for the database's tables and the CTEs
  for (const m of q.matchAll(/\b([a-z_][a-z0-9_]*)\s+(?:as\s+)?([a-z_][a-z0-9_]*)\b/g)) if (tableNames.has(m[1]) || ctes.has(m[1])) out.add(m[2]);
  return [...out].filter((a) => a.length > 1 && !SQL_KEYWORDS.has(a) && !ENGLISH.has(a) && !tableNames.has(a)).sort();
}

/**
 * SQL fragments in the prose of a task.yaml value: column predicates (`ss_item_sk = i_item_sk`),
 * literal expressions (`decimal(15,4)`, `cast(…)`, `case when`), the query's own aliases (when
 * `aliases` is given: from queryAliases) and mentions of the reference report or query. Pure.
 * Input: the parsed task.yaml; the query's aliases (optional). Output: the fragments, in
 * document order.
 */
export function sqlFragments(value: unknown, aliases: readonly string[] = []): SqlFragment[] {
  const out: SqlFragment[] = [];
  const aliasRe = aliases.length ? new RegExp(`(?<![\\w.])(${aliases.map((a) => a.replace(/[^a-z0-9_]/g, '')).join('|')})(?![\\w(])`, 'gi') : null;
  const scan = (s: string, field: string) => {
    for (const m of s.matchAll(COLUMN_PREDICATE)) out.push({ kind: 'column-predicate', field, text: m[0] });
    for (const m of s.matchAll(LITERAL_EXPRESSION)) out.push({ kind: 'literal-expression', field, text: m[0] });
    if (aliasRe) for (const m of s.matchAll(aliasRe)) out.push({ kind: 'query-alias', field, text: m[0] });
    for (const m of s.matchAll(REFERENCE_MENTION)) out.push({ kind: 'reference-mention', field, text: m[0] });
  };
  const walk = (v: unknown, p: string) => {
    if (NOT_PROSE.some((r) => r.test(p))) return;
    if (typeof v === 'string') scan(v, p || '(top level)');
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${p}[${i}]`));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, p ? `${p}.${k}` : k);
  };
  walk(value, '');
  return out;
}

const FRAGMENT_ADVICE: Record<SqlFragmentKind, string> = {
  'column-predicate': 'say it in words ("store_sales.ss_item_sk matches item.i_item_sk")',
  'literal-expression': 'state the requirement (the precision, the condition) in words, not as a SQL expression',
  'query-alias': "the query's own alias: name the table or the role in words",
  'reference-mention': 'the prompt must stand on its own: state the requirement itself',
};

/** The problems of sqlFragments, one per fragment, naming the file and field. Pure. */
export function sqlFragmentProblems(file: string, fragments: readonly SqlFragment[]): TaskProblem[] {
  return fragments.map((f) => ({ file, field: f.field, message: `SQL fragment (${f.kind}): "${f.text}": ${FRAGMENT_ADVICE[f.kind]}` }));
}
