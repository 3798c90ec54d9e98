/**
 * `--conditions` (client/studyInput.ts parseConditions): the four conditions by default, the
 * paper's three by name (docs/protocol.md §2).
 */
import { buildStudyInput, parseConditions } from '../../client/studyInput';

test('parseConditions: the four by default and for "all"; "paper" is the paper\'s three; a list is kept in its order', () => {
  const four = ['one-pass', 'test-guided', 'plan-audit', 'contract-first'];
  expect(parseConditions(undefined)).toEqual(four);
  expect(parseConditions('')).toEqual(four);
  expect(parseConditions('all')).toEqual(four);
  expect(parseConditions('paper')).toEqual(['one-pass', 'test-guided', 'plan-audit']);
  expect(parseConditions('contract-first, one-pass')).toEqual(['contract-first', 'one-pass']);
  expect(() => parseConditions('one-pass,contract')).toThrow('--conditions: unknown condition "contract" (one of one-pass, test-guided, plan-audit, contract-first)');
});

test('buildStudyInput: a study without named conditions (npm run study, study main) runs the four', () => {
  expect(buildStudyInput({ studyId: 's' }).conditions).toEqual(['one-pass', 'test-guided', 'plan-audit', 'contract-first']);
  expect(buildStudyInput({ studyId: 's', conditions: ['one-pass'] }).conditions).toEqual(['one-pass']);
});
