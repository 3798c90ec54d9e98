/**
 * Evaluator controls (Table II; docs/protocol.md §4 "Evaluator controls"; paper:
 * "Evaluator controls and reference checks", §IV-A). Pure functions: the caller loads the
 * references; this module perturbs them, runs the production comparator (row order ignored)
 * and tallies the outcomes.
 *
 * The 57 controls:
 * - 33 `unchanged`: each reference of the inventory, loaded a second time, against itself: accept.
 * - 3 `row-permutation`: rows reversed (rotated by one if reversal leaves the order unchanged): accept.
 * - 7 rejection categories × 3 references, each: reject.
 *   `column-rename`: the first column renamed `<name>_renamed`.
 *   `column-reorder`: the first two columns with different names swapped (data moves with them).
 *   `type-change`: the first decimal(p,s) column with p < 38 declared decimal(min(p+10,38),s), values kept
 *     (the paper's q33 case: 17 vs 27); else the first int column declared bigint.
 *   `row-deletion`: the last row removed.  `row-duplication`: the first row appended again.
 *   `numeric-value-change`: the first non-null finite cell of the first numeric column that has
 *     one, raised by one unit in its last declared place (decimal: 10^-scale; integers: 1;
 *     doubles: 1 + |x|·1e-6). Schema and row count are kept.
 *   `null-injection`: the first non-null cell of the first column that has one set to null.
 *     Schema and row count are kept.
 * References are chosen deterministically: for each category, the first three in inventory
 * order with at least 2 rows and a column the category can perturb.
 *
 * A perturbation (every control except `unchanged`: 24) is "verified" when an independent
 * check (not the comparator) confirms the perturbed table differs from the original exactly in
 * the intended way.
 */
import { FailureCategory } from '../../protocol/types';
import type { ControlCounts } from '../../protocol/activities';
import { cellKey, compareTables, rowKey } from './compare';
import { Cell, isIntegerType, isNumericType, parseDecimalType, PlainTable, TableColumn } from './table';

export const CONTROL_KINDS = [
  'unchanged', 'row-permutation', 'column-rename', 'column-reorder', 'type-change', 'row-deletion', 'row-duplication', 'numeric-value-change', 'null-injection',
] as const;
export type ControlKind = (typeof CONTROL_KINDS)[number];

/** The surface category each rejection control is expected to produce (recorded, informative). */
export const EXPECTED_CATEGORY: Partial<Record<ControlKind, FailureCategory>> = {
  'column-rename': 'alias-mismatch', 'column-reorder': 'column-order', 'type-change': 'precision', 'row-deletion': 'row-count',
  'row-duplication': 'row-count', 'numeric-value-change': 'values', 'null-injection': 'values',
};

/** Queries per perturbation category (Table II). */
export const QUERIES_PER_CATEGORY = 3;

/** One reference as loaded for the controls; `reload` is an independent second load (unchanged control). */
export interface ControlReference {
  taskId: string;
  table: PlainTable;
  reload?: PlainTable;
}

/** A perturbation: the perturbed table and a description, or null when the reference is unsuitable. */
type Perturb = (t: PlainTable) => { table: PlainTable; description: string } | null;
/** An independent check that `perturbed` differs from `original` exactly as intended. */
type Verify = (original: PlainTable, perturbed: PlainTable) => boolean;

/** The outcome of one control. */
export interface ControlResult {
  id: string;
  kind: ControlKind;
  taskId: string;
  expected: 'accept' | 'reject';
  observed: 'accept' | 'reject' | 'skipped';
  asExpected: boolean;
  /** What was changed (null for unchanged loads). */
  perturbation: string | null;
  /** Perturbations only: the independent verification; null for unchanged loads. */
  verified: boolean | null;
  categories: FailureCategory[];
  primaryCategory?: FailureCategory;
  expectedCategory?: FailureCategory;
  summary: string;
}

/** Table II as counts plus every control's record. */
export interface ControlsReport {
  counts: ControlCounts;
  allAsExpected: boolean;
  controls: ControlResult[];
}

const cellsEqual = (type: string, a: Cell, b: Cell) => cellKey(type, a) === cellKey(type, b);
const rowsEqual = (cols: TableColumn[], a: Cell[], b: Cell[]) => rowKey(cols.map((c) => c.type), a) === rowKey(cols.map((c) => c.type), b);
const sameSchema = (a: PlainTable, b: PlainTable) =>
  a.columns.length === b.columns.length && a.columns.every((c, j) => c.name === b.columns[j].name && c.type === b.columns[j].type);
const sortedKeys = (t: PlainTable) => t.rows.map((r) => rowKey(t.columns.map((c) => c.type), r)).sort();

/** Positions (row, column) where two same-shaped tables differ. */
function cellDiffs(a: PlainTable, b: PlainTable): [number, number][] {
  const out: [number, number][] = [];
  a.rows.forEach((row, i) => row.forEach((v, j) => {
    if (!cellsEqual(a.columns[j].type, v, b.rows[i][j])) out.push([i, j]);
  }));
  return out;
}

/** First (row, column), column by column, whose cell satisfies `pred` in a column satisfying `colPred`. */
function firstCell(t: PlainTable, colPred: (c: TableColumn) => boolean, pred: (v: Cell) => boolean): [number, number] | null {
  for (let j = 0; j < t.columns.length; j++) {
    if (!colPred(t.columns[j])) continue;
    for (let i = 0; i < t.rows.length; i++) if (pred(t.rows[i][j])) return [i, j];
  }
  return null;
}

function withCell(t: PlainTable, i: number, j: number, v: Cell): PlainTable {
  return { ...t, rows: t.rows.map((row, k) => (k === i ? row.map((x, m) => (m === j ? v : x)) : row)) };
}

/** Adds one unit in the last declared place to a numeric cell. */
export function bumpNumeric(type: string, v: Cell): Cell {
  const dec = parseDecimalType(type);
  if (dec) {
    const s = String(v);
    const neg = s.startsWith('-');
    const [ip, fp = ''] = (neg ? s.slice(1) : s).split('.');
    const unscaled = BigInt((neg ? '-' : '') + ip + fp.padEnd(dec.scale, '0')) + 1n;
    const abs = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(dec.scale + 1, '0');
    const body = dec.scale > 0 ? `${abs.slice(0, abs.length - dec.scale)}.${abs.slice(abs.length - dec.scale)}` : abs;
    return unscaled < 0n ? `-${body}` : body;
  }
  if (type === 'bigint') return (BigInt(String(v)) + 1n).toString();
  if (isIntegerType(type)) return (v as number) + 1;
  return (v as number) + 1 + Math.abs(v as number) * 1e-6;
}

const PERTURB: Record<Exclude<ControlKind, 'unchanged'>, Perturb> = {
  'row-permutation': (t) => {
    const keys = t.rows.map((r) => rowKey(t.columns.map((c) => c.type), r));
    if (new Set(keys).size < 2) return null;
    const rev = [...t.rows].reverse();
    const same = rev.every((r, i) => rowsEqual(t.columns, r, t.rows[i]));
    const rows = same ? [...t.rows.slice(1), t.rows[0]] : rev;
    return { table: { ...t, rows }, description: same ? 'rows rotated by one' : 'rows reversed' };
  },
  'column-rename': (t) => {
    if (t.columns.length < 1) return null;
    const name = `${t.columns[0].name}_renamed`;
    return { table: { ...t, columns: t.columns.map((c, j) => (j === 0 ? { ...c, name } : c)) }, description: `column 1 "${t.columns[0].name}" renamed "${name}"` };
  },
  'column-reorder': (t) => {
    const names = t.columns.map((c) => c.name.toLowerCase());
    const j = names.findIndex((n, k) => k + 1 < names.length && n !== names[k + 1]);
    if (j < 0) return null;
    const perm = t.columns.map((_c, k) => (k === j ? j + 1 : k === j + 1 ? j : k));
    return {
      table: { ...t, columns: perm.map((k) => t.columns[k]), rows: t.rows.map((r) => perm.map((k) => r[k])) },
      description: `columns ${j + 1} "${t.columns[j].name}" and ${j + 2} "${t.columns[j + 1].name}" swapped`,
    };
  },
  'type-change': (t) => {
    let j = t.columns.findIndex((c) => (parseDecimalType(c.type)?.precision ?? 38) < 38);
    let type: string;
    if (j >= 0) {
      const d = parseDecimalType(t.columns[j].type)!;
      type = `decimal(${Math.min(d.precision + 10, 38)},${d.scale})`;
    } else {
      j = t.columns.findIndex((c) => c.type === 'int');
      if (j < 0) return null;
      type = 'bigint';
    }
    const from = t.columns[j].type;
    const rows = type === 'bigint' ? t.rows.map((r) => r.map((v, k) => (k === j && v !== null ? String(v) : v))) : t.rows;
    return { table: { ...t, columns: t.columns.map((c, k) => (k === j ? { ...c, type } : c)), rows }, description: `column "${t.columns[j].name}" declared ${type} instead of ${from}` };
  },
  'row-deletion': (t) => ({ table: { ...t, rows: t.rows.slice(0, -1) }, description: `last row (row ${t.rows.length}) deleted` }),
  'row-duplication': (t) => ({ table: { ...t, rows: [...t.rows, t.rows[0]] }, description: 'row 1 duplicated' }),
  'numeric-value-change': (t) => {
    const at = firstCell(t, (c) => isNumericType(c.type), (v) => v !== null && !(typeof v === 'number' && !Number.isFinite(v)));
    if (!at) return null;
    const [i, j] = at;
    const c = t.columns[j];
    const nv = bumpNumeric(c.type, t.rows[i][j]);
    return { table: withCell(t, i, j, nv), description: `row ${i + 1} "${c.name}" ${String(t.rows[i][j])} -> ${String(nv)}` };
  },
  'null-injection': (t) => {
    const at = firstCell(t, () => true, (v) => v !== null);
    if (!at) return null;
    const [i, j] = at;
    return { table: withCell(t, i, j, null), description: `row ${i + 1} "${t.columns[j].name}" ${String(t.rows[i][j])} -> null` };
  },
};

const VERIFY: Record<Exclude<ControlKind, 'unchanged'>, Verify> = {
  'row-permutation': (o, p) =>
    sameSchema(o, p) && o.rows.length === p.rows.length && sortedKeys(o).join('\n') === sortedKeys(p).join('\n') && p.rows.some((r, i) => !rowsEqual(o.columns, r, o.rows[i])),
  'column-rename': (o, p) =>
    o.columns.length === p.columns.length &&
    o.columns.filter((c, j) => c.name.toLowerCase() !== p.columns[j].name.toLowerCase()).length === 1 &&
    o.columns.every((c, j) => c.type === p.columns[j].type) &&
    !p.columns.some((c, j) => j > 0 && c.name.toLowerCase() === p.columns[0].name.toLowerCase()) &&
    o.rows.length === p.rows.length && o.rows.every((r, i) => rowsEqual(o.columns, r, p.rows[i])),
  'column-reorder': (o, p) => {
    const on = o.columns.map((c) => c.name.toLowerCase());
    const pn = p.columns.map((c) => c.name.toLowerCase());
    if (on.join('\u0000') === pn.join('\u0000') || [...on].sort().join('\u0000') !== [...pn].sort().join('\u0000')) return false;
    const perm = pn.map((n) => on.indexOf(n));
    return o.rows.length === p.rows.length && o.rows.every((r, i) => perm.every((k, j) => cellsEqual(o.columns[k].type, r[k], p.rows[i][j])));
  },
  'type-change': (o, p) =>
    o.columns.length === p.columns.length &&
    o.columns.filter((c, j) => c.type !== p.columns[j].type).length === 1 &&
    o.columns.every((c, j) => c.name === p.columns[j].name) &&
    o.rows.length === p.rows.length && o.rows.every((r, i) => r.every((v, j) => cellsEqual(o.columns[j].type, v, p.rows[i][j]))),
  'row-deletion': (o, p) => sameSchema(o, p) && p.rows.length === o.rows.length - 1 && p.rows.every((r, i) => rowsEqual(o.columns, r, o.rows[i])),
  'row-duplication': (o, p) =>
    sameSchema(o, p) && p.rows.length === o.rows.length + 1 && o.rows.every((r, i) => rowsEqual(o.columns, r, p.rows[i])) && rowsEqual(o.columns, p.rows[p.rows.length - 1], o.rows[0]),
  'numeric-value-change': (o, p) => {
    if (!sameSchema(o, p) || o.rows.length !== p.rows.length) return false;
    const d = cellDiffs(o, p);
    return d.length === 1 && isNumericType(o.columns[d[0][1]].type) && p.rows[d[0][0]][d[0][1]] !== null;
  },
  'null-injection': (o, p) => {
    if (!sameSchema(o, p) || o.rows.length !== p.rows.length) return false;
    const d = cellDiffs(o, p);
    return d.length === 1 && o.rows[d[0][0]][d[0][1]] !== null && p.rows[d[0][0]][d[0][1]] === null;
  },
};

/** One control before it is run: the candidate table the comparator sees against the reference. */
export interface ControlCase {
  id: string;
  kind: ControlKind;
  taskId: string;
  expected: 'accept' | 'reject';
  /** Null when no reference was available (a skipped control). */
  candidate: PlainTable | null;
  reference: PlainTable | null;
  perturbation: string | null;
  verified: boolean | null;
  /** Why the control is skipped. */
  skipReason?: string;
}

/**
 * Builds the 57 controls of Table II (see the module docstring for the rules and the choice of
 * references): unchanged loads first, then each perturbation category in CONTROL_KINDS order.
 * @param references the loaded references in inventory order
 * @param missing inventory entries that could not be loaded (skipped unchanged controls)
 */
export function buildControlCases(references: ControlReference[], missing: string[] = []): ControlCase[] {
  const cases: ControlCase[] = [];
  for (const ref of references) {
    cases.push({ id: `unchanged:${ref.taskId}`, kind: 'unchanged', taskId: ref.taskId, expected: 'accept', candidate: ref.reload ?? structuredClone(ref.table), reference: ref.table, perturbation: null, verified: null });
  }
  for (const taskId of missing) {
    cases.push({ id: `unchanged:${taskId}`, kind: 'unchanged', taskId, expected: 'accept', candidate: null, reference: null, perturbation: null, verified: null, skipReason: 'reference not found' });
  }
  for (const kind of CONTROL_KINDS) {
    if (kind === 'unchanged') continue;
    const expected = kind === 'row-permutation' ? 'accept' : 'reject';
    let chosen = 0;
    for (const ref of references) {
      if (chosen === QUERIES_PER_CATEGORY) break;
      if (ref.table.rows.length < 2) continue;
      const p = PERTURB[kind](ref.table);
      if (!p) continue;
      chosen++;
      cases.push({ id: `${kind}:${ref.taskId}`, kind, taskId: ref.taskId, expected, candidate: p.table, reference: ref.table, perturbation: p.description, verified: VERIFY[kind](ref.table, p.table) });
    }
    for (; chosen < QUERIES_PER_CATEGORY; chosen++) {
      cases.push({ id: `${kind}:none-${chosen + 1}`, kind, taskId: '(none)', expected, candidate: null, reference: null, perturbation: null, verified: false, skipReason: 'no suitable reference' });
    }
  }
  return cases;
}

/** Runs one control through the production comparator (row order ignored). */
export function runControlCase(c: ControlCase): ControlResult {
  const base = { id: c.id, kind: c.kind, taskId: c.taskId, expected: c.expected, perturbation: c.perturbation, verified: c.verified, expectedCategory: EXPECTED_CATEGORY[c.kind] };
  if (!c.candidate || !c.reference) return { ...base, observed: 'skipped', asExpected: false, categories: [], summary: c.skipReason ?? 'skipped' };
  const r = compareTables(c.candidate, c.reference, { rowOrder: 'ignore' });
  const observed = r.agree ? 'accept' : 'reject';
  return { ...base, observed, asExpected: observed === c.expected, categories: r.categories, primaryCategory: r.primaryCategory, summary: r.summary };
}

/**
 * Runs the evaluator controls of Table II on loaded references (in inventory order).
 * @param references the reference inventory in order (33 in the study)
 * @param missing inventory entries that could not be loaded (their unchanged control is skipped)
 * @returns every control's outcome and the Table II counts (57/36/21/24 when all is well)
 */
export function runControls(references: ControlReference[], missing: string[] = []): ControlsReport {
  const controls = buildControlCases(references, missing).map(runControlCase);
  const perturbations = controls.filter((c) => c.kind !== 'unchanged');
  const counts = {
    controls: controls.length,
    expectedAccept: controls.filter((c) => c.expected === 'accept').length,
    expectedReject: controls.filter((c) => c.expected === 'reject').length,
    accepted: controls.filter((c) => c.observed === 'accept').length,
    rejected: controls.filter((c) => c.observed === 'reject').length,
    skipped: controls.filter((c) => c.observed === 'skipped').length,
    asExpected: controls.filter((c) => c.asExpected).length,
    unexpected: controls.filter((c) => !c.asExpected).length,
    perturbations: perturbations.length,
    verifiedPerturbations: perturbations.filter((c) => c.verified === true).length,
  };
  const allAsExpected = counts.unexpected === 0 && counts.verifiedPerturbations === counts.perturbations;
  return { counts, allAsExpected, controls };
}

/** Renders the controls as Markdown: a Table II summary by category, then every control. */
export function controlsMarkdown(report: ControlsReport, title = 'Evaluator controls (Table II)'): string {
  const lines = [`# ${title}`, ''];
  lines.push('| Control | Queries | Expected | As expected | Verified perturbations |', '|---|---|---|---|---|');
  for (const kind of CONTROL_KINDS) {
    const cs = report.controls.filter((c) => c.kind === kind);
    if (cs.length === 0) continue;
    const verified = kind === 'unchanged' ? 'n/a' : `${cs.filter((c) => c.verified).length}/${cs.length}`;
    lines.push(`| ${kind} | ${cs.length === 33 ? 'all 33' : cs.map((c) => c.taskId).join(', ')} | ${cs[0].expected} | ${cs.filter((c) => c.asExpected).length}/${cs.length} | ${verified} |`);
  }
  const k = report.counts;
  lines.push(`| **total** | ${k.controls} controls | ${k.expectedAccept} accept, ${k.expectedReject} reject | ${k.asExpected}/${k.controls} | ${k.verifiedPerturbations}/${k.perturbations} |`, '');
  lines.push(`Observed: ${k.accepted} accepted, ${k.rejected} rejected, ${k.skipped} skipped. ${report.allAsExpected ? 'All controls returned the expected outcome.' : `${k.unexpected} control(s) did NOT return the expected outcome.`}`, '');
  lines.push('| # | Control | Query | Perturbation | Expected | Observed | Categories | Verified |', '|---|---|---|---|---|---|---|---|');
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  report.controls.forEach((c, i) => {
    lines.push(`| ${i + 1} | ${c.kind} | ${c.taskId} | ${esc(c.perturbation ?? '-')} | ${c.expected} | ${c.observed}${c.asExpected ? '' : ' (UNEXPECTED)'} | ${c.categories.join(', ') || '-'} | ${c.verified === null ? '-' : c.verified ? 'yes' : 'NO'} |`);
  });
  return `${lines.join('\n')}\n`;
}
