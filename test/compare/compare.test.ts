import { compareTables, cellKey } from '../../activities/compare/compare';
import type { Cell } from '../../activities/compare/table';
import { FixtureSpec, plain, SALES } from '../support/arrowFixtures';

const ref = plain(SALES, 'reference');
const withRows = (rows: Cell[][]): FixtureSpec => ({ ...SALES, rows });

describe('primary reference agreement (§4)', () => {
  test('a row permutation is accepted', () => {
    const r = compareTables(plain(withRows([...SALES.rows].reverse())), ref);
    expect(r.agree).toBe(true);
    expect(r.categories).toEqual([]);
    expect(r.primaryCategory).toBeUndefined();
    expect(r.summary).toBe('agree: 6 columns, 4 rows');
  });

  test('one duplicated row is rejected as row-count, with the extra row and its multiplicity', () => {
    const r = compareTables(plain(withRows([...SALES.rows, SALES.rows[1]])), ref);
    expect(r.agree).toBe(false);
    expect(r.categories).toEqual(['row-count']);
    expect(r.rows.extra).toEqual([{ row: SALES.rows[1], count: 1 }]);
    expect(r.rows.missingTotal).toBe(0);
  });

  test('duplicates count: [a,a,b] vs [a,b,b] is rejected (values) even with equal counts and equal sets', () => {
    const a = SALES.rows[0];
    const b = SALES.rows[1];
    const r = compareTables(plain(withRows([a, a, b])), plain(withRows([a, b, b])));
    expect(r.agree).toBe(false);
    expect(r.categories).toEqual(['values']);
    expect(r.rows.extra).toEqual([{ row: a, count: 1 }]);
    expect(r.rows.missing).toEqual([{ row: b, count: 1 }]);
  });

  test('decimal(17,2) vs decimal(27,2) with equal values is rejected: precision only', () => {
    const cand = plain({ ...SALES, columns: SALES.columns.map((c) => (c.name === 'sales' ? { ...c, type: 'decimal(27,2)' } : c)) });
    const r = compareTables(cand, ref);
    expect(r.agree).toBe(false);
    expect(r.categories).toEqual(['precision']);
    expect(r.primaryCategory).toBe('precision');
    expect(r.schema.differences).toEqual([{ position: 3, kind: 'type', candidate: { name: 'sales', type: 'decimal(27,2)' }, reference: { name: 'sales', type: 'decimal(17,2)' } }]);
    expect(r.rows.multisetEqual).toBe(true);
  });

  test('column name case is ignored', () => {
    const cand = plain({ ...SALES, columns: SALES.columns.map((c) => ({ ...c, name: c.name.toUpperCase() })) });
    expect(compareTables(cand, ref).agree).toBe(true);
  });

  test('nullability and the source are not evaluated', () => {
    const cand = { ...plain(SALES, 'elsewhere'), columns: plain(SALES).columns.map((c) => ({ ...c, nullable: false })) };
    expect(compareTables(cand, ref).agree).toBe(true);
  });

  test('a column order swap is rejected as column-order (values aligned by name agree)', () => {
    const cand = plain({ columns: [SALES.columns[1], SALES.columns[0], ...SALES.columns.slice(2)], rows: SALES.rows.map((r) => [r[1], r[0], ...r.slice(2)]) });
    const r = compareTables(cand, ref);
    expect(r.agree).toBe(false);
    expect(r.categories).toEqual(['column-order']);
    expect(r.rows.alignment).toBe('by-name');
    expect(r.rows.multisetEqual).toBe(true);
  });

  test('a null in place of a zero is rejected (values)', () => {
    const rows = SALES.rows.map((r) => [...r]);
    rows[2][3] = null; // was '0.00'
    const r = compareTables(plain(withRows(rows)), ref);
    expect(r.agree).toBe(false);
    expect(r.categories).toEqual(['values']);
    expect(r.rows.missing[0].row[3]).toBe('0.00');
    expect(r.rows.extra[0].row[3]).toBeNull();
  });

  test('decimals are exact to the last place; doubles are exact; NaN = NaN and -0 = 0', () => {
    const rows = SALES.rows.map((r) => [...r]);
    rows[0][3] = '1234567.88';
    expect(compareTables(plain(withRows(rows)), ref).categories).toEqual(['values']);
    const d = SALES.rows.map((r) => [...r]);
    d[0][5] = 0.5 + Number.EPSILON;
    expect(compareTables(plain(withRows(d)), ref).agree).toBe(false);
    const nanRef = plain(withRows([[...SALES.rows[0].slice(0, 5), NaN], [...SALES.rows[1].slice(0, 5), 0]]));
    const nanCand = plain(withRows([[...SALES.rows[0].slice(0, 5), NaN], [...SALES.rows[1].slice(0, 5), -0]]));
    expect(compareTables(nanCand, nanRef).agree).toBe(true);
    expect(cellKey('double', Infinity)).not.toBe(cellKey('double', -Infinity));
    expect(cellKey('decimal(7,2)', '1.10')).toBe(cellKey('decimal(9,1)', '1.1'));
    expect(cellKey('double', 1e-7)).toBe('n0.0000001');
    expect(cellKey('string', '1')).not.toBe(cellKey('int', 1));
  });

  test('a renamed column is an alias mismatch; values aligned by position still agree', () => {
    const cand = plain({ ...SALES, columns: SALES.columns.map((c, j) => (j === 3 ? { ...c, name: 'sum(sales)' } : c)) });
    const r = compareTables(cand, ref);
    expect(r.categories).toEqual(['alias-mismatch']);
    expect(r.rows.alignment).toBe('positional');
  });

  test('categories are not exclusive; the primary follows the documented precedence', () => {
    // renamed + type widened + one row dropped: alias-mismatch > precision > row-count
    const cols = SALES.columns.map((c, j) => (j === 0 ? { ...c, name: 'chan' } : j === 3 ? { ...c, type: 'decimal(27,2)' } : c));
    const r1 = compareTables(plain({ columns: cols, rows: SALES.rows.slice(0, 3) }), ref);
    expect(r1.categories).toEqual(['alias-mismatch', 'precision', 'row-count']);
    expect(r1.primaryCategory).toBe('alias-mismatch');
    // a dropped column: structural-schema, no value check
    const r2 = compareTables(plain({ columns: SALES.columns.slice(0, 5), rows: SALES.rows.map((r) => r.slice(0, 5)) }), ref);
    expect(r2.categories).toEqual(['structural-schema']);
    expect(r2.rows.alignment).toBe('none');
    expect(r2.schema.differences).toEqual([{ position: 5, kind: 'missing-column', reference: { name: 'ratio', type: 'double' } }]);
    // string where a date was: structural-schema, and values (keys differ by kind)
    const r3 = compareTables(plain({ columns: SALES.columns.map((c) => (c.type === 'date' ? { ...c, type: 'string' } : c)), rows: SALES.rows }), ref);
    expect(r3.categories).toEqual(['structural-schema', 'values']);
    // swapped columns and an extra row: column-order > row-count
    const r4 = compareTables(plain({ columns: [SALES.columns[1], SALES.columns[0], ...SALES.columns.slice(2)], rows: [...SALES.rows, SALES.rows[0]].map((r) => [r[1], r[0], ...r.slice(2)]) }), ref);
    expect(r4.categories).toEqual(['column-order', 'row-count']);
    expect(r4.primaryCategory).toBe('column-order');
    // a changed row plus a deleted row: row-count and values
    const rows = SALES.rows.slice(0, 3).map((r) => [...r]);
    rows[0][1] = 99;
    expect(compareTables(plain(withRows(rows)), ref).categories).toEqual(['row-count', 'values']);
  });

  test('enforced row order (ladder only) rejects a permutation and reports where the order differs', () => {
    const r = compareTables(plain(withRows([SALES.rows[0], SALES.rows[2], SALES.rows[1], SALES.rows[3]])), ref, { rowOrder: 'enforce' });
    expect(r.agree).toBe(false);
    expect(r.rows.firstOrderDifference).toBe(1);
    expect(r.summary).toContain('order differs from row 2');
  });

  test('the details are capped at maxDiffs but the totals are exact', () => {
    const many = (k: number): Cell[][] => Array.from({ length: 30 }, (_x, i) => ['s', i + k, '1', '1.00', '2000-01-01', 1]);
    const r = compareTables(plain(withRows(many(100))), plain(withRows(many(0))), { maxDiffs: 5 });
    expect(r.rows.missing).toHaveLength(5);
    expect(r.rows.missingTotal).toBe(30);
    expect(r.rows.extraDistinct).toBe(30);
  });
});

describe('canonical numbers', () => {
  test('one text per value', () => {
    const { canonicalNumber } = jest.requireActual('../../activities/compare/compare');
    expect(['1.500', '-0.00', '0', '-0', '1e-7', '1.5e+21', '007.10', '-0.0', '123', '-12.30'].map(canonicalNumber))
      .toEqual(['1.5', '0', '0', '0', '0.0000001', '1500000000000000000000', '7.1', '0', '123', '-12.3']);
  });
});
