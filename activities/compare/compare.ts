/**
 * The primary reference agreement (docs/protocol.md §4; paper: "Reference agreement and
 * false passes") and the surface failure categories (paper: "For PlanAudit-Guided Revision, the primary failure categories").
 *
 * Agreement: same lower-cased column names and the same Spark types in declared order, equal
 * row counts, and identical row multisets including duplicates. Row order, nullability and
 * field metadata are not evaluated. Decimals compare exactly (value and declared
 * precision/scale), as do dates, strings and nulls; doubles compare exactly (NaN equals NaN,
 * -0.0 equals 0.0, as in Spark's grouping and set operations).
 *
 * Failure categories (not exclusive; every one that applies is listed):
 * - `structural-schema`: the column counts differ, or an aligned column pair differs in type
 *   family (anything other than numeric vs numeric, e.g. string vs int, date vs string).
 * - `alias-mismatch`: equal column counts but the lower-cased name multisets differ.
 * - `column-order`: the columns present on both sides appear in a different relative order.
 * - `precision`: an aligned column pair has two different numeric types (decimal(17,2) vs
 *   decimal(27,2), int vs bigint, decimal vs double).
 * - `row-count`: the row counts differ.
 * - `values`: some candidate row is absent from the reference and some reference row is absent
 *   from the candidate (rows compared after column alignment, numbers by value regardless of
 *   declared type, so a pure precision or order difference does not count as a value difference).
 *   Pure deletions or duplications are `row-count` only.
 * - `runtime`: the candidate produced no output (assigned by the caller, see runtimeOutcome).
 *
 * Primary category precedence (the first that applies): runtime > structural-schema >
 * alias-mismatch > column-order > precision > row-count > values. Schema-level contract
 * differences come first because a reader meets them first and the paper reports alias and
 * precision as the hidden-contract categories; row-level categories follow.
 *
 * Column alignment for the value check: identity when the schemas agree; by name when the
 * lower-cased names are the same multiset (a reordering); otherwise positional when the column
 * counts are equal; no value check when the counts differ.
 */
import { FailureCategory } from '../../protocol/types';
import { Cell, isNumericType, PlainTable, TableColumn } from './table';

/** Precedence of the primary category (first that applies). */
export const CATEGORY_PRECEDENCE: readonly FailureCategory[] = ['runtime', 'structural-schema', 'alias-mismatch', 'column-order', 'precision', 'row-count', 'values'];

/** Options of the comparator. The primary verdict uses the defaults. */
export interface CompareOptions {
  /** 'ignore' (primary; controls) or 'enforce' (rows compared position by position; used by the ladder). */
  rowOrder?: 'ignore' | 'enforce';
  /** How many missing/extra rows and schema differences to keep in the details (default 10). */
  maxDiffs?: number;
}

/** One column-level difference at a declared position (0-based). */
export interface SchemaDifference {
  position: number;
  kind: 'name' | 'type' | 'missing-column' | 'extra-column';
  candidate?: { name: string; type: string };
  reference?: { name: string; type: string };
}

/** A row with how many more times one side holds it than the other. */
export interface RowDiff {
  row: Cell[];
  count: number;
}

/** The full result of one comparison (written to the details JSON). */
export interface ComparisonResult {
  agree: boolean;
  categories: FailureCategory[];
  primaryCategory?: FailureCategory;
  rowOrder: 'ignore' | 'enforce';
  schema: {
    equal: boolean;
    candidate: { name: string; type: string }[];
    reference: { name: string; type: string }[];
    differences: SchemaDifference[];
  };
  rowCount: { candidate: number; reference: number };
  rows: {
    /** How candidate columns were aligned to reference columns for the value check. */
    alignment: 'identity' | 'by-name' | 'positional' | 'none';
    multisetEqual: boolean | null;
    /** Rows of the reference the candidate lacks (reference columns), with multiplicities. */
    missing: RowDiff[];
    /** Rows of the candidate the reference lacks (reference column order), with multiplicities. */
    extra: RowDiff[];
    missingTotal: number;
    extraTotal: number;
    missingDistinct: number;
    extraDistinct: number;
    /** rowOrder 'enforce' only: index of the first row that differs, or null. */
    firstOrderDifference?: number | null;
  };
  summary: string;
}

/** Canonical numeric text: no exponent, no leading or trailing fraction zeros, "-0" -> "0". */
export function canonicalNumber(text: string): string {
  if (/[eE]/.test(text) || /^-?0\d/.test(text)) return slowCanonicalNumber(text);
  let s = text;
  if (s.includes('.')) {
    let end = s.length;
    while (s.charCodeAt(end - 1) === 48) end--; // '0'
    if (s.charCodeAt(end - 1) === 46) end--; // '.'
    s = s.slice(0, end);
  }
  return s === '-0' || s === '' || s === '-' ? '0' : s;
}

function slowCanonicalNumber(text: string): string {
  let s = text;
  let neg = false;
  if (s.startsWith('-')) {
    neg = true;
    s = s.slice(1);
  }
  const exp = /^(\d+)(?:\.(\d*))?e([+-]?\d+)$/i.exec(s);
  if (exp) {
    const digits = exp[1] + (exp[2] ?? '');
    const point = exp[1].length + Number(exp[3]);
    if (point <= 0) s = `0.${'0'.repeat(-point)}${digits}`;
    else if (point >= digits.length) s = digits + '0'.repeat(point - digits.length);
    else s = `${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  s = s.replace(/^0+(?=\d)/, '');
  if (/^0*$/.test(s.replace('.', ''))) return '0';
  return neg ? `-${s}` : s;
}

/**
 * The canonical key of one cell: equal keys mean equal values. Numbers of any numeric type
 * key by value (NaN = NaN, -0 = 0); other types key by kind and value.
 */
export function cellKey(type: string, v: Cell): string {
  if (v === null) return 'N';
  if (isNumericType(type)) {
    if (typeof v === 'number') {
      if (Number.isNaN(v)) return 'nNaN';
      if (v === Infinity) return 'n+Inf';
      if (v === -Infinity) return 'n-Inf';
      return `n${canonicalNumber(String(v))}`;
    }
    return `n${canonicalNumber(String(v))}`;
  }
  if (typeof v === 'boolean') return v ? 'b1' : 'b0';
  if (type === 'date') return `d${String(v)}`;
  if (type.startsWith('timestamp')) return `t${String(v)}`;
  return `s${JSON.stringify(String(v))}`; // quoted: a self-delimiting token inside a row key
}

/**
 * The canonical key of a row under the given column types. Cell keys are joined with ",":
 * unambiguous because string keys are JSON-quoted and no other key contains a comma.
 */
export function rowKey(types: string[], row: Cell[]): string {
  let k = '';
  for (let j = 0; j < row.length; j++) k += (j ? ',' : '') + cellKey(types[j], row[j]);
  return k;
}

function lowerNames(cols: TableColumn[]): string[] {
  return cols.map((c) => c.name.toLowerCase());
}

function sameMultiset(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');
}

/** For each reference column, the index of the candidate column aligned with it (or null). */
function alignColumns(cand: TableColumn[], ref: TableColumn[]): { alignment: ComparisonResult['rows']['alignment']; map: number[] | null } {
  const cn = lowerNames(cand);
  const rn = lowerNames(ref);
  if (cn.length !== rn.length) return { alignment: 'none', map: null };
  if (cn.every((n, j) => n === rn[j])) return { alignment: 'identity', map: rn.map((_n, j) => j) };
  if (sameMultiset(cn, rn)) {
    const used = new Set<number>();
    const map = rn.map((n) => {
      const j = cn.findIndex((m, k) => m === n && !used.has(k));
      used.add(j);
      return j;
    });
    return { alignment: 'by-name', map };
  }
  return { alignment: 'positional', map: rn.map((_n, j) => j) };
}

/** Names common to both sides, each in its own side's order (multiset intersection). */
function commonOrder(a: string[], b: string[]): string[] {
  const pool = new Map<string, number>();
  for (const n of b) pool.set(n, (pool.get(n) ?? 0) + 1);
  const out: string[] = [];
  for (const n of a) {
    const k = pool.get(n) ?? 0;
    if (k > 0) {
      out.push(n);
      pool.set(n, k - 1);
    }
  }
  return out;
}

function schemaDifferences(cand: TableColumn[], ref: TableColumn[]): SchemaDifference[] {
  const out: SchemaDifference[] = [];
  for (let j = 0; j < Math.max(cand.length, ref.length); j++) {
    const c = cand[j];
    const r = ref[j];
    const cs = c && { name: c.name, type: c.type };
    const rs = r && { name: r.name, type: r.type };
    if (!c) out.push({ position: j, kind: 'missing-column', reference: rs });
    else if (!r) out.push({ position: j, kind: 'extra-column', candidate: cs });
    else if (c.name.toLowerCase() !== r.name.toLowerCase()) out.push({ position: j, kind: 'name', candidate: cs, reference: rs });
    else if (c.type !== r.type) out.push({ position: j, kind: 'type', candidate: cs, reference: rs });
  }
  return out;
}

interface Bag {
  counts: Map<string, number>;
  sample: Map<string, Cell[]>;
}

function bagOf(rows: Cell[][], types: string[]): Bag {
  const counts = new Map<string, number>();
  const sample = new Map<string, Cell[]>();
  for (const row of rows) {
    const k = rowKey(types, row);
    const n = counts.get(k);
    if (n === undefined) {
      counts.set(k, 1);
      sample.set(k, row);
    } else counts.set(k, n + 1);
  }
  return { counts, sample };
}

/** Rows of `a` beyond their multiplicity in `b`, in first-seen order. */
function bagMinus(a: Bag, b: Bag): { rows: RowDiff[]; total: number } {
  const rows: RowDiff[] = [];
  let total = 0;
  for (const [k, n] of a.counts) {
    const d = n - (b.counts.get(k) ?? 0);
    if (d > 0) {
      rows.push({ row: a.sample.get(k) as Cell[], count: d });
      total += d;
    }
  }
  return { rows, total };
}

/**
 * Compares a candidate output with its reference.
 * @param candidate the candidate output (plain model)
 * @param reference the reference output (plain model)
 * @param opts rowOrder 'ignore' (default: the primary verdict) or 'enforce'; maxDiffs (default 10)
 * @returns the verdict, the categories that apply, the primary category and the first differences
 */
export function compareTables(candidate: PlainTable, reference: PlainTable, opts: CompareOptions = {}): ComparisonResult {
  const rowOrder = opts.rowOrder ?? 'ignore';
  const maxDiffs = opts.maxDiffs ?? 10;
  const cand = candidate.columns;
  const ref = reference.columns;
  const differences = schemaDifferences(cand, ref);
  const schemaEqual = differences.length === 0;
  const cats = new Set<FailureCategory>();

  const { alignment, map } = alignColumns(cand, ref);
  if (cand.length !== ref.length) cats.add('structural-schema');
  else if (!sameMultiset(lowerNames(cand), lowerNames(ref))) cats.add('alias-mismatch');
  const cc = commonOrder(lowerNames(cand), lowerNames(ref));
  const rc = commonOrder(lowerNames(ref), lowerNames(cand));
  if (cc.join('\u0000') !== rc.join('\u0000')) cats.add('column-order');
  if (map) {
    map.forEach((cj, rj) => {
      const ct = cand[cj].type;
      const rt = ref[rj].type;
      if (ct === rt) return;
      cats.add(isNumericType(ct) && isNumericType(rt) ? 'precision' : 'structural-schema');
    });
  }
  const nCand = candidate.rows.length;
  const nRef = reference.rows.length;
  if (nCand !== nRef) cats.add('row-count');

  let multisetEqual: boolean | null = null;
  let missing = { rows: [] as RowDiff[], total: 0 };
  let extra = { rows: [] as RowDiff[], total: 0 };
  let firstOrderDifference: number | null | undefined;
  if (map) {
    const refTypes = ref.map((c) => c.type);
    const candTypes = map.map((cj) => cand[cj].type);
    const aligned = alignment === 'identity' ? candidate.rows : candidate.rows.map((row) => map.map((cj) => row[cj]));
    const rb = bagOf(reference.rows, refTypes);
    const cb = bagOf(aligned, candTypes);
    missing = bagMinus(rb, cb);
    extra = bagMinus(cb, rb);
    multisetEqual = missing.total === 0 && extra.total === 0;
    if (missing.total > 0 && extra.total > 0) cats.add('values');
    if (rowOrder === 'enforce') {
      firstOrderDifference = null;
      for (let i = 0; i < Math.max(nCand, nRef); i++) {
        if (i >= nCand || i >= nRef || rowKey(candTypes, aligned[i]) !== rowKey(refTypes, reference.rows[i])) {
          firstOrderDifference = i;
          break;
        }
      }
      // Same multiset, different order: under enforced order that is a value difference.
      if (firstOrderDifference !== null && multisetEqual) cats.add('values');
    }
  }

  const agree = schemaEqual && nCand === nRef && multisetEqual === true && (rowOrder === 'ignore' || firstOrderDifference === null);
  const categories = agree ? [] : CATEGORY_PRECEDENCE.filter((c) => cats.has(c));
  const result: ComparisonResult = {
    agree,
    categories,
    primaryCategory: categories[0],
    rowOrder,
    schema: {
      equal: schemaEqual,
      candidate: cand.map((c) => ({ name: c.name, type: c.type })),
      reference: ref.map((c) => ({ name: c.name, type: c.type })),
      differences: differences.slice(0, maxDiffs),
    },
    rowCount: { candidate: nCand, reference: nRef },
    rows: {
      alignment,
      multisetEqual,
      missing: missing.rows.slice(0, maxDiffs),
      extra: extra.rows.slice(0, maxDiffs),
      missingTotal: missing.total,
      extraTotal: extra.total,
      missingDistinct: missing.rows.length,
      extraDistinct: extra.rows.length,
      ...(firstOrderDifference !== undefined ? { firstOrderDifference } : {}),
    },
    summary: '',
  };
  result.summary = summarize(result);
  return result;
}

function fmtCol(c?: { name: string; type: string }): string {
  return c ? `${c.name} ${c.type}` : '(none)';
}

function fmtRow(r: RowDiff): string {
  return `${JSON.stringify(r.row, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v))}${r.count > 1 ? ` x${r.count}` : ''}`;
}

/** A short human-readable account of a comparison (first differences only). */
export function summarize(r: ComparisonResult): string {
  if (r.agree) return `agree: ${r.schema.reference.length} columns, ${r.rowCount.reference} rows`;
  const parts: string[] = [`disagree [${r.categories.join(', ')}]`];
  for (const d of r.schema.differences.slice(0, 3)) parts.push(`column ${d.position + 1} ${d.kind}: candidate ${fmtCol(d.candidate)} vs reference ${fmtCol(d.reference)}`);
  if (r.rowCount.candidate !== r.rowCount.reference) parts.push(`rows: candidate ${r.rowCount.candidate} vs reference ${r.rowCount.reference}`);
  if (r.rows.missingTotal > 0) parts.push(`${r.rows.missingTotal} reference row(s) missing, e.g. ${fmtRow(r.rows.missing[0])}`);
  if (r.rows.extraTotal > 0) parts.push(`${r.rows.extraTotal} extra candidate row(s), e.g. ${fmtRow(r.rows.extra[0])}`);
  if (r.rows.firstOrderDifference != null && r.rows.multisetEqual) parts.push(`same rows, order differs from row ${r.rows.firstOrderDifference + 1}`);
  return parts.join('; ');
}
