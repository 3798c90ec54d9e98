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

  test('a key group of different sizes fails at every tolerance, on either side', () => {
    const dup = plain({ ...AVG, rows: [...AVG.rows.slice(0, 3), ['a', '4', null]] });
    const r = compareKeyAligned(dup, ref, ['item']);
    expect(r.failure).toBe('keys');
    expect(r.groupSizes).toEqual([{ key: ['a'], candidate: 2, reference: 1 }]);
    expect(r.unmatchedKeys.referenceOnly).toEqual([['d']]);
    expect(r.byTolerance.every((b) => !b.agree)).toBe(true);
    expect(compareKeyAligned(ref, dup, ['item']).groupSizes).toEqual([{ key: ['a'], candidate: 1, reference: 2 }]);
  });

  test('unmatched keys fail; non-double columns stay exact', () => {
    const extra = plain({ ...AVG, rows: [...AVG.rows, ['e', '5', 1]] });
    const u = compareKeyAligned(extra, ref, ['item']);
    expect(u.unmatchedKeys.candidateOnly).toEqual([['e']]);
    expect(u).toMatchObject({ failure: 'keys', agree: false, tightest: null });
    expect(u.byTolerance.map((b) => [b.unpairedCandidate, b.unpairedReference])).toEqual([[1, 0], [1, 0], [1, 0], [1, 0]]);
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

describe('key-aligned comparison: repeated keys are paired as multisets within their group', () => {
  const T: FixtureSpec = { columns: [{ name: 'k', type: 'int' }, { name: 'x', type: 'double' }], rows: [[1, 1.0], [1, 2.0]] };
  const KV: FixtureSpec = { columns: [{ name: 'k', type: 'int' }, { name: 'v', type: 'string' }], rows: [[1, 'A'], [1, 'B']] };
  const agreeFlags = (r: ReturnType<typeof compareKeyAligned>) => r.byTolerance.map((b) => b.agree);

  test('T = {k: [1, 1], x: [1.0, 2.0]} agrees with itself at every tolerance, in either row order', () => {
    const r = compareKeyAligned(plain(T), plain(T, 'reference'), ['k']);
    expect(r).toMatchObject({ failure: null, agree: true, tightest: TOLERANCE_LADDER[0], groupSizes: [], exactMismatches: 0 });
    expect(agreeFlags(r)).toEqual([true, true, true, true]);
    expect(compareKeyAligned(plain({ ...T, rows: [...T.rows].reverse() }), plain(T), ['k']).agree).toBe(true);
  });

  test('{1: A, 1: B} against {1: B, 1: A} agrees (exact on strings; no cell mismatches)', () => {
    const r = compareKeyAligned(plain({ ...KV, rows: [[1, 'B'], [1, 'A']] }), plain(KV), ['k']);
    expect(r).toMatchObject({ agree: true, exactMismatches: 0, firstMismatches: [] });
    const wrong = compareKeyAligned(plain({ ...KV, rows: [[1, 'B'], [1, 'B']] }), plain(KV), ['k']);
    expect(wrong).toMatchObject({ agree: false, failure: null, exactMismatches: 1 });
    expect(wrong.firstUnpaired).toEqual({ candidate: [[1, 'B']], reference: [[1, 'A']] });
  });

  test('whole rows repeated (as in q2) agree with the same repetitions, not with other ones', () => {
    const rep: FixtureSpec = { ...T, rows: [[1, 1.0], [1, 1.0], [1, 2.0], [2, 3.0]] };
    expect(compareKeyAligned(plain({ ...rep, rows: [[2, 3.0], [1, 2.0], [1, 1.0], [1, 1.0]] }), plain(rep), ['k']).agree).toBe(true);
    const other = compareKeyAligned(plain({ ...rep, rows: [[1, 1.0], [1, 2.0], [1, 2.0], [2, 3.0]] }), plain(rep), ['k']);
    expect(other.agree).toBe(false);
    expect(other.byTolerance.map((b) => b.unpairedReference)).toEqual([1, 1, 1, 1]);
  });

  test('a real tolerance difference inside a group: 2.0000001 vs 2.0 passes from 1e-6 (3e-6), not at 1e-8 (3e-8)', () => {
    const cand = plain({ ...T, rows: [[1, 2.0000001], [1, 1.0]] });
    const r = compareKeyAligned(cand, plain(T), ['k']);
    expect(agreeFlags(r)).toEqual([false, true, true, true]);
    expect(r.tightest).toEqual({ atol: 1e-6, rtol: 1e-6 });
    expect(r.byTolerance[0]).toMatchObject({ unpairedCandidate: 1, unpairedReference: 1 });
  });

  test('a pairing that first-fit would miss is found (tolerance equality is not transitive)', () => {
    // At 1e-4 (window ~2e-4 near 1): 1.00015 matches 1.0003 and 1.0; 1.00045 matches 1.0003 only.
    // First-fit in reference order pairs 1.00015 with 1.0003 and strands 1.00045.
    const ref2 = plain({ ...T, rows: [[1, 1.0003], [1, 1.0]] });
    const cand = plain({ ...T, rows: [[1, 1.00015], [1, 1.00045]] });
    expect(agreeFlags(compareKeyAligned(cand, ref2, ['k']))).toEqual([false, false, false, true]);
  });

  test('a key present on one side only fails, however the rows compare', () => {
    const cand = plain({ ...T, rows: [[1, 1.0], [3, 2.0]] });
    const r = compareKeyAligned(cand, plain(T), ['k']);
    expect(r).toMatchObject({ failure: 'keys', agree: false, unmatchedKeys: { candidateOnly: [[3]], referenceOnly: [] } });
    expect(r.groupSizes).toEqual([{ key: [1], candidate: 1, reference: 2 }]);
  });

  test('never stricter than the exact comparison; looser tolerances never lose agreement (seeded random tables)', () => {
    let seed = 20261202;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const pick = <V>(xs: V[]) => xs[Math.floor(rand() * xs.length)];
    const spec: FixtureSpec['columns'] = [{ name: 'k', type: 'int' }, { name: 's', type: 'string' }, { name: 'x', type: 'double' }, { name: 'y', type: 'double' }];
    let exactAgreements = 0;
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(rand() * 8);
      const rows: Cell[][] = Array.from({ length: n }, () => [pick([1, 2, null]), pick(['a', 'b']), pick([0.1, 0.1 + 1e-7, -0, 0, NaN, null, Infinity]), pick([1, 1 + 5e-6, 3])]);
      const shuffled = [...rows].sort(() => rand() - 0.5);
      const cand = trial % 2 === 0 ? shuffled : shuffled.map((r) => (rand() < 0.3 ? [r[0], r[1], pick([0.1, 0.1 + 1e-7, 0]), r[3]] : r));
      const c = plain({ columns: spec, rows: cand });
      const rf = plain({ columns: spec, rows }, 'reference');
      const keys = pick([['k'], ['k', 's'], ['s'], ['x']]);
      const t = compareKeyAligned(c, rf, keys);
      if (compareTables(c, rf).agree) {
        exactAgreements++;
        expect(agreeFlags(t)).toEqual([true, true, true, true]);
      }
      const flags = agreeFlags(t);
      for (let i = 1; i < flags.length; i++) if (flags[i - 1]) expect(flags[i]).toBe(true);
    }
    expect(exactAgreements).toBeGreaterThan(150);
  });
});

describe('key-aligned comparison: large key groups (sorted-window pairing)', () => {
  const cols: FixtureSpec['columns'] = [{ name: 'k', type: 'int' }, { name: 'x', type: 'double' }];
  // 40 rows under one key, values spread over negatives, zero and positives, some repeated.
  const base: number[] = Array.from({ length: 40 }, (_v, i) => (i % 7 === 0 ? 0 : (i - 20) * 12.5 + (i % 3) * 1e-3));
  const refT = plain({ columns: cols, rows: base.map((x) => [1, x]) }, 'reference');
  const reversed = (xs: number[]) => [...xs].reverse();

  test('each value moved by 4e-6 relative (+ 0 moved by 4e-6): fails at 1e-8, agrees from 1e-5', () => {
    const cand = plain({ columns: cols, rows: reversed(base).map((x) => [1, x === 0 ? 4e-6 : x * (1 + 4e-6)]) });
    const r = compareKeyAligned(cand, refT, ['k']);
    // |x·4e-6| ≤ t + t·|x| holds for t = 1e-5 and 1e-4; for 1e-6 and 1e-8 only x = 0.002 (i = 20)
    // passes (4|x| ≤ 1 + |x| needs |x| ≤ 1/3), and the six zeros moved by 4e-6 fail: 39 unpaired.
    expect(r.byTolerance.map((b) => b.agree)).toEqual([false, false, true, true]);
    expect(r.byTolerance.map((b) => b.unpairedReference)).toEqual([39, 39, 0, 0]);
  });

  test('one value moved by 1e-3 is the only unpaired row at the loosest tolerance', () => {
    const moved = base.map((x, i) => (i === 5 ? x + 1e-3 * (1 + Math.abs(x)) : x));
    const r = compareKeyAligned(plain({ columns: cols, rows: reversed(moved).map((x) => [1, x]) }), refT, ['k']);
    expect(r.agree).toBe(false);
    expect(r.byTolerance[3]).toMatchObject({ unpairedCandidate: 1, unpairedReference: 1 });
    expect(r.firstUnpaired.reference).toEqual([[1, base[5]]]);
  });
});
