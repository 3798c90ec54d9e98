/** The CLI's error line names the innermost cause (a child workflow's or an activity's failure). */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { causeChain } from '../../client/errors';
import { studyFolder } from '../../client/commands/labels';
import { checkTaskFolders } from '../../client/commands/tasks';

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

test('tasks check with an id that has no task folder: refused, naming it and the study tasks', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-tasks-root-'));
  fs.mkdirSync(path.join(root, 'q3'));
  expect(() => checkTaskFolders(['q3'], root)).not.toThrow();
  expect(() => checkTaskFolders(['q999', 'q3', 'x'], root)).toThrow(`no task folder for q999, x under ${root} (the study's 30 tasks: q2 q4 q5 q11 q13 q14a q14b q17 q33 q35 q47 q69 q77 q78 q80 q1 q3 q7 q12 q18 q22 q27 q36 q38 q49 q51 q70 q87 q94 q98)`);
});
