/**
 * Which authored replies count as written from the task prompt alone (activities/report/provenance.ts
 * isPromptOnlyNote): the notes of replay/lockin's Contract-First replies, word for word.
 */
import * as fs from 'fs';
import * as path from 'path';
import { isPromptOnlyNote } from '../../activities/report/provenance';

const note = (taskId: string) => /^note: "(.*)"$/m.exec(fs.readFileSync(path.join(__dirname, '..', '..', 'replay', 'lockin', taskId, 'contract-first', 'c0-contract.md'), 'utf8'))![1];

test('a contract written from the prompt alone counts; one also run against gold before it was kept does not (new-user 3 finding 19)', () => {
  expect(isPromptOnlyNote(note('q98'))).toBe(true);
  expect(isPromptOnlyNote(note('q3'))).toBe(false);
  expect(isPromptOnlyNote(note('q4'))).toBe(false);
  expect(isPromptOnlyNote('written from the contract suite\'s failure output and the task prompt only')).toBe(true);
  expect(isPromptOnlyNote('written by hand with the references known')).toBe(false);
  expect(isPromptOnlyNote(undefined)).toBe(false);
  // 28 of the 30 contracts count as prompt-alone.
  const tasks = fs.readdirSync(path.join(__dirname, '..', '..', 'replay', 'lockin')).filter((t) => fs.existsSync(path.join(__dirname, '..', '..', 'replay', 'lockin', t, 'contract-first', 'c0-contract.md')));
  expect([tasks.length, tasks.filter((t) => isPromptOnlyNote(note(t))).length]).toEqual([30, 28]);
});
