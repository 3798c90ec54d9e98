/**
 * Per-test validity of the executable test labels and the "repeats incorrect logic" finding
 * (activities/obligations/labels.ts testLabelsFrom), and what a column swap shows
 * (activities/obligations/check.ts swapResult). Pure: the runs are built here, so the right
 * labels are known.
 */
import { testLabelsFrom } from '../../activities/obligations/labels';
import { swapResult } from '../../activities/obligations/check';
import type { TestOutcome, VariantRun } from '../../activities/mutation/suites';

type O = TestOutcome['outcome'];
function run(variant: string, outcomes: Record<string, O>, status: VariantRun['status'] = 'completed'): VariantRun {
  const tests = Object.entries(outcomes).map(([name, outcome]) => ({ name, obligations: [], outcome }));
  return { variant, exitCode: tests.every((t) => t.outcome === 'passed') ? 0 : 1, passed: tests.every((t) => t.outcome === 'passed'), status, ms: 1, tests };
}

describe('testLabelsFrom', () => {
  // A wrong-metric candidate's suite: test_schema passes gold; test_totals asserts the list-price
  // totals (fails gold); test_filter passes gold and checks the manufacturer filter.
  const runs = new Map<string, VariantRun>([
    ['gold', run('gold', { test_schema: 'passed', test_totals: 'failed', test_filter: 'passed' })],
    ['O8', run('O8', { test_schema: 'passed', test_totals: 'failed', test_filter: 'failed' })], // no manufacturer filter
    ['O5', run('O5', { test_schema: 'passed', test_totals: 'failed', test_filter: 'passed' })], // a widening cast: nothing notices
    ['O13', run('O13', { test_schema: 'passed', test_totals: 'passed', test_filter: 'passed' })], // sums the list price, as the tests do
    ['O9', run('O9', { test_schema: 'passed', test_totals: 'failed', test_filter: 'passed' })],
  ]);
  const swaps = new Map([['O9', [{ via: 'swap.d_moy.d_qoy', run: run('swap.d_moy.d_qoy', { test_totals: 'failed' }) }]]]);

  test('a test failing gold covers nothing; valid tests cover what they fail on; repeats is found through the violation', () => {
    const l = testLabelsFrom(['O8', 'O5', 'O13', 'O9'], runs, swaps);
    expect(l.test.O8).toMatchObject({ label: 'covered' });
    expect(l.test.O8.evidence).toBe('test_filter (passing gold) fail(s) on the violation');
    expect(l.test.O5).toEqual({ label: 'not-covered', evidence: 'none of the 2 test(s) passing gold fails on the violation' });
    expect(l.test.O13.label).toBe('not-covered');
    expect(l.test.O13.repeats).toEqual({ tests: ['test_totals'], via: 'O13' });
    expect(l.test.O9.repeats).toBeUndefined(); // test_totals fails on the swap too
    expect(l.suiteOnGold).toEqual({ passed: false, failure: 'test_totals', valid: 2, invalid: 1 });
    expect(l.suiteTests.find((t) => t.name === 'test_totals')).toEqual({ name: 'test_totals', gold: 'failed', violations: { O8: 'failed', O5: 'failed', O13: 'passed', O9: 'failed' } });
  });

  test('repeats through a plausible column swap when the violation is another mistake', () => {
    const other = new Map(runs);
    other.set('O13', run('O13', { test_schema: 'passed', test_totals: 'failed', test_filter: 'passed' })); // the corpus violation sums net_paid
    const l = testLabelsFrom(['O13'], other, new Map([['O13', [
      { via: 'swap.ss_ext_sales_price.ss_net_paid', run: run('s1', { test_totals: 'failed' }) },
      { via: 'swap.ss_ext_sales_price.ss_ext_list_price', run: run('s2', { test_totals: 'passed' }) },
    ]]]));
    expect(l.test.O13.repeats).toEqual({ tests: ['test_totals'], via: 'swap.ss_ext_sales_price.ss_ext_list_price' });
    expect(l.test.O13.evidence).toContain('gold reading ss_ext_list_price for ss_ext_sales_price');
  });

  test('a suite whose tests all fail gold covers nothing and is not invalid-on-gold any more', () => {
    const l = testLabelsFrom(['O8'], new Map([['gold', run('gold', { a: 'failed' })], ['O8', run('O8', { a: 'failed' })]]), new Map());
    expect(l.test.O8).toEqual({ label: 'not-covered', evidence: 'no test covers it: 0 of 1 test(s) pass gold' });
  });

  test('a suite that ends early on a violation, having passed gold, detected it', () => {
    const l = testLabelsFrom(['O8'], new Map([['gold', run('gold', { a: 'passed' })], ['O8', { variant: 'O8', exitCode: null, passed: false, status: 'timeout', ms: 1 }]]), new Map());
    expect(l.test.O8.label).toBe('covered');
  });
});

describe('swapResult', () => {
  const tested = [{ id: 'O13', tests: ['t_total'] }, { id: 'O6', tests: ['t_join'] }, { id: 'O11', tests: ['t_order', 't_total'] }];
  const sw = { id: 'swap.a.b', from: 'a', to: 'b', plausible: true, obligations: ['O13'] };
  test('a plausible swap must fail its obligations and no other (a test shared with them is theirs)', () => {
    expect(swapResult(sw, run('swap.a.b', { t_total: 'failed', t_join: 'passed', t_order: 'passed' }), tested)).toEqual({ id: 'swap.a.b', from: 'a', to: 'b', plausible: true, undetectedBy: [], alsoFails: [] });
    expect(swapResult(sw, run('swap.a.b', { t_total: 'passed', t_join: 'failed', t_order: 'failed' }), tested)).toMatchObject({ undetectedBy: ['O13'], alsoFails: [{ id: 'O6', tests: ['t_join'] }, { id: 'O11', tests: ['t_order'] }] });
  });
  test('another alternative only has to be told apart; a run without tests is not run', () => {
    expect(swapResult({ ...sw, plausible: false }, run('x', { t_total: 'passed', t_join: 'failed' }), tested)).toMatchObject({ undetectedBy: ['O13'], alsoFails: [] });
    expect(swapResult(sw, { variant: 'x', exitCode: null, passed: false, status: 'crash', ms: 1 }, tested).notRun).toBe('the run recorded no test (crash, exit null)');
  });
});
