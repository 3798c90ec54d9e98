/**
 * Worked examples for the intervals and paired tests (activities/common/intervals.ts).
 * Expected values are published or computed by hand, never by the code under test.
 */
import { binomialTwoSided, clusterBootstrap, discordantPairs, mcnemarExact, midRanks, mulberry32, pooledRate, signTest, wilcoxonSignedRank, wilson } from '../../activities/common/intervals';

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

test.each([
  // Newcombe (1998), Stat. Med. 17:857–872, Table II, method 3 (Wilson score, no continuity correction).
  [81, 263, 0.2553, 0.3662],
  [15, 148, 0.0624, 0.1605],
  [0, 20, 0, 0.1611],
  [1, 29, 0.0061, 0.1718],
  [29, 29, 0.883, 1],
])('Wilson 95 %% interval of %i/%i is [%f, %f] (Newcombe 1998)', (x, n, lo, hi) => {
  const w = wilson(x, n);
  expect([r4(w.lower), r4(w.upper)]).toEqual([lo, hi]);
  expect(w.p).toBeCloseTo(x / n, 12);
});

test('Wilson: 0/n has upper bound z²/(n + z²) exactly; n = 0 is [0, 1]; bad counts are errors', () => {
  const z2 = 1.959963984540054 ** 2;
  expect(wilson(0, 10).upper).toBeCloseTo(z2 / (10 + z2), 12); // 0.27753
  expect(wilson(0, 0)).toEqual({ x: 0, n: 0, p: null, lower: 0, upper: 1 });
  expect(() => wilson(3, 2)).toThrow('successes (3) exceed trials (2)');
  expect(() => wilson(1.5, 2)).toThrow('successes must be a non-negative integer, got 1.5');
});

test('exact binomial two-sided tails, by hand', () => {
  // n = 10, k = 2: P(X ≤ 2) = (1 + 10 + 45) / 1024 = 56/1024; two-sided 112/1024.
  expect(binomialTwoSided(2, 10)).toBeCloseTo(112 / 1024, 12);
  // n = 8, k = 1: P(X ≤ 1) = 9/256; two-sided 18/256 = 0.0703125.
  expect(binomialTwoSided(1, 8)).toBeCloseTo(18 / 256, 12);
  expect(binomialTwoSided(7, 8)).toBeCloseTo(18 / 256, 12);
  expect(binomialTwoSided(5, 10)).toBe(1);
  expect(binomialTwoSided(0, 0)).toBe(1);
  // n = 5, k = 0: 2 / 32.
  expect(binomialTwoSided(0, 5)).toBeCloseTo(0.0625, 12);
});

test('exact McNemar: b = 1, c = 7 gives p = 0.0703 (Fagerland et al. 2013, exact conditional test)', () => {
  expect(mcnemarExact(1, 7).p).toBeCloseTo(0.0703125, 10);
  expect(mcnemarExact(0, 0).p).toBe(1);
  expect(mcnemarExact(4, 4).p).toBe(1);
  // Only the discordant pairs matter: 3 tasks both, 2 neither, b = 0, c = 3 -> 2/8.
  const pairs = discordantPairs([true, true, true, false, false, false, false, false], [true, true, true, false, false, true, true, true]);
  expect(pairs).toEqual({ b: 0, c: 3, n: 8 });
  expect(mcnemarExact(pairs.b, pairs.c).p).toBeCloseTo(0.25, 12);
  expect(() => discordantPairs([true], [true, false])).toThrow('paired outcomes differ in length: 1 and 2');
});

test('sign test drops zeros: +,+,+,+,+,−,0,0 is 5 vs 1 of 6, p = 2·7/64', () => {
  const s = signTest([0.5, 1, 0.25, 2, 1, -1, 0, 0]);
  expect([s.positive, s.negative, s.zeros]).toEqual([5, 1, 2]);
  expect(s.p).toBeCloseTo(14 / 64, 12);
});

test('Wilcoxon signed-rank: the Hollander & Wolfe depression data (R wilcox.test example), V = 40, p = 0.0391', () => {
  const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
  const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
  const w = wilcoxonSignedRank(x.map((v, i) => v - y[i]));
  expect([w.n, w.wPlus, w.wMinus]).toEqual([9, 40, 5]);
  // P(W− ≤ 5): subsets of {1..9} with sum ≤ 5 = 1 + 1 + 1 + 2 + 2 + 3 = 10, so 10/512 one-sided.
  expect(w.p).toBeCloseTo(20 / 512, 12);
});

test('Wilcoxon: all five positive, W+ = 15, p = 2/32; ties get mid-ranks; all zero is p = 1', () => {
  expect(wilcoxonSignedRank([1, 2, 3, 4, 5])).toMatchObject({ n: 5, wPlus: 15, p: 2 / 32 });
  expect(midRanks([3, 1, 3, 2])).toEqual([3.5, 1, 3.5, 2]);
  // d = [1, 1, −1]: ranks 2, 2, 2; W+ = 4. Sign assignments of three 2s: W+ ∈ {0, 2, 4, 6} with
  // counts 1, 3, 3, 1. P(W+ ≥ 4) = 4/8, P(W+ ≤ 4) = 7/8: p = min(1, 2 · 4/8) = 1.
  expect(wilcoxonSignedRank([1, 1, -1])).toMatchObject({ n: 3, wPlus: 4, wMinus: 2, p: 1 });
  // 0.1 + 0.2 and 0.3 are one tie, not two ranks.
  expect(wilcoxonSignedRank([0.1 + 0.2, -0.3]).wPlus).toBe(1.5);
  expect(wilcoxonSignedRank([0, 0])).toMatchObject({ n: 0, zeros: 2, p: 1 });
});

test('mulberry32 is deterministic and uniform-looking', () => {
  const a = mulberry32(42);
  const b = mulberry32(42);
  const xs = Array.from({ length: 1000 }, () => a());
  expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
  expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  expect(mean).toBeGreaterThan(0.45);
  expect(mean).toBeLessThan(0.55);
  expect(mulberry32(43)()).not.toBe(mulberry32(42)());
});

test('cluster bootstrap: identical clusters give a point interval; seeded runs repeat exactly', () => {
  const same = [[true, false], [true, false], [true, false]];
  expect(clusterBootstrap(same, pooledRate, { replicates: 200 })).toMatchObject({ estimate: 0.5, lower: 0.5, upper: 0.5 });
  const tasks = [[true, true], [false, false], [true, false], [false, false], [true, true]];
  const one = clusterBootstrap(tasks, pooledRate, { seed: 7, replicates: 500 });
  expect(clusterBootstrap(tasks, pooledRate, { seed: 7, replicates: 500 })).toEqual(one);
  expect(one.estimate).toBeCloseTo(0.5, 12);
  expect(one.lower).toBeLessThan(0.5);
  expect(one.upper).toBeGreaterThan(0.5);
  expect(() => clusterBootstrap([], pooledRate)).toThrow('no clusters');
});

test('cluster bootstrap of two clusters (rate 0 and rate 1): resampled means are 0, ½, 1 with probabilities ¼, ½, ¼', () => {
  // The bootstrap distribution is known exactly; with 4000 seeded draws each frequency is within
  // 0.03 of it (≈ 4 standard errors), and the 95 % percentile interval is [0, 1].
  const clusters = [[false], [true]];
  const values: number[] = [];
  const r = clusterBootstrap(clusters, (cs) => {
    const v = pooledRate(cs);
    values.push(v);
    return v;
  }, { replicates: 4000, seed: 3 });
  const draws = values.slice(1); // the first call is the observed estimate
  const freq = (v: number) => draws.filter((x) => x === v).length / draws.length;
  expect(Math.abs(freq(0) - 0.25)).toBeLessThan(0.03);
  expect(Math.abs(freq(0.5) - 0.5)).toBeLessThan(0.03);
  expect(Math.abs(freq(1) - 0.25)).toBeLessThan(0.03);
  expect([r.lower, r.estimate, r.upper]).toEqual([0, 0.5, 1]);
});
