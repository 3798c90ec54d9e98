/** The equivalence run's verdict comparison (bench/verdicts.ts verdictDifferences): worked examples. */
import { verdictDifferences } from '../../bench/verdicts';

test('identical verdicts: no difference', () => {
  const v = { 'q3/one-pass outcome': 'test true reference true false-pass false', 'mutation q3/one-pass join-type-1': 'detected true killed true completed' };
  expect(verdictDifferences(v, { ...v })).toEqual([]);
});

test('a changed, a missing and an extra verdict are each listed, in key order', () => {
  const cold = { 'q3/one-pass test junit-initial.xml test_solution::test_a': 'passed', 'q3/one-pass output': 'a:int | 2 rows | 0123', 'q98/test-guided execution': 'ok 190 rows' };
  const warm = { 'q3/one-pass test junit-initial.xml test_solution::test_a': 'failed', 'q98/test-guided execution': 'ok 190 rows', 'q98/test-guided smoke': 'ok true' };
  expect(verdictDifferences(cold, warm)).toEqual([
    'q3/one-pass output: cold a:int | 2 rows | 0123 | warm (none)',
    'q3/one-pass test junit-initial.xml test_solution::test_a: cold passed | warm failed',
    'q98/test-guided smoke: cold (none) | warm ok true',
  ]);
});
