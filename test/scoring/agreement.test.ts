/** Cohen's kappa against worked examples computed by hand (activities/scoring/agreement.ts). */
import { cohenKappa } from '../../activities/scoring/agreement';

const repeat = (pairs: [string, string, number][]) => {
  const a: string[] = [];
  const b: string[] = [];
  for (const [x, y, k] of pairs) for (let i = 0; i < k; i++) (a.push(x), b.push(y));
  return { a, b };
};

test('the classic 2×2 example: 50 items, 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no → p_o 0.70, p_e 0.50, κ 0.40', () => {
  const { a, b } = repeat([['yes', 'yes', 20], ['yes', 'no', 5], ['no', 'yes', 10], ['no', 'no', 15]]);
  const k = cohenKappa(a, b);
  expect(k.n).toBe(50);
  expect(k.observed).toBeCloseTo(0.7, 12);
  expect(k.expected).toBeCloseTo(0.5, 12);
  expect(k.kappa).toBeCloseTo(0.4, 12);
});

test('three labels: 10 items, 7 agree; marginals a (5,3,2) b (4,4,2) → p_e 0.36, κ = (0.7 − 0.36)/0.64 = 0.53125', () => {
  const { a, b } = repeat([
    ['present', 'present', 4], ['present', 'partial', 1],
    ['partial', 'partial', 2], ['partial', 'absent', 1],
    ['absent', 'absent', 1], ['absent', 'partial', 1],
  ]);
  // a: present 5, partial 3, absent 2; b: present 4, partial 4, absent 2 → p_e = .5·.4 + .3·.4 + .2·.2 = 0.36.
  const k = cohenKappa(a, b);
  expect(k.observed).toBeCloseTo(0.7, 12);
  expect(k.expected).toBeCloseTo(0.36, 12);
  expect(k.kappa).toBeCloseTo(0.53125, 12);
});

test('items without a label on either side are left out; perfect agreement is 1; one label on both sides has no kappa', () => {
  expect(cohenKappa(['a', '', 'b', null], ['a', 'b', 'b', 'a'])).toEqual({ n: 2, observed: 1, expected: 0.5, kappa: 1 });
  expect(cohenKappa(['x', 'x'], ['x', 'x']).kappa).toBeNull();
  expect(cohenKappa([], []).kappa).toBeNull();
  expect(() => cohenKappa(['a'], [])).toThrow('cohenKappa: 1 labels against 0');
});
