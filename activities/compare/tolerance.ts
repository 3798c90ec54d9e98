/**
 * Robustness (a): key-aligned comparison with floating-point tolerance (docs/protocol.md §4
 * "Robustness"; paper: "Robustness analyses").
 *
 * Rows are aligned on task-specific key columns. A duplicate key on either side, or a key
 * present on one side only, fails the comparison at every tolerance. Non-key, non-double
 * columns compare exactly (the primary comparator's cell equality). `double`/`float` columns:
 * null matches null, NaN matches NaN, an infinity matches only an infinity of the same sign,
 * and finite candidate x and reference y pass when |x − y| ≤ atol + rtol·|y|. The default
 * tolerance ladder uses atol = rtol ∈ {1e-8, 1e-6, 1e-5, 1e-4}; the tightest that agrees is reported.
 *
 * Precondition (documented choice): the schemas must agree as in the primary verdict
 * (lower-cased names, Spark types, order); otherwise every tolerance fails with reason "schema".
 */
import { InputError } from '../common/errors';
import { cellKey, compareTables } from './compare';
import { Cell, isFloatingType, PlainTable } from './table';

/** One (atol, rtol) pair. */
export interface Tolerance {
  atol: number;
  rtol: number;
}

/** The paper's ladder: equal absolute and relative tolerances. */
export const TOLERANCE_LADDER: readonly Tolerance[] = [1e-8, 1e-6, 1e-5, 1e-4].map((t) => ({ atol: t, rtol: t }));

/** A cell pair that differs: its row key, column, both values, and whether the column is a double. */
export interface CellMismatch {
  key: Cell[];
  column: string;
  candidate: Cell;
  reference: Cell;
  double: boolean;
}

/** The result of a key-aligned comparison over a list of tolerances. */
export interface ToleranceResult {
  keys: string[];
  /** 'schema' when the schemas differ, 'keys' for duplicate or unmatched keys, null otherwise. */
  failure: 'schema' | 'keys' | null;
  duplicateKeys: { candidate: Cell[][]; reference: Cell[][] };
  unmatchedKeys: { candidateOnly: Cell[][]; referenceOnly: Cell[][] };
  /** Non-double cells that differ (these fail at every tolerance). */
  exactMismatches: number;
  byTolerance: { atol: number; rtol: number; agree: boolean; mismatches: number }[];
  /** The first tolerance (in the given order) that agrees, or null. */
  tightest: Tolerance | null;
  agree: boolean;
  /** First failing cells at the loosest tolerance (capped). */
  firstMismatches: CellMismatch[];
}

/**
 * Whether candidate double x matches reference double y within (atol, rtol).
 * null = null; NaN = NaN; infinities need equal signs; else |x − y| ≤ atol + rtol·|y|.
 */
export function doublesMatch(x: Cell, y: Cell, tol: Tolerance): boolean {
  if (x === null || y === null) return x === y;
  if (typeof x !== 'number' || typeof y !== 'number') return false;
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return x === y;
  return Math.abs(x - y) <= tol.atol + tol.rtol * Math.abs(y);
}

/**
 * Compares candidate and reference aligned on `keys` (column names, case-insensitive).
 * @param tolerances ascending list of (atol, rtol) pairs (default: TOLERANCE_LADDER)
 * @throws InputError (field "keys") when a key column is not in the reference schema or no key is given
 */
export function compareKeyAligned(candidate: PlainTable, reference: PlainTable, keys: string[], tolerances: readonly Tolerance[] = TOLERANCE_LADDER, maxDiffs = 10): ToleranceResult {
  const names = reference.columns.map((c) => c.name.toLowerCase());
  const keyIdx = keys.map((k) => {
    const j = names.indexOf(k.toLowerCase());
    if (j < 0) throw new InputError(`key column "${k}" is not in the reference (columns: ${names.join(', ')})`, reference.source, 'keys');
    return j;
  });
  if (keyIdx.length === 0) throw new InputError('at least one key column is needed', reference.source, 'keys');
  const empty: ToleranceResult = {
    keys, failure: null, duplicateKeys: { candidate: [], reference: [] }, unmatchedKeys: { candidateOnly: [], referenceOnly: [] },
    exactMismatches: 0, byTolerance: [], tightest: null, agree: false, firstMismatches: [],
  };
  if (!compareTables(candidate, reference).schema.equal) {
    return { ...empty, failure: 'schema', byTolerance: tolerances.map((t) => ({ ...t, agree: false, mismatches: 0 })) };
  }
  const types = reference.columns.map((c) => c.type);
  const keyOf = (row: Cell[]) => JSON.stringify(keyIdx.map((j) => cellKey(types[j], row[j])));
  const index = (rows: Cell[][]) => {
    const m = new Map<string, Cell[]>();
    const dups: Cell[][] = [];
    for (const row of rows) {
      const k = keyOf(row);
      if (m.has(k)) dups.push(keyIdx.map((j) => row[j]));
      else m.set(k, row);
    }
    return { m, dups };
  };
  const ci = index(candidate.rows);
  const ri = index(reference.rows);
  const candidateOnly = [...ci.m].filter(([k]) => !ri.m.has(k)).map(([, row]) => keyIdx.map((j) => row[j]));
  const referenceOnly = [...ri.m].filter(([k]) => !ci.m.has(k)).map(([, row]) => keyIdx.map((j) => row[j]));
  const keyFailure = ci.dups.length + ri.dups.length + candidateOnly.length + referenceOnly.length > 0;

  const keySet = new Set(keyIdx);
  const exact: CellMismatch[] = [];
  const doubles: CellMismatch[] = [];
  for (const [k, rrow] of ri.m) {
    const crow = ci.m.get(k);
    if (!crow) continue;
    for (let j = 0; j < types.length; j++) {
      if (keySet.has(j)) continue;
      const mm = { key: keyIdx.map((i) => rrow[i]), column: reference.columns[j].name, candidate: crow[j], reference: rrow[j] };
      if (isFloatingType(types[j])) {
        if (cellKey(types[j], crow[j]) !== cellKey(types[j], rrow[j])) doubles.push({ ...mm, double: true });
      } else if (cellKey(types[j], crow[j]) !== cellKey(types[j], rrow[j])) exact.push({ ...mm, double: false });
    }
  }
  const byTolerance = tolerances.map((t) => {
    const mismatches = exact.length + doubles.filter((d) => !doublesMatch(d.candidate, d.reference, t)).length;
    return { ...t, agree: !keyFailure && mismatches === 0, mismatches };
  });
  const first = byTolerance.find((b) => b.agree);
  const loosest = tolerances[tolerances.length - 1];
  return {
    keys,
    failure: keyFailure ? 'keys' : null,
    duplicateKeys: { candidate: ci.dups.slice(0, maxDiffs), reference: ri.dups.slice(0, maxDiffs) },
    unmatchedKeys: { candidateOnly: candidateOnly.slice(0, maxDiffs), referenceOnly: referenceOnly.slice(0, maxDiffs) },
    exactMismatches: exact.length,
    byTolerance,
    tightest: first ? { atol: first.atol, rtol: first.rtol } : null,
    agree: Boolean(first),
    firstMismatches: [...exact, ...doubles.filter((d) => !loosest || !doublesMatch(d.candidate, d.reference, loosest))].slice(0, maxDiffs),
  };
}
