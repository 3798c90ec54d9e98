/**
 * The input columns an obligation names, their plausible alternatives, and the column swaps of
 * gold that the discrimination check runs (tasks/README.md "Discriminating fixtures"; the
 * paper's "As a practical first step": discriminating fixtures, "unequal price fields for metric
 * substitutions").
 *
 * Definitions (pure; the corpus files are passed in):
 *   - the columns of an obligation: its `columns` field when given, else every input column of
 *     the task whose name appears as a word in its statement;
 *   - the same-typed alternatives of a column: every other column of the same input table with
 *     the same Spark type (what a candidate could read instead and still run);
 *   - a column's family (its *plausible* alternatives, the substitutions candidates make): the
 *     same-typed columns of the same table that play the same role: the money columns
 *     (decimals: list / sales / ext_sales / ext_list / net_paid / net_profit / wholesale cost …),
 *     the date keys (`*_date_sk`: sold / ship / returned …), the time keys, and the bill / ship /
 *     returning customer, demographics, household and address keys. A family has two or more
 *     members; any other column has none.
 * Acceptance fixtures read these through tables.json (lockin_acceptance.TaskTables): a column
 * the running test's obligations name gets family members that differ from it, every other
 * family member copies the column the row names (so a substitution shows in the tests of the
 * obligation it breaks, and in no other).
 */
import type { Obligation, TaskSpec } from '../../protocol/corpus';

/** One input column of a task: its table, type and position in the table. */
export interface InputColumn {
  table: string;
  name: string;
  type: string;
  position: number;
}

/** Every input column of the task by name (TPC-DS column names are unique across tables). */
export function inputColumns(task: Pick<TaskSpec, 'tables'>): Map<string, InputColumn> {
  const out = new Map<string, InputColumn>();
  for (const t of task.tables) t.columns.forEach((c, position) => out.set(c.name, { table: t.name, name: c.name, type: c.type, position }));
  return out;
}

/**
 * The input columns obligation `ob` names, in order of first mention: `ob.columns` when the
 * obligation gives them, else the task's input column names that occur as whole words in its
 * statement. Names not among the task's columns are ignored.
 */
export function obligationColumns(ob: Pick<Obligation, 'statement'> & { columns?: string[] }, task: Pick<TaskSpec, 'tables'>): string[] {
  const cols = inputColumns(task);
  if (ob.columns) return ob.columns.filter((c) => cols.has(c));
  const found: { name: string; at: number }[] = [];
  for (const name of cols.keys()) {
    const m = new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`).exec(ob.statement);
    if (m) found.push({ name, at: m.index });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.name);
}

/**
 * The columns an executable obligation names that gold never names as a whole word, so the
 * discrimination check cannot swap them (swapColumn replaces whole words: a column built by an
 * f-string, `f"{p}_list_price"`, or one the statement names only as the wrong alternative, is out
 * of its reach and the obligation would pass the check without a swap). Fix by naming the column
 * literally in gold or by giving the obligation a `columns:` list (tasks/README.md
 * "Discriminating fixtures").
 * Inputs: the obligations (those with `executable: false` are skipped), the task's tables,
 * gold/solution.py's text. Returns one entry per (obligation, column), in obligation order. Pure.
 */
export function unswappableColumns(
  obligations: ReadonlyArray<Pick<Obligation, 'id' | 'statement'> & { columns?: string[]; executable?: boolean }>,
  task: Pick<TaskSpec, 'tables'>,
  goldText: string,
): { id: string; column: string }[] {
  const out: { id: string; column: string }[] = [];
  for (const ob of obligations) {
    if (ob.executable === false) continue;
    for (const column of obligationColumns(ob, task)) if (swapColumn(goldText, column, column) === null) out.push({ id: ob.id, column });
  }
  return out;
}

/** The role suffixes whose columns form a family within one table (after the money columns). */
const KEY_ROLES = ['_date_sk', '_time_sk', '_customer_sk', '_cdemo_sk', '_hdemo_sk', '_addr_sk'] as const;

/**
 * The family key of a column within its table: `money:<type>` for a decimal, `key:<role>` for a
 * role key (KEY_ROLES), else null. Two columns of one table with the same key are plausible
 * alternatives of each other.
 */
export function familyKey(name: string, type: string): string | null {
  if (type.startsWith('decimal')) return `money:${type}`;
  if (type !== 'int') return null;
  const role = KEY_ROLES.find((r) => name.endsWith(r));
  return role ? `key:${role}` : null;
}

/**
 * The families of every input table: table name → lists of two or more column names (table
 * order) sharing a family key. Written into tables.json for the acceptance fixtures.
 */
export function columnFamilies(task: Pick<TaskSpec, 'tables'>): Record<string, string[][]> {
  const out: Record<string, string[][]> = {};
  for (const t of task.tables) {
    const byKey = new Map<string, string[]>();
    for (const c of t.columns) {
      const k = familyKey(c.name, c.type);
      if (k) byKey.set(k, [...(byKey.get(k) ?? []), c.name]);
    }
    const fams = [...byKey.values()].filter((f) => f.length >= 2);
    if (fams.length) out[t.name] = fams;
  }
  return out;
}

/** A same-typed alternative of a column; `plausible` when it is of the column's family. */
export interface Alternative {
  column: string;
  plausible: boolean;
}

/** The same-typed alternatives of `column` in its table, in table order (empty for an unknown column). */
export function alternatives(task: Pick<TaskSpec, 'tables'>, column: string): Alternative[] {
  const c = inputColumns(task).get(column);
  if (!c) return [];
  const table = task.tables.find((t) => t.name === c.table)!;
  const key = familyKey(c.name, c.type);
  return table.columns
    .filter((x) => x.name !== column && x.type === c.type)
    .map((x) => ({ column: x.name, plausible: key !== null && familyKey(x.name, x.type) === key }));
}

/**
 * Gold with every whole-word occurrence of `from` replaced by `to` (a candidate that reads `to`
 * where the task means `from`), or null when gold does not name `from`.
 */
export function swapColumn(goldText: string, from: string, to: string): string | null {
  const re = new RegExp(`(?<![A-Za-z0-9_])${from}(?![A-Za-z0-9_])`, 'g');
  if (!re.test(goldText)) return null;
  return goldText.replace(re, to);
}

/** One swap the discrimination check runs: gold reading `to` where it reads `from`. */
export interface Swap {
  /** The variant id, `swap.<from>.<to>` (letters, digits, dot, underscore). */
  id: string;
  from: string;
  to: string;
  plausible: boolean;
  /** The obligations that name `from`: each must have a test that fails on the swap. */
  obligations: string[];
}

/**
 * Every swap of the task: for each input column an executable obligation names and gold reads,
 * each same-typed alternative of its table. One swap per (from, to) pair, listing every
 * obligation that names `from`. A swap to a column that one of those obligations also names is
 * not plausible, whatever the family: it reads one of the obligation's own inputs for another
 * (q36's gross margin sum(ss_net_profit) / sum(ss_ext_sales_price) becomes x / x = 1 on every
 * row), which no candidate's substitution is and which no fixture can keep from changing every
 * value computed from it (ranks, order), so it is checked for discrimination only, not isolation.
 */
export function taskSwaps(
  obligations: ReadonlyArray<Pick<Obligation, 'id' | 'statement'> & { columns?: string[] }>,
  task: Pick<TaskSpec, 'tables'>,
  goldText: string,
): Swap[] {
  const named = new Map<string, string[]>();
  for (const ob of obligations)
    for (const c of obligationColumns(ob, task)) named.set(c, [...(named.get(c) ?? []), ob.id]);
  const out: Swap[] = [];
  for (const [from, obs] of named) {
    if (swapColumn(goldText, from, from) === null) continue;
    for (const alt of alternatives(task, from)) {
      const sameObligation = obs.some((id) => named.get(alt.column)?.includes(id));
      out.push({ id: `swap.${from}.${alt.column}`, from, to: alt.column, plausible: alt.plausible && !sameObligation, obligations: obs });
    }
  }
  return out;
}
