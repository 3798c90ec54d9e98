/** The CLI's error line names the innermost cause (a child workflow's or an activity's failure). */
import { causeChain } from '../../client/errors';

test('a workflow failure wrapping a child and an activity failure: the generic wrappers are left out', () => {
  const activity = new Error('q12: reference query divides by zero under ANSI');
  const child = Object.assign(new Error('Activity task failed'), { cause: activity });
  const wf = Object.assign(new Error('Child Workflow execution failed'), { cause: child });
  const top = Object.assign(new Error('Workflow execution failed'), { cause: wf });
  expect(causeChain(top)).toBe('q12: reference query divides by zero under ANSI');
});

test('distinct messages are kept outermost first; a repeated one once', () => {
  const inner = new Error('no such file: tasks/q99/task.yaml');
  const mid = Object.assign(new Error('the task corpus has 1 problem(s)'), { cause: inner });
  const top = Object.assign(new Error('the task corpus has 1 problem(s)'), { cause: mid });
  expect(causeChain(top)).toBe('the task corpus has 1 problem(s): no such file: tasks/q99/task.yaml');
  expect(causeChain('plain')).toBe('plain');
});
