/**
 * The "Samples and intervals" section on hand-made records whose numbers are counted by hand:
 * 3 tasks × 2 samples × 2 conditions of model m1, and one condition of model m2.
 */
import { intervalAnalysis, renderIntervals } from '../../activities/report/intervals';
import { wilson } from '../../activities/common/intervals';
import type { RunRecord } from '../../protocol/types';

/** A record with only the fields the section reads. */
function rec(model: string, taskId: string, sample: number, condition: RunRecord['condition'], testPassed: boolean, referenceAgreement: boolean, replicate?: string): RunRecord {
  return { model, taskId, sample, condition, testPassed, referenceAgreement, falsePass: testPassed && !referenceAgreement, replicate } as RunRecord;
}

// one-pass: every run passes its tests; a and b disagree with the reference (false passes), c agrees.
// test-guided: a's sample 2 and b's sample 1 now agree; the rest as one-pass.
const records: RunRecord[] = [
  rec('m1', 'a', 1, 'one-pass', true, false), rec('m1', 'a', 2, 'one-pass', true, false),
  rec('m1', 'b', 1, 'one-pass', true, false), rec('m1', 'b', 2, 'one-pass', true, false),
  rec('m1', 'c', 1, 'one-pass', true, true), rec('m1', 'c', 2, 'one-pass', true, true),
  rec('m1', 'a', 1, 'test-guided', true, false), rec('m1', 'a', 2, 'test-guided', true, true),
  rec('m1', 'b', 1, 'test-guided', true, true), rec('m1', 'b', 2, 'test-guided', true, false),
  rec('m1', 'c', 1, 'test-guided', true, true), rec('m1', 'c', 2, 'test-guided', true, true),
  // A replicate run is left out.
  rec('m1', 'a', 1, 'one-pass', false, false, 'r1'),
  // Model m2, one-pass only, sample 1 of each task: only c's run is a false pass.
  rec('m2', 'a', 1, 'one-pass', false, false), rec('m2', 'b', 1, 'one-pass', true, true), rec('m2', 'c', 1, 'one-pass', true, false),
];

test('per model and condition: counts over task × sample, Wilson intervals, and a bootstrap over tasks when K > 1', () => {
  const a = intervalAnalysis(records, { seed: 5, replicates: 1000 });
  expect(a.models.map((m) => [m.model, m.samples, m.tasks.join(' ')])).toEqual([['m1', 2, 'a b c'], ['m2', 1, 'a b c']]);
  const [op, tg] = a.models[0].conditions;
  expect([op.condition, op.runs, op.tasks]).toEqual(['one-pass', 6, 3]);
  expect(op.rates.falsePass.wilson).toEqual(wilson(4, 6));
  expect(op.rates.testPassed.wilson.x).toBe(6);
  expect(op.rates.referenceAgreement.wilson.x).toBe(2);
  expect(tg.rates.falsePass.wilson.x).toBe(2);
  // Per-task false-pass rates of one-pass are 1, 1, 0: every resample's pooled rate is a multiple of 1/3.
  const bs = op.rates.falsePass.bootstrap!;
  expect(bs.estimate).toBeCloseTo(4 / 6, 12);
  for (const v of [bs.lower, bs.upper]) expect(Math.abs(v * 3 - Math.round(v * 3))).toBeLessThan(1e-9);
  expect(bs.lower).toBeLessThanOrEqual(1 / 3 + 1e-12);
  expect(bs.upper).toBe(1);
  // One sample per task: no bootstrap.
  expect(a.models[1].conditions[0].rates.falsePass.bootstrap).toBeUndefined();
  expect(a.models[1].conditions[0].rates.falsePass.wilson.x).toBe(1);
});

test('paired between conditions: McNemar on the same task and sample, sign and Wilcoxon on per-task changes', () => {
  const [p] = intervalAnalysis(records).models[0].paired;
  expect([p.first, p.second, p.pairs]).toEqual(['one-pass', 'test-guided', 6]);
  // False pass under one-pass only: a/s2, b/s1 (b = 2); under test-guided only: none (c = 0). p = 2 · ¼ = 0.5.
  expect(p.mcnemar.falsePass).toEqual({ b: 2, c: 0, p: 0.5 });
  expect(p.mcnemar.referenceAgreement).toEqual({ b: 0, c: 2, p: 0.5 });
  expect(p.mcnemar.testPassed).toEqual({ b: 0, c: 0, p: 1 });
  // Per task, test-guided − one-pass false-pass rate: a −½, b −½, c 0.
  const ch = p.perTaskFalsePassChange!;
  expect([ch.tasks, ch.median, ch.lower, ch.upper]).toEqual([3, -0.5, -0.5, -0.25]);
  expect([ch.sign.negative, ch.sign.positive, ch.sign.zeros, ch.sign.p]).toEqual([2, 0, 1, 0.5]);
  // Two tied non-zero changes (ranks 1.5, 1.5), both negative: W+ = 0; P(W+ ≤ 0) = ¼, p = ½.
  expect([ch.wilcoxon.n, ch.wilcoxon.wPlus, ch.wilcoxon.p]).toEqual([2, 0, 0.5]);
});

test('between models: one-pass on the task × sample runs both have (sample 1 of a, b, c)', () => {
  const a = intervalAnalysis(records);
  expect(a.betweenModels).toHaveLength(1);
  const bm = a.betweenModels[0];
  expect([bm.condition, bm.first, bm.second, bm.pairs]).toEqual(['one-pass', 'm1', 'm2', 3]);
  // m1 false passes on a/1, b/1; m2 on c/1: b = 2 (m1 only), c = 1 (m2 only), p = 1.
  expect(bm.mcnemar.falsePass).toEqual({ b: 2, c: 1, p: 1 });
});

test('the rendered section has one subsection per model and a between-model table', () => {
  const md = renderIntervals(intervalAnalysis(records, { seed: 5, replicates: 1000 }));
  expect(md).toContain('### Model m1');
  expect(md).toContain('### Model m2');
  expect(md).toContain('### Between models');
  expect(md).toContain(`4/6 = 66.7% [${(100 * wilson(4, 6).lower).toFixed(1)}%, ${(100 * wilson(4, 6).upper).toFixed(1)}%]; tasks [`);
  expect(md).toContain('2 / 0, p = 0.500');
  expect(md).toContain('1000 resamples, seed 5');
});
