/** Mutation scoring and its export on hand-built runs (pure: no Spark). */
import { aggregateByCondition, scoreSuite, type ClassifiedMutant } from '../../activities/mutation/score';
import type { VariantRun } from '../../activities/mutation/suites';
import { mutationRows } from '../../activities/report/exports';
import { suiteRunOrigin } from '../../activities/mutation/study';

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
    { condition: 'one-pass', suites: 3, validSuites: 2, invalidSuites: 1, killed: 6, total: 7, pooledScore: 6 / 7, meanScore: (2 / 3 + 1) / 2 },
    { condition: 'planaudit', suites: 1, validSuites: 1, invalidSuites: 0, killed: 0, total: 0, pooledScore: null, meanScore: null },
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
