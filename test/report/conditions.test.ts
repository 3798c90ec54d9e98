/**
 * Which conditions the report's tables show (protocol/conditions.ts studyConditions,
 * reportedConditions): exactly the study's conditions in Table I order; a manifest without
 * `conditions` (a hand-built fixture) means the paper's three (docs/protocol.md §2).
 */
import { tableI, tableMutation, tableMutationPerSuite } from '../../activities/report/tables';
import { reportedConditions, scoredSuite, studyConditions } from '../../protocol/conditions';

const suite = (task: string, condition: string, killed: number, total: number) =>
  ({ task, condition, suiteSha: 'x', validOnGold: true, goldExitCode: 0, total, killed, equivalent: 0, undecided: 0, score: killed / total, mutants: [], survivorsByOperator: {} }) as never;

test('reportedConditions: the given conditions in Table I order; studyConditions: the study\'s, the paper\'s three without a manifest field', () => {
  expect(reportedConditions(['one-pass'])).toEqual(['one-pass']);
  expect(reportedConditions(['contract-first', 'one-pass', 'nonsense'])).toEqual(['one-pass', 'contract-first']);
  expect(studyConditions(['contract-first', 'one-pass'], [])).toEqual(['one-pass', 'contract-first']);
  // a declared condition without a record is still shown; a recorded one the manifest lacks too
  expect(studyConditions(['one-pass', 'plan-audit'], ['one-pass'])).toEqual(['one-pass', 'plan-audit']);
  expect(studyConditions(['one-pass'], ['one-pass', 'test-guided'])).toEqual(['one-pass', 'test-guided']);
  expect(studyConditions(undefined, ['one-pass'])).toEqual(['one-pass', 'test-guided', 'plan-audit']);
  expect(studyConditions(undefined, ['one-pass', 'contract-first'])).toEqual(['one-pass', 'test-guided', 'plan-audit', 'contract-first']);
  expect([scoredSuite('contract-first'), scoredSuite('test-guided')]).toEqual(['contract_test.py', 'test_solution.py']);
});

test('Table I and the mutation tables get a Contract-First row/column when it is present', () => {
  expect(tableI()).not.toContain('Contract-First');
  expect(tableI(['contract-first'])).toContain('| Contract-First Revision | task + input schemas | failures of the frozen contract suite | solution.py | ≤ 4 |');
  const rows = [suite('q3', 'one-pass', 1, 4), suite('q3', 'contract-first', 3, 4)];
  expect(tableMutation(rows)).toContain('| Contract-First Revision | 1 | 0 (0) | 3/4 | 75.00% | 75.00% |');
  expect(tableMutationPerSuite(rows, ['q3'])).toContain('| q3 | 1/4 | 3/4 | 0 |');
  expect(tableMutationPerSuite(rows, ['q3'], ['one-pass', 'test-guided', 'plan-audit', 'contract-first'])).toContain('| q3 | 1/4 | — | — | 3/4 | 0 |');
  expect(tableMutation([suite('q3', 'one-pass', 1, 4)])).not.toContain('Contract-First');
});
