/**
 * Intervals and paired tests for the study's rates (docs/protocol.md §7 "Samples and
 * intervals"). Pure functions over plain numbers; no dependencies.
 *
 *  - `wilson`: the Wilson score interval for a binomial proportion (Wilson 1927; method 3 of
 *    Newcombe 1998, "Two-sided confidence intervals for the single proportion", Stat. Med. 17).
 *  - `binomialTwoSided`: the exact two-sided tail of Bin(n, 1/2) used by the exact McNemar test
 *    and the sign test: p = min(1, 2 · P(X ≤ min(k, n − k))).
 *  - `mcnemarExact`: the exact (conditional) McNemar test on the discordant pairs b, c
 *    (Fagerland, Lydersen and Laake 2013, "The McNemar test for binary matched-pairs data").
 *  - `signTest`: the sign test on paired differences, zeros dropped.
 *  - `wilcoxonSignedRank`: the Wilcoxon signed-rank test, zeros dropped, tied |d| given mid-ranks,
 *    p exact from the permutation distribution of W+ over the 2^n sign assignments of the
 *    observed ranks (Hollander and Wolfe, "Nonparametric Statistical Methods", §3.1).
 *  - `clusterBootstrap`: the percentile bootstrap with tasks as clusters (resample tasks with
 *    replacement, keep each task's samples together), from a seeded generator (`mulberry32`).
 */

/** z for a two-sided 95 % interval: Φ⁻¹(0.975). */
export const Z95 = 1.959963984540054;

export interface Interval {
  /** Lower bound, in [0, 1] for proportions. */
  lower: number;
  upper: number;
}

export interface Proportion extends Interval {
  /** Successes. */
  x: number;
  /** Trials. */
  n: number;
  /** x / n (null when n = 0). */
  p: number | null;
}

function assertCount(v: number, what: string): void {
  if (!Number.isInteger(v) || v < 0) throw new RangeError(`${what} must be a non-negative integer, got ${v}`);
}

/**
 * Wilson score interval for x successes in n trials.
 * @param x successes (integer, 0 ≤ x ≤ n); @param n trials (integer ≥ 0); @param z the normal
 *   quantile (default Z95 for 95 %).
 * @returns { x, n, p, lower, upper }; for n = 0, p = null and the interval is [0, 1].
 * @throws RangeError for a non-integer or negative count, or x > n.
 */
export function wilson(x: number, n: number, z = Z95): Proportion {
  assertCount(x, 'successes');
  assertCount(n, 'trials');
  if (x > n) throw new RangeError(`successes (${x}) exceed trials (${n})`);
  if (n === 0) return { x, n, p: null, lower: 0, upper: 1 };
  const p = x / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At x = 0 (x = n) the bound is exactly 0 (1); rounding must not push it past.
  return { x, n, p, lower: x === 0 ? 0 : Math.max(0, centre - half), upper: x === n ? 1 : Math.min(1, centre + half) };
}

/** log of n choose k (exact enough for n ≤ 10⁶ through summed logs). */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/**
 * Exact two-sided p-value of k successes in n trials under Bin(n, 1/2):
 * min(1, 2 · P(X ≤ min(k, n − k))). n = 0 gives 1.
 * @throws RangeError for bad counts.
 */
export function binomialTwoSided(k: number, n: number): number {
  assertCount(k, 'successes');
  assertCount(n, 'trials');
  if (k > n) throw new RangeError(`successes (${k}) exceed trials (${n})`);
  if (n === 0) return 1;
  const m = Math.min(k, n - k);
  let tail = 0;
  for (let i = 0; i <= m; i++) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

export interface McNemarResult {
  /** Pairs where the first condition has the outcome and the second does not. */
  b: number;
  /** Pairs where the second has it and the first does not. */
  c: number;
  /** Exact two-sided p-value (1 when b = c = 0). */
  p: number;
}

/**
 * Exact McNemar test for paired binary outcomes: conditional on the n = b + c discordant pairs,
 * b ~ Bin(n, 1/2) under the null of equal marginal rates.
 * @param b, c discordant pair counts (integers ≥ 0).
 */
export function mcnemarExact(b: number, c: number): McNemarResult {
  return { b, c, p: binomialTwoSided(Math.min(b, c), b + c) };
}

/**
 * Counts the discordant pairs of two aligned binary vectors (first true / second false = b,
 * first false / second true = c).
 * @throws RangeError when the lengths differ.
 */
export function discordantPairs(first: readonly boolean[], second: readonly boolean[]): { b: number; c: number; n: number } {
  if (first.length !== second.length) throw new RangeError(`paired outcomes differ in length: ${first.length} and ${second.length}`);
  let b = 0;
  let c = 0;
  for (let i = 0; i < first.length; i++) {
    if (first[i] && !second[i]) b++;
    else if (!first[i] && second[i]) c++;
  }
  return { b, c, n: first.length };
}

export interface SignTestResult {
  positive: number;
  negative: number;
  zeros: number;
  /** Exact two-sided p-value over the non-zero differences (1 when all are zero). */
  p: number;
}

/** Sign test on paired differences (zeros dropped). */
export function signTest(diffs: readonly number[]): SignTestResult {
  const positive = diffs.filter((d) => d > 0).length;
  const negative = diffs.filter((d) => d < 0).length;
  return { positive, negative, zeros: diffs.length - positive - negative, p: binomialTwoSided(Math.min(positive, negative), positive + negative) };
}

export interface WilcoxonResult {
  /** Non-zero differences used. */
  n: number;
  zeros: number;
  /** Sum of the ranks of the positive differences. */
  wPlus: number;
  wMinus: number;
  /** Exact two-sided p-value: min(1, 2 · min(P(W+ ≤ w), P(W+ ≥ w))); 1 when n = 0. */
  p: number;
}

/** Mid-ranks (1-based) of values; ties share the mean of the ranks they span. */
export function midRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    const r = (i + j + 2) / 2;
    for (let k = i; k <= j; k++) ranks[order[k][1]] = r;
    i = j + 1;
  }
  return ranks;
}

/** Largest number of non-zero differences the exact distribution is computed for. */
export const WILCOXON_EXACT_MAX = 400;

/**
 * Wilcoxon signed-rank test, exact. |d| equal within 1e-12 relative count as ties.
 * @param diffs paired differences (second − first, any unit).
 * @throws RangeError beyond WILCOXON_EXACT_MAX non-zero differences.
 */
export function wilcoxonSignedRank(diffs: readonly number[]): WilcoxonResult {
  const nz = diffs.filter((d) => d !== 0 && Number.isFinite(d));
  const zeros = diffs.length - nz.length;
  const n = nz.length;
  if (n === 0) return { n, zeros, wPlus: 0, wMinus: 0, p: 1 };
  if (n > WILCOXON_EXACT_MAX) throw new RangeError(`wilcoxonSignedRank: ${n} differences exceed the exact limit ${WILCOXON_EXACT_MAX}`);
  // Round |d| so that floating-point noise (0.1 + 0.2) does not break a tie.
  const abs = nz.map((d) => Number(Math.abs(d).toPrecision(12)));
  const ranks = midRanks(abs);
  const wPlus = nz.reduce((s, d, i) => s + (d > 0 ? ranks[i] : 0), 0);
  const total = (n * (n + 1)) / 2;
  // Doubled ranks are integers (mid-ranks are multiples of 1/2): count sign assignments per sum.
  const r2 = ranks.map((r) => Math.round(2 * r));
  const max = r2.reduce((s, r) => s + r, 0);
  let dist = new Float64Array(max + 1);
  dist[0] = 1;
  for (const r of r2) {
    const next = new Float64Array(max + 1);
    for (let s = 0; s <= max; s++) {
      if (dist[s] === 0) continue;
      next[s] += dist[s] / 2;
      if (s + r <= max) next[s + r] += dist[s] / 2;
    }
    dist = next;
  }
  const w2 = Math.round(2 * wPlus);
  let le = 0;
  let ge = 0;
  for (let s = 0; s <= max; s++) {
    if (s <= w2) le += dist[s];
    if (s >= w2) ge += dist[s];
  }
  return { n, zeros, wPlus, wMinus: total - wPlus, p: Math.min(1, 2 * Math.min(le, ge)) };
}

/**
 * A seeded 32-bit generator (mulberry32): returns a function giving uniform numbers in [0, 1).
 * The same seed gives the same sequence on every platform.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BootstrapResult extends Interval {
  /** The statistic on the observed clusters. */
  estimate: number;
  /** Bootstrap replicates drawn. */
  replicates: number;
  seed: number;
}

/**
 * Percentile cluster bootstrap: draws `replicates` resamples of the clusters (with
 * replacement, as many as there are), computes `statistic` on each, and returns the
 * ⌊B·α/2⌋-th and ⌈B·(1 − α/2)⌉-th order statistics (1-based, clamped) as the interval.
 * @param clusters one entry per cluster (a task: the values of its samples); at least one.
 * @param statistic maps a list of clusters to a number (e.g. pooledRate).
 * @param opts replicates (default 2000), seed (default 1), alpha (default 0.05).
 * @throws RangeError for no clusters or a statistic that is not finite on the observed data.
 */
export function clusterBootstrap<T>(clusters: readonly T[], statistic: (cs: readonly T[]) => number, opts: { replicates?: number; seed?: number; alpha?: number } = {}): BootstrapResult {
  const B = opts.replicates ?? 2000;
  const seed = opts.seed ?? 1;
  const alpha = opts.alpha ?? 0.05;
  if (clusters.length === 0) throw new RangeError('clusterBootstrap: no clusters');
  const estimate = statistic(clusters);
  if (!Number.isFinite(estimate)) throw new RangeError('clusterBootstrap: the statistic is not finite on the observed clusters');
  const rand = mulberry32(seed);
  const k = clusters.length;
  const stats: number[] = [];
  for (let b = 0; b < B; b++) {
    const resample: T[] = [];
    for (let i = 0; i < k; i++) resample.push(clusters[Math.floor(rand() * k)]);
    const s = statistic(resample);
    if (Number.isFinite(s)) stats.push(s);
  }
  stats.sort((x, y) => x - y);
  const at = (i: number) => stats[Math.min(stats.length - 1, Math.max(0, i - 1))];
  return { estimate, lower: at(Math.floor(stats.length * (alpha / 2))), upper: at(Math.ceil(stats.length * (1 - alpha / 2))), replicates: B, seed };
}

/** Pooled rate over clusters of 0/1 outcomes: Σ successes / Σ trials (NaN when there are none). */
export function pooledRate(clusters: readonly (readonly boolean[])[]): number {
  let x = 0;
  let n = 0;
  for (const c of clusters) {
    n += c.length;
    for (const v of c) if (v) x++;
  }
  return n === 0 ? NaN : x / n;
}
