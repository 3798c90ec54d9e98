/**
 * Agreement between labellers (docs/protocol.md §5).
 * The paper's two authors labelled independently and adjudicated, but lost their
 * pre-adjudication labels, so agreement could not be reported; lockin keeps every rater's labels
 * and reports Cohen's kappa between raters and between each rater and each automated labeller.
 * Pure functions.
 */

/** Cohen's kappa of two label sequences over the same items, with its parts. */
export interface Kappa {
  /** Items labelled by both (pairs with an empty label on either side are left out). */
  n: number;
  /** Observed agreement: share of items with the same label. */
  observed: number;
  /** Agreement expected by chance from the two marginal distributions. */
  expected: number;
  /** (observed − expected) / (1 − expected); null when n = 0 or expected = 1 (one label only on both sides). */
  kappa: number | null;
}

/**
 * Cohen's kappa (Cohen 1960): κ = (p_o − p_e) / (1 − p_e), p_o the observed agreement, p_e the
 * chance agreement Σ_k p_a(k) p_b(k) from each side's label shares.
 * Inputs: two arrays of labels, item i of `a` and of `b` being the same item; an empty string or
 * null means "not labelled" and drops the item. Output: Kappa.
 * @throws Error when the arrays differ in length.
 * Worked example (the classic 2×2 one): 50 items, both yes 20, a yes b no 5, a no b yes 10, both
 * no 15: p_o = 0.70, p_e = 0.5·0.6 + 0.5·0.4 = 0.50, κ = 0.40.
 */
export function cohenKappa(a: ReadonlyArray<string | null>, b: ReadonlyArray<string | null>): Kappa {
  if (a.length !== b.length) throw new Error(`cohenKappa: ${a.length} labels against ${b.length}`);
  const pairs: [string, string][] = [];
  for (let i = 0; i < a.length; i++) if (a[i] && b[i]) pairs.push([a[i]!, b[i]!]);
  const n = pairs.length;
  if (n === 0) return { n, observed: 0, expected: 0, kappa: null };
  const ca = new Map<string, number>();
  const cb = new Map<string, number>();
  let same = 0;
  for (const [x, y] of pairs) {
    if (x === y) same++;
    ca.set(x, (ca.get(x) ?? 0) + 1);
    cb.set(y, (cb.get(y) ?? 0) + 1);
  }
  const observed = same / n;
  let expected = 0;
  for (const [k, c] of ca) expected += (c / n) * ((cb.get(k) ?? 0) / n);
  const kappa = expected === 1 ? null : (observed - expected) / (1 - expected);
  return { n, observed, expected, kappa };
}
