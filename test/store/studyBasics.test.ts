/**
 * readStudyBasics (activities/store/manifest.ts), the one reader of study.json for the step-5
 * activities (the mutation analysis and the labeller check), on study folders written here.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { initStudy, readStudyBasics } from '../../activities/store/manifest';
import { buildStudyInput } from '../../client/studyInput';
import { InputError } from '../../activities/common/errors';
import { TEST_SPARK_SETTINGS } from '../support/database';

let runs: string;
const saved = process.env.LOCKIN_RUNS;
const write = (id: string, text: string) => {
  fs.mkdirSync(path.join(runs, id), { recursive: true });
  fs.writeFileSync(path.join(runs, id, 'study.json'), text);
};

beforeAll(() => {
  runs = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-basics-'));
  process.env.LOCKIN_RUNS = runs;
  write('old', JSON.stringify({ tasks: ['q3', 'q98'], scale: 0.01, settings: TEST_SPARK_SETTINGS, model: 'replay:lockin' }));
  write('warm', JSON.stringify({ tasks: ['q7'], scale: 1, settings: TEST_SPARK_SETTINGS, sparkMode: 'warm', sparkJit: 'quick' }));
  write('bad-jit', JSON.stringify({ tasks: [], scale: 1, settings: TEST_SPARK_SETTINGS, sparkJit: 'c2' }));
  write('no-tasks', JSON.stringify({ scale: 1, settings: TEST_SPARK_SETTINGS }));
  write('bad-mode', JSON.stringify({ tasks: [], scale: 1, settings: TEST_SPARK_SETTINGS, sparkMode: 'hot' }));
  write('not-json', '{"tasks": [');
});
afterAll(() => {
  if (saved === undefined) delete process.env.LOCKIN_RUNS;
  else process.env.LOCKIN_RUNS = saved;
  fs.rmSync(runs, { recursive: true, force: true });
});

test('tasks, scale, settings, mode and JIT; a study.json from before they were recorded is cold and tiered', () => {
  expect(readStudyBasics('old')).toEqual({ sdir: path.join(runs, 'old'), tasks: ['q3', 'q98'], scale: 0.01, settings: TEST_SPARK_SETTINGS, sparkMode: 'cold', sparkJit: 'tiered' });
  expect(readStudyBasics('warm')).toMatchObject({ sparkMode: 'warm', sparkJit: 'quick' });
});

test('a missing, malformed or non-JSON study.json is an InputError naming the file and the field', () => {
  const file = (id: string) => path.join(runs, id, 'study.json');
  expect(() => readStudyBasics('nope')).toThrow(new InputError('no such study (study.json missing)', file('nope')));
  const caught = (id: string) => {
    try {
      readStudyBasics(id);
    } catch (err) {
      return err as InputError;
    }
    throw new Error('no error');
  };
  expect([caught('no-tasks').file, caught('no-tasks').field]).toEqual([file('no-tasks'), 'tasks']);
  expect([caught('bad-mode').file, caught('bad-mode').field]).toEqual([file('bad-mode'), 'sparkMode']);
  expect([caught('bad-jit').file, caught('bad-jit').field]).toEqual([file('bad-jit'), 'sparkJit']);
  expect(caught('not-json')).toBeInstanceOf(InputError);
  expect(caught('not-json').message).toMatch(/study\.json: not JSON/);
});

test("a new study records the main job's LOCKIN_SPARK_JIT as sparkJit, outside the manifest hash (a resume under another JIT is not refused)", async () => {
  const savedJit = process.env.LOCKIN_SPARK_JIT;
  try {
    process.env.LOCKIN_SPARK_JIT = 'quick';
    const input = { studyId: 'jit-recorded', tasks: ['q3'], model: 'replay:gold', scale: 0.01 };
    const a = await initStudy(buildStudyInput(input));
    expect(JSON.parse(fs.readFileSync(path.join(a.studyDir, 'study.json'), 'utf8')).sparkJit).toBe('quick');
    delete process.env.LOCKIN_SPARK_JIT;
    const resumed = await initStudy(buildStudyInput(input));
    expect(resumed.manifestHash).toBe(a.manifestHash);
    expect(readStudyBasics('jit-recorded').sparkJit).toBe('quick');
  } finally {
    if (savedJit === undefined) delete process.env.LOCKIN_SPARK_JIT;
    else process.env.LOCKIN_SPARK_JIT = savedJit;
  }
});
