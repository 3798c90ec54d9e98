import { compareKeyAligned, doublesMatch, TOLERANCE_LADDER } from '../../activities/compare/tolerance';
import { normalizationLadder } from '../../activities/compare/ladder';
import { compareTables } from '../../activities/compare/compare';
import type { Cell } from '../../activities/compare/table';
import { FixtureSpec, plain, SALES } from '../support/arrowFixtures';

const AVG: FixtureSpec = {
  columns: [{ name: 'item', type: 'string' }, { name: 'cnt', type: 'bigint' }, { name: 'avg_price', type: 'double' }],
  rows: [['a', '1', 10], ['b', '2', NaN], ['c', '3', Infinity], ['d', '4', null]],
};
const ref = plain(AVG, 'reference');
const withAvg = (vals: Cell[]) => plain({ ...AVG, rows: AVG.rows.map((r, i) => [r[0], r[1], vals[i]]) });

describe('key-aligned tolerance comparison (robustness a)', () => {
  test('the tightest tolerance that agrees is reported (|x-y| <= atol + rtol*|y|)', () => {
    // |x-y| = 5e-5 ; atol+rtol*|y| = t*(1+10) = 11t: passes at 1e-5 (1.1e-4), fails at 1e-6 (1.1e-5)
    const r = compareKeyAligned(withAvg([10.00005, NaN, Infinity, null]), ref, ['item']);
    expect(r.byTolerance.map((b) => b.agree)).toEqual([false, false, true, true]);
    expect(r.tightest).toEqual({ atol: 1e-5, rtol: 1e-5 });
    expect(r.agree).toBe(true);
    expect(compareTables(withAvg([10.00005, NaN, Infinity, null]), ref).agree).toBe(false);
  });

  test('NaN matches NaN only; infinities need equal signs; null matches null only', () => {
    expect(compareKeyAligned(withAvg([10, NaN, Infinity, null]), ref, ['item']).tightest).toEqual(TOLERANCE_LADDER[0]);
    expect(compareKeyAligned(withAvg([10, 0, Infinity, null]), ref, ['item']).agree).toBe(false);
    expect(compareKeyAligned(withAvg([10, NaN, -Infinity, null]), ref, ['item']).agree).toBe(false);
    expect(compareKeyAligned(withAvg([10, NaN, 1e308, null]), ref, ['item']).agree).toBe(false);
    expect(compareKeyAligned(withAvg([10, NaN, Infinity, 0]), ref, ['item']).agree).toBe(false);
    expect(doublesMatch(NaN, 1, { atol: 1, rtol: 1 })).toBe(false);
    expect(doublesMatch(0, null, { atol: 1, rtol: 1 })).toBe(false);
  });

  test('rows are aligned by key, not by position', () => {
    const shuffled = plain({ ...AVG, rows: [AVG.rows[3], AVG.rows[1], AVG.rows[0], AVG.rows[2]] });
    expect(compareKeyAligned(shuffled, ref, ['ITEM']).tightest).toEqual(TOLERANCE_LADDER[0]);
  });

  test('duplicate keys fail at every tolerance, on either side', () => {
    const dup = plain({ ...AVG, rows: [...AVG.rows.slice(0, 3), ['a', '4', null]] });
    const r = compareKeyAligned(dup, ref, ['item']);
    expect(r.failure).toBe('keys');
    expect(r.duplicateKeys.candidate).toEqual([['a']]);
    expect(r.unmatchedKeys.referenceOnly).toEqual([['d']]);
    expect(r.byTolerance.every((b) => !b.agree)).toBe(true);
    expect(compareKeyAligned(ref, dup, ['item']).duplicateKeys.reference).toEqual([['a']]);
  });

  test('unmatched keys fail; non-double columns stay exact', () => {
    const extra = plain({ ...AVG, rows: [...AVG.rows, ['e', '5', 1]] });
    expect(compareKeyAligned(extra, ref, ['item']).unmatchedKeys.candidateOnly).toEqual([['e']]);
    const cnt = plain({ ...AVG, rows: AVG.rows.map((r, i) => (i === 0 ? ['a', '2', 10] : r)) });
    const r = compareKeyAligned(cnt, ref, ['item']);
    expect(r.exactMismatches).toBe(1);
    expect(r.agree).toBe(false);
    expect(r.firstMismatches[0]).toMatchObject({ key: ['a'], column: 'cnt', candidate: '2', reference: '1', double: false });
  });

  test('different schemas fail with reason schema; an unknown key is bad input', () => {
    const renamed = plain({ ...AVG, columns: AVG.columns.map((c, j) => (j === 2 ? { ...c, name: 'avg' } : c)) });
    expect(compareKeyAligned(renamed, ref, ['item']).failure).toBe('schema');
    expect(() => compareKeyAligned(ref, ref, ['nope'])).toThrow(/key column "nope" is not in the reference/);
  });
});

describe('normalization ladder (robustness b)', () => {
  const r = plain(SALES, 'reference');
  test('level 0: identical output', () => {
    expect(normalizationLadder(plain(SALES), r).level).toBe(0);
  });
  test('level 1: an alias-only difference', () => {
    const cand = plain({ ...SALES, columns: SALES.columns.map((c, j) => (j === 3 ? { ...c, name: 'total_sales' } : c)) });
    const l = normalizationLadder(cand, r);
    expect(l.level).toBe(1);
    expect(l.steps.map((s) => s.agree)).toEqual([false, true, true, true]);
  });
  test('level 2: decimal(27,2) instead of decimal(17,2) and int as bigint, values equal', () => {
    const cand = plain({
      columns: SALES.columns.map((c) => (c.type.startsWith('decimal') ? { ...c, type: 'decimal(27,2)' } : c.type === 'int' ? { ...c, type: 'bigint' } : c)),
      rows: SALES.rows.map((row) => row.map((v, j) => (j === 1 ? String(v) : v))),
    });
    expect(normalizationLadder(cand, r).level).toBe(2);
  });
  test('level 3: a row permutation with another alias (cumulative levels)', () => {
    const cand = plain({ columns: SALES.columns.map((c, j) => (j === 0 ? { ...c, name: 'channel_name' } : c)), rows: [...SALES.rows].reverse() });
    const l = normalizationLadder(cand, r);
    expect(l.level).toBe(3);
    expect(l.steps[0].categories).toEqual(['alias-mismatch', 'values']);
  });
  test('null: a value difference survives every level', () => {
    const rows = SALES.rows.map((x) => [...x]);
    rows[0][3] = '1234567.90';
    const l = normalizationLadder(plain({ ...SALES, rows }), r);
    expect(l.level).toBeNull();
    expect(l.steps).toHaveLength(4);
  });
  test('casting to float64 makes a decimal value and its nearest double equal at level 2, not before', () => {
    const ref2 = plain({ columns: [{ name: 'x', type: 'decimal(7,2)' }], rows: [['0.10'], ['2.50']] });
    const cand = plain({ columns: [{ name: 'x', type: 'double' }], rows: [[0.1], [2.5]] });
    expect(compareTables(cand, ref2).categories).toEqual(['precision']);
    expect(normalizationLadder(cand, ref2).level).toBe(2);
  });
});
