/**
 * Robustness (b): the normalization ladder (docs/protocol.md §4 "Robustness"; paper:
 * "Robustness analyses": (0) exact comparison, (1) positional alias normalization, (2) numeric
 * casting to 64-bit floating point, (3) row sorting). The levels are cumulative: level k applies
 * every relaxation of levels 1..k. The ladder reports the first level at which the candidate agrees.
 *
 * Precisely:
 * - Level 0, exact: the primary comparator with row order ENFORCED: same lower-cased names and
 *   Spark types in order, equal row counts, and the same rows position by position.
 * - Level 1, + positional alias normalization: when the column counts are equal, each
 *   candidate column takes the name of the reference column at the same position (names are no
 *   longer compared; types, order and values still are). Unequal counts: nothing to rename.
 * - Level 2, + numeric cast to float64: every numeric column on both sides (tinyint, smallint,
 *   int, bigint, decimal(p,s), float, double) becomes `double`, each value the nearest double of
 *   its exact value; declared precision/scale and integer widths are no longer compared. The
 *   doubles then compare exactly (NaN = NaN, -0 = 0), not within a tolerance.
 * - Level 3, + row sorting: both sides' rows are sorted by a canonical total order before the
 *   position-by-position comparison, i.e. row order is no longer compared (multiset equality).
 *
 * Why levels 0–2 enforce row order: the primary verdict already ignores row order, so a ladder
 * whose level 3 "row sorting" followed unordered levels would never be the first level to agree.
 * Consequences: ladder level 0 implies primary agreement; a primary agreement reaches level 0
 * (same order) or level 3 (different order), never 1 or 2 first.
 */
import { compareTables, ComparisonResult, rowKey } from './compare';
import { Cell, isNumericType, PlainTable } from './table';

/** Names of the ladder levels, index = level. */
export const LADDER_LEVELS = ['exact', 'positional alias normalization', 'numeric cast to float64', 'row sorting'] as const;

/** The ladder's outcome: the first agreeing level (0..3) or null, and each level's verdict. */
export interface LadderResult {
  level: number | null;
  steps: { level: number; name: string; agree: boolean; categories: string[]; summary: string }[];
}

/** Level 1: the candidate's columns renamed positionally to the reference's names (equal counts only). */
export function renamePositionally(candidate: PlainTable, reference: PlainTable): PlainTable {
  if (candidate.columns.length !== reference.columns.length) return candidate;
  return { ...candidate, columns: candidate.columns.map((c, j) => ({ ...c, name: reference.columns[j].name })) };
}

/** Nearest double of a canonical numeric cell (decimal/bigint strings parse exactly-rounded). */
function toFloat64(v: Cell): Cell {
  if (v === null || typeof v === 'number') return v;
  return Number(v);
}

/** Level 2: every numeric column cast to double. */
export function castNumericToFloat64(t: PlainTable): PlainTable {
  const numeric = t.columns.map((c) => isNumericType(c.type));
  return {
    ...t,
    columns: t.columns.map((c, j) => (numeric[j] ? { ...c, type: 'double' } : c)),
    rows: t.rows.map((row) => row.map((v, j) => (numeric[j] ? toFloat64(v) : v))),
  };
}

/** Level 3: rows sorted by their canonical keys (a total order independent of input order). */
export function sortRows(t: PlainTable): PlainTable {
  const types = t.columns.map((c) => c.type);
  const keyed = t.rows.map((row) => ({ k: rowKey(types, row), row }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  return { ...t, rows: keyed.map((x) => x.row) };
}

/**
 * Runs the ladder and reports the first level at which candidate and reference agree.
 * @returns level 0..3, or null when even level 3 disagrees; the verdict of every level
 */
export function normalizationLadder(candidate: PlainTable, reference: PlainTable): LadderResult {
  const steps: LadderResult['steps'] = [];
  const record = (level: number, r: ComparisonResult) => steps.push({ level, name: LADDER_LEVELS[level], agree: r.agree, categories: r.categories, summary: r.summary });
  let cand = candidate;
  let ref = reference;
  record(0, compareTables(cand, ref, { rowOrder: 'enforce' }));
  cand = renamePositionally(cand, ref);
  record(1, compareTables(cand, ref, { rowOrder: 'enforce' }));
  cand = castNumericToFloat64(cand);
  ref = castNumericToFloat64(ref);
  record(2, compareTables(cand, ref, { rowOrder: 'enforce' }));
  record(3, compareTables(sortRows(cand), sortRows(ref), { rowOrder: 'enforce' }));
  const first = steps.find((s) => s.agree);
  return { level: first ? first.level : null, steps };
}
