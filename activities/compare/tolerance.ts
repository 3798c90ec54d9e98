/**
 * Robustness (a): key-aligned comparison with floating-point tolerance (docs/protocol.md §4
 * "Robustness"; paper: "Robustness analyses": rows aligned on query-specific keys, unmatched
 * keys fail, non-doubles exact, doubles within atol + rtol·|y| on the ladder 1e-8 … 1e-4).
 *
 * Precisely, for one tolerance (atol, rtol):
 * 1. Precondition: the schemas agree as in the primary verdict (lower-cased names, Spark types,
 *    order); otherwise every tolerance fails with reason "schema".
 * 2. Key groups: rows are grouped by their key cells under the primary comparator's cell
 *    equality (null = null, NaN = NaN, -0 = 0, numbers by value). A key present on one side
 *    only fails (reason "keys", `unmatchedKeys`); so does a key whose group holds a different
 *    number of rows on the two sides (reason "keys", `groupSizes`).
 * 3. Within a key group the rows are paired as multisets — never by first-seen or input order.
 *    A candidate row c may pair with a reference row r when every non-key column matches:
 *    `double`/`float` columns by `doublesMatch(c_j, r_j)` below, every other column exactly
 *    (cell equality). The group agrees when a perfect pairing exists; pairing.ts computes a
 *    maximum pairing (within-tolerance equality is not transitive, so first-fit is not enough).
 *    Repeated keys and repeated whole rows are thus allowed (q2's reference repeats whole rows).
 *    This resolves a case the paper leaves open (it says nothing of repeated keys); lockin's
 *    first version failed every repeated key, which made the check stricter than the exact one.
 * 4. Doubles: null matches null, NaN matches NaN, an infinity matches only an infinity of the
 *    same sign, and finite candidate x and reference y match when |x − y| ≤ atol + rtol·|y|.
 * 5. The candidate agrees at (atol, rtol) when no schema or key failure occurred and every row
 *    is paired. The default ladder is atol = rtol ∈ {1e-8, 1e-6, 1e-5, 1e-4}; the first
 *    (tightest) tolerance that agrees is reported.
 *
 * Consequence (tested): never stricter than the exact comparison. When the primary verdict
 * agrees (same schema, same row multisets) every key group has the same multiset on both sides,
 * identical rows pair at any tolerance, and the check agrees at every tolerance, whatever the
 * keys. Rows that differ in a non-double column never pair, so those count at every tolerance
 * (`exactMismatches`).
 */
import { InputError } from '../common/errors';
import { cellKey, compareTables } from './compare';
import { maximumPairing } from './pairing';
import { Cell, isFloatingType, PlainTable } from './table';

/** One (atol, rtol) pair. */
export interface Tolerance {
  atol: number;
  rtol: number;
}

/** The paper's ladder: equal absolute and relative tolerances. */
export const TOLERANCE_LADDER: readonly Tolerance[] = [1e-8, 1e-6, 1e-5, 1e-4].map((t) => ({ atol: t, rtol: t }));

/** A cell pair that differs in a key group of one row per side: its key, column, both values, and whether the column is a double. */
export interface CellMismatch {
  key: Cell[];
  column: string;
  candidate: Cell;
  reference: Cell;
  double: boolean;
}

/** A key held by both sides with different numbers of rows. */
export interface GroupSizeMismatch {
  key: Cell[];
  candidate: number;
  reference: number;
}

/** The result of a key-aligned comparison over a list of tolerances. */
export interface ToleranceResult {
  keys: string[];
  /** 'schema' when the schemas differ, 'keys' for a key on one side only or of unequal group sizes, null otherwise. */
  failure: 'schema' | 'keys' | null;
  /** Keys present on one side only (capped at maxDiffs). */
  unmatchedKeys: { candidateOnly: Cell[][]; referenceOnly: Cell[][] };
  /** Keys on both sides whose groups differ in size (capped at maxDiffs). */
  groupSizes: GroupSizeMismatch[];
  /** Reference rows that no candidate row of their key group equals on the non-double columns (unpaired at every tolerance). */
  exactMismatches: number;
  /** Per tolerance: the verdict and the rows a maximum pairing leaves unpaired on each side. */
  byTolerance: { atol: number; rtol: number; agree: boolean; unpairedCandidate: number; unpairedReference: number }[];
  /** The first tolerance (in the given order) that agrees, or null. */
  tightest: Tolerance | null;
  agree: boolean;
  /** At the loosest tolerance, in key groups of one row per side: the cells that fail (capped). */
  firstMismatches: CellMismatch[];
  /** At the loosest tolerance, rows left unpaired (capped at maxDiffs per side). */
  firstUnpaired: { candidate: Cell[][]; reference: Cell[][] };
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

/** Distinct rows of one side within an exact class, with multiplicities. */
interface Distinct {
  rows: Cell[][];
  counts: number[];
}

/** One exact class within a key group: rows equal on keys, non-double columns and double cell kinds. */
interface ExactClass {
  cand: Distinct;
  ref: Distinct;
  candIndex: Map<string, number>;
  refIndex: Map<string, number>;
}

interface KeyGroup {
  key: Cell[];
  nCand: number;
  nRef: number;
  classes: Map<string, ExactClass>;
}

/**
 * Compares candidate and reference aligned on `keys` (column names, case-insensitive), as
 * specified in the module docstring. No keys ([]) make the whole output one key group: a global
 * aggregate, or rows identified by their non-double columns.
 * @param tolerances list of (atol, rtol) pairs, tightest first (default: TOLERANCE_LADDER)
 * @param maxDiffs how many unmatched keys, group-size differences, mismatching cells and unpaired rows to keep
 * @returns per tolerance the verdict and unpaired-row counts, the tightest agreeing tolerance, the first differences
 * @throws InputError (field "keys") when a key column is not in the reference schema
 */
export function compareKeyAligned(candidate: PlainTable, reference: PlainTable, keys: string[], tolerances: readonly Tolerance[] = TOLERANCE_LADDER, maxDiffs = 10): ToleranceResult {
  const names = reference.columns.map((c) => c.name.toLowerCase());
  const keyIdx = keys.map((k) => {
    const j = names.indexOf(k.toLowerCase());
    if (j < 0) throw new InputError(`key column "${k}" is not in the reference (columns: ${names.join(', ')})`, reference.source, 'keys');
    return j;
  });
  const none: ToleranceResult = {
    keys, failure: null, unmatchedKeys: { candidateOnly: [], referenceOnly: [] }, groupSizes: [], exactMismatches: 0,
    byTolerance: [], tightest: null, agree: false, firstMismatches: [], firstUnpaired: { candidate: [], reference: [] },
  };
  if (!compareTables(candidate, reference).schema.equal) {
    return { ...none, failure: 'schema', byTolerance: tolerances.map((t) => ({ ...t, agree: false, unpairedCandidate: candidate.rows.length, unpairedReference: reference.rows.length })) };
  }
  const types = reference.columns.map((c) => c.type);
  const keySet = new Set(keyIdx);
  const doubleCols = types.map((_t, j) => j).filter((j) => !keySet.has(j) && isFloatingType(types[j]));
  const exactCols = types.map((_t, j) => j).filter((j) => !keySet.has(j) && !isFloatingType(types[j]));
  const keyOf = (row: Cell[]) => keyIdx.map((j) => cellKey(types[j], row[j])).join(',');
  // A double cell's kind: a non-finite value or null only ever matches itself, so it is exact.
  const kindOf = (v: Cell) => (typeof v === 'number' && Number.isFinite(v) ? 'f' : cellKey('double', v));
  const classOf = (row: Cell[]) => exactCols.map((j) => cellKey(types[j], row[j])).join(',') + '|' + doubleCols.map((j) => kindOf(row[j])).join(',');
  const rowId = (row: Cell[]) => doubleCols.map((j) => cellKey('double', row[j])).join(',');

  const groups = new Map<string, KeyGroup>();
  const add = (row: Cell[], side: 'cand' | 'ref') => {
    const k = keyOf(row);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { key: keyIdx.map((j) => row[j]), nCand: 0, nRef: 0, classes: new Map() }));
    if (side === 'cand') g.nCand++;
    else g.nRef++;
    const ck = classOf(row);
    let cls = g.classes.get(ck);
    if (!cls) g.classes.set(ck, (cls = { cand: { rows: [], counts: [] }, ref: { rows: [], counts: [] }, candIndex: new Map(), refIndex: new Map() }));
    const d = side === 'cand' ? cls.cand : cls.ref;
    const index = side === 'cand' ? cls.candIndex : cls.refIndex;
    const id = rowId(row);
    const at = index.get(id);
    if (at === undefined) {
      index.set(id, d.rows.length);
      d.rows.push(row);
      d.counts.push(1);
    } else d.counts[at]++;
  };
  for (const row of candidate.rows) add(row, 'cand');
  for (const row of reference.rows) add(row, 'ref');

  const candidateOnly: Cell[][] = [];
  const referenceOnly: Cell[][] = [];
  const groupSizes: GroupSizeMismatch[] = [];
  let exactMismatches = 0;
  for (const g of groups.values()) {
    if (g.nRef === 0) candidateOnly.push(g.key);
    else if (g.nCand === 0) referenceOnly.push(g.key);
    else if (g.nCand !== g.nRef) groupSizes.push({ key: g.key, candidate: g.nCand, reference: g.nRef });
    for (const cls of g.classes.values()) exactMismatches += Math.max(0, sum(cls.ref.counts) - sum(cls.cand.counts));
  }
  const keyFailure = candidateOnly.length + referenceOnly.length + groupSizes.length > 0;

  const pairAt = (tol: Tolerance, collect: boolean) => {
    let unpairedCandidate = 0;
    let unpairedReference = 0;
    const left = { candidate: [] as Cell[][], reference: [] as Cell[][] };
    for (const g of groups.values()) {
      for (const cls of g.classes.values()) {
        const { candidateLeft, referenceLeft } = pairClass(cls, doubleCols, tol);
        unpairedCandidate += sum(candidateLeft);
        unpairedReference += sum(referenceLeft);
        if (!collect) continue;
        candidateLeft.forEach((n, i) => { for (let t = 0; t < n && left.candidate.length < maxDiffs; t++) left.candidate.push(cls.cand.rows[i]); });
        referenceLeft.forEach((n, i) => { for (let t = 0; t < n && left.reference.length < maxDiffs; t++) left.reference.push(cls.ref.rows[i]); });
      }
    }
    return { unpairedCandidate, unpairedReference, left };
  };
  const byTolerance = tolerances.map((t) => {
    const { unpairedCandidate, unpairedReference } = pairAt(t, false);
    return { ...t, agree: !keyFailure && unpairedCandidate + unpairedReference === 0, unpairedCandidate, unpairedReference };
  });
  const first = byTolerance.find((b) => b.agree);
  const loosest = tolerances[tolerances.length - 1];
  const firstUnpaired = loosest ? pairAt(loosest, true).left : { candidate: [], reference: [] };
  return {
    keys,
    failure: keyFailure ? 'keys' : null,
    unmatchedKeys: { candidateOnly: candidateOnly.slice(0, maxDiffs), referenceOnly: referenceOnly.slice(0, maxDiffs) },
    groupSizes: groupSizes.slice(0, maxDiffs),
    exactMismatches,
    byTolerance,
    tightest: first ? { atol: first.atol, rtol: first.rtol } : null,
    agree: Boolean(first),
    firstMismatches: singletonMismatches(groups, reference, keySet, loosest, maxDiffs),
    firstUnpaired,
  };
}

function sum(xs: number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

/**
 * A maximum pairing of one exact class at one tolerance. Rows of a class are equal on every
 * non-double column and on which double cells are non-finite, so only the finite doubles decide.
 * Candidate pairs are found through the first finite double column, sorted: |x − y| ≤ atol +
 * rtol·|y| with rtol < 1 implies |x − y| ≤ atol + rtol·(|x| + atol)/(1 − rtol), a window around x
 * (widened slightly for rounding); every pair in the window is then checked with doublesMatch.
 */
function pairClass(cls: ExactClass, doubleCols: number[], tol: Tolerance): { candidateLeft: number[]; referenceLeft: number[] } {
  const c = cls.cand;
  const r = cls.ref;
  if (c.rows.length === 0 || r.rows.length === 0) return { candidateLeft: [...c.counts], referenceLeft: [...r.counts] };
  const compatible = (a: Cell[], b: Cell[]) => doubleCols.every((j) => doublesMatch(a[j], b[j], tol));
  const edges: [number, number][] = [];
  const finite = doubleCols.filter((j) => typeof r.rows[0][j] === 'number' && Number.isFinite(r.rows[0][j] as number));
  if (finite.length === 0 || tol.rtol >= 1 || c.rows.length * r.rows.length <= 64) {
    for (let i = 0; i < c.rows.length; i++) for (let k = 0; k < r.rows.length; k++) if (compatible(c.rows[i], r.rows[k])) edges.push([i, k]);
  } else {
    const j0 = finite[0];
    const order = r.rows.map((_row, k) => k).sort((a, b) => (r.rows[a][j0] as number) - (r.rows[b][j0] as number));
    const vals = order.map((k) => r.rows[k][j0] as number);
    for (let i = 0; i < c.rows.length; i++) {
      const x = c.rows[i][j0] as number;
      const w = (tol.atol + (tol.rtol * (Math.abs(x) + tol.atol)) / (1 - tol.rtol)) * (1 + 1e-9) + Number.EPSILON * Math.abs(x) * 4;
      let lo = 0;
      let hi = vals.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (vals[mid] < x - w) lo = mid + 1;
        else hi = mid;
      }
      for (let t = lo; t < vals.length && vals[t] <= x + w; t++) if (compatible(c.rows[i], r.rows[order[t]])) edges.push([i, order[t]]);
    }
  }
  return maximumPairing({ candidate: c.counts, reference: r.counts, edges });
}

/** In key groups of exactly one row per side: the cells that differ at the loosest tolerance. */
function singletonMismatches(groups: Map<string, KeyGroup>, reference: PlainTable, keySet: Set<number>, loosest: Tolerance | undefined, maxDiffs: number): CellMismatch[] {
  const out: CellMismatch[] = [];
  const types = reference.columns.map((col) => col.type);
  for (const g of groups.values()) {
    if (out.length >= maxDiffs) break;
    if (g.nCand !== 1 || g.nRef !== 1) continue;
    const classes = [...g.classes.values()];
    const crow = classes.find((cl) => cl.cand.rows.length)!.cand.rows[0];
    const rrow = classes.find((cl) => cl.ref.rows.length)!.ref.rows[0];
    for (let j = 0; j < types.length && out.length < maxDiffs; j++) {
      if (keySet.has(j)) continue;
      const double = isFloatingType(types[j]);
      const differs = double && loosest ? !doublesMatch(crow[j], rrow[j], loosest) : cellKey(types[j], crow[j]) !== cellKey(types[j], rrow[j]);
      if (differs) out.push({ key: g.key, column: reference.columns[j].name, candidate: crow[j], reference: rrow[j], double });
    }
  }
  return out;
}
