/** The CLI's error line names the innermost cause (a child workflow's or an activity's failure). */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { causeChain } from '../../client/errors';
import { studyFolder } from '../../client/commands/labels';

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

test('labels on a study without study.json: the error says why (no folder, several models, not yet at step 4)', () => {
  const runs = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-labels-folder-'));
  for (const d of ['multi', 'multi--replay-gold', 'multi--replay-lockin', 'early', 'done']) fs.mkdirSync(path.join(runs, d));
  for (const d of ['multi--replay-gold', 'multi--replay-lockin', 'done']) fs.writeFileSync(path.join(runs, d, 'study.json'), '{}');
  fs.writeFileSync(path.join(runs, 'early', 'input.json'), '{}');
  expect(studyFolder('done', runs)).toBe(path.join(runs, 'done'));
  expect(() => studyFolder('multi', runs)).toThrow('study multi ran several models and has no runs of its own: label one of its per-model studies (multi--replay-gold, multi--replay-lockin)');
  expect(() => studyFolder('early', runs)).toThrow('study early has no runs to label yet (study.json is written when its runs start, step 4 of the main job); try again after step 4');
  expect(() => studyFolder('nope', runs)).toThrow('study not found (no such folder)');
});
