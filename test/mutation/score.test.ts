/** Mutation scoring and its export on hand-built runs (pure: no Spark). */
import { aggregateByCondition, scoreSuite, type ClassifiedMutant } from '../../activities/mutation/score';
import type { VariantRun } from '../../activities/mutation/suites';
import { mutationRows } from '../../activities/report/exports';
import { suiteLine, suiteRunOrigin, validTestsOf } from '../../activities/mutation/study';

const run = (variant: string, passed: boolean, status: VariantRun['status'] = 'completed'): VariantRun =>
  ({ variant, passed, status, exitCode: passed ? 0 : status === 'completed' ? 1 : null }) as VariantRun;

const MUTANTS: ClassifiedMutant[] = [
  { id: 'join-type-1', operator: 'join-type', verdict: 'killable' },
  { id: 'filter-bound-1', operator: 'filter-bound', verdict: 'killable' },
  { id: 'filter-bound-2', operator: 'filter-bound', verdict: 'killable' },
  { id: 'distinct-1', operator: 'distinct', verdict: 'equivalent' },
  { id: 'rollup-1', operator: 'rollup', verdict: 'error' },
];

test('a valid suite: detected mutants are killed, survivors are counted by operator', () => {
  const s = scoreSuite('q7', 'one-pass', 'abc', MUTANTS, [run('gold', true), run('join-type-1', false), run('filter-bound-1', true), run('filter-bound-2', false, 'timeout')]);
  expect([s.validOnGold, s.killed, s.total, s.equivalent, s.undecided, s.score]).toEqual([true, 2, 3, 1, 1, 2 / 3]);
  expect(s.mutants.map((m) => [m.id, m.detected, m.killed, m.status])).toEqual([
    ['join-type-1', true, true, 'completed'],
    ['filter-bound-1', false, false, 'completed'],
    ['filter-bound-2', true, true, 'timeout'],
  ]);
  expect(s.survivorsByOperator).toEqual({ 'filter-bound': 1 });
});

test('a suite invalid on gold: what it detected is kept, nothing is killed', () => {
  const s = scoreSuite('q7', 'test-guided', 'def', MUTANTS, [run('gold', false), run('join-type-1', false), run('filter-bound-1', true), run('filter-bound-2', false)]);
  expect([s.validOnGold, s.goldExitCode, s.killed, s.total, s.score, s.goldFailure]).toEqual([false, 1, 0, 3, null, 'pytest exit 1']);
  expect(s.mutants.map((m) => [m.detected, m.killed])).toEqual([[true, false], [false, false], [true, false]]);
  expect(s.survivorsByOperator).toEqual({});
  expect(() => scoreSuite('q7', 'x', 'y', MUTANTS, [run('gold', true)])).toThrow('q7/x: no run of the suite on mutant join-type-1');
});

test('pooled and mean scores per condition leave invalid suites out', () => {
  expect(aggregateByCondition([
    { condition: 'one-pass', validOnGold: true, killed: 2, total: 3 },
    { condition: 'one-pass', validOnGold: true, killed: 4, total: 4 },
    { condition: 'one-pass', validOnGold: false, killed: 0, total: 5 },
    { condition: 'planaudit', validOnGold: null, killed: 0, total: 0 },
  ])).toEqual([
    { condition: 'one-pass', suites: 3, validSuites: 2, invalidSuites: 1, measuredThroughValidTests: 0, killed: 6, total: 7, pooledScore: 6 / 7, meanScore: (2 / 3 + 1) / 2 },
    { condition: 'planaudit', suites: 1, validSuites: 1, invalidSuites: 0, measuredThroughValidTests: 0, killed: 0, total: 0, pooledScore: null, meanScore: null },
  ]);
});

test('the export has detected and killed per mutant, also from an older mutation.json with killed as observed', () => {
  const invalid = scoreSuite('q7', 'test-guided', 'def', MUTANTS, [run('gold', false), run('join-type-1', false), run('filter-bound-1', true), run('filter-bound-2', false)]);
  const older = { task: 'q3', condition: 'one-pass', suiteSha: 'old', validOnGold: false, mutants: [{ id: 'join-type-1', operator: 'join-type', killed: true, status: 'completed' }] };
  const notRun = { task: 'q4', condition: 'one-pass', suiteSha: 'nr', validOnGold: false, mutants: [{ id: 'distinct-1', operator: 'distinct', detected: false, killed: false, status: 'not-run' }] };
  const table = mutationRows('s1', { suites: [invalid, older, { task: 'q9', condition: 'one-pass', suiteSha: 'none', validOnGold: true, mutants: [] }, notRun] });
  expect(table.columns.map(([n]) => n)).toEqual(['study', 'task', 'condition', 'suite_sha', 'valid_on_gold', 'mutant', 'operator', 'detected', 'killed', 'status']);
  expect(table.rows.map((r) => [r.task, r.mutant, r.detected, r.killed])).toEqual([
    ['q7', 'join-type-1', true, false],
    ['q7', 'filter-bound-1', false, false],
    ['q7', 'filter-bound-2', true, false],
    ['q3', 'join-type-1', true, false],
    ['q9', '', null, null],
    ['q4', 'distinct-1', null, null],
  ]);
});

test("where a suite's runs came from (mutation.json `ran`): the study's own results make it `here` even when read back from the cache, as the main job does when it writes mutation.json", () => {
  expect(suiteRunOrigin({ cached: false, shared: false, resultsInStudy: false })).toBe('here');
  // The main job's step 5: each task ran its suites, then mutation.json is written from the cache.
  expect(suiteRunOrigin({ cached: true, shared: false, resultsInStudy: true })).toBe('here');
  // Another condition's identical suite ran them (in this study) or an earlier study did.
  expect(suiteRunOrigin({ cached: true, shared: false, resultsInStudy: false })).toBe('cache');
  expect(suiteRunOrigin({ cached: false, shared: true, resultsInStudy: false })).toBe('same-suite');
});

// Per-test validity (score.ts header): a suite of four tests, one of which asserts a wrong total and
// fails gold. Its mutants were run with the three valid tests only: join-type-1 fails one of them,
// filter-bound-1 passes all three, filter-bound-2 times out. Worked by hand: 2 of 3 killed.
const tests = (outcomes: [string, 'passed' | 'failed'][]) => outcomes.map(([name, outcome]) => ({ name, obligations: [], outcome }));
const GOLD_3_OF_4: VariantRun = { variant: 'gold', passed: false, status: 'completed', exitCode: 1, ms: 1, failure: 'test_total: assert 30 == 25',
  tests: tests([['test_names', 'passed'], ['test_total', 'failed'], ['test_order', 'passed'], ['test_filter', 'passed']]) };

test('a suite that fails gold is measured through the tests that pass gold', () => {
  const runs = [GOLD_3_OF_4, run('join-type-1', false), run('filter-bound-1', true), run('filter-bound-2', false, 'timeout')];
  expect(validTestsOf(runs)).toEqual(['test_names', 'test_order', 'test_filter']);
  const s = scoreSuite('q7', 'one-pass', 'abc', MUTANTS, runs, validTestsOf(runs));
  expect([s.validOnGold, s.killed, s.total, s.score, s.validTests]).toEqual([false, 2, 3, 2 / 3, { valid: 3, tests: 4 }]);
  expect(s.survivorsByOperator).toEqual({ 'filter-bound': 1 });
  expect(suiteLine(s)).toBe('1 of its 4 tests reject the gold solution (a finding: test_total: assert 30 == 25); measured through the other 3: killed 2/3');
  // The same runs without the restriction (the mutants ran the whole suite): nothing counts.
  const whole = scoreSuite('q7', 'one-pass', 'abc', MUTANTS, runs);
  expect([whole.killed, whole.score, whole.validTests]).toEqual([0, null, undefined]);
  expect(suiteLine(whole)).toBe('rejects the gold solution, so its mutation score and test labels are not counted (a finding): test_total: assert 30 == 25');
  // The condition's pooled score takes it in beside a valid suite (4/4) and a suite with no valid test.
  expect(aggregateByCondition([
    { condition: 'one-pass', validOnGold: true, killed: 4, total: 4 },
    s,
    { condition: 'one-pass', validOnGold: false, killed: 0, total: 5 },
  ])).toEqual([{ condition: 'one-pass', suites: 3, validSuites: 1, invalidSuites: 2, measuredThroughValidTests: 1, killed: 6, total: 7, pooledScore: 6 / 7, meanScore: (1 + 2 / 3) / 2 }]);
});

test('no test to measure through: gold passed, gold did not complete, or every test failed gold', () => {
  expect(validTestsOf([run('gold', true)])).toBeUndefined();
  expect(validTestsOf([{ ...GOLD_3_OF_4, status: 'timeout', exitCode: null }])).toBeUndefined();
  expect(validTestsOf([{ ...GOLD_3_OF_4, tests: tests([['test_total', 'failed']]) }])).toBeUndefined();
  expect(validTestsOf([run('join-type-1', false)])).toBeUndefined();
});
