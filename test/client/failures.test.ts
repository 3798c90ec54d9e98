/**
 * What the CLI says under failed runs (new-user finding 31): a missing replay reply gets the
 * corpus's limit and the way round it, never "write the reply"; every failure gets where the
 * details are and what resume does.
 */
import { failureAdvice } from '../../client/studyRunner';

test('a missing replay reply: the corpus limit and --conditions paper, then the details and resume', () => {
  const lines = failureAdvice([{ task: 'q4/contract-first', error: 'replay reply not found: /x/replay/lockin/q4/contract-first/cf-revise-2.md' }], 's1');
  expect(lines).toHaveLength(2);
  expect(lines[0]).toContain('cannot be replayed; run the conditions the corpus holds (`lockin study run … --conditions paper`) or use a live model');
  expect(lines[1]).toBe("details in the Temporal UI (workflow study-s1/<task>) and runs/s1/failures.json; once the cause is fixed, `lockin study resume s1` reruns only the failed runs' tasks (model calls already made come from the cache)");
});

test('any other cause: only the details and resume', () => {
  expect(failureAdvice([{ task: 'q3', error: 'Activity task timed out' }], 's2')).toEqual([
    "details in the Temporal UI (workflow study-s2/<task>) and runs/s2/failures.json; once the cause is fixed, `lockin study resume s2` reruns only the failed runs' tasks (model calls already made come from the cache)",
  ]);
});
