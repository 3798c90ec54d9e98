/** Numbers given on the command line or in the environment are parsed once, with clear errors. */
import { buildStudyInput, parseScale, parseTaskConcurrency, scaleDefault } from '../../client/studyInput';

test('parseScale accepts positive numbers and names the source of a bad one', () => {
  expect([parseScale('1'), parseScale('0.01'), parseScale(' 10 '), parseScale('1e-2')]).toEqual([1, 0.01, 10, 0.01]);
  expect(() => parseScale('abc')).toThrow('--scale: "abc" is not a positive number (a TPC-DS scale factor such as 1 or 0.01)');
  expect(() => parseScale('0')).toThrow('--scale: "0" is not a positive number');
  expect(() => parseScale('-1')).toThrow('--scale: "-1" is not a positive number');
  expect(() => parseScale('')).toThrow('--scale: "" is not a positive number');
  expect(() => parseScale('1x', 'LOCKIN_SCALE')).toThrow('LOCKIN_SCALE: "1x" is not a positive number');
});

test('the scale default comes from LOCKIN_SCALE when set (study run and study main alike)', () => {
  const saved = process.env.LOCKIN_SCALE;
  try {
    delete process.env.LOCKIN_SCALE;
    expect(scaleDefault()).toEqual({ value: '1', source: '--scale' });
    process.env.LOCKIN_SCALE = '0.01';
    expect(scaleDefault()).toEqual({ value: '0.01', source: 'LOCKIN_SCALE' });
  } finally {
    if (saved === undefined) delete process.env.LOCKIN_SCALE;
    else process.env.LOCKIN_SCALE = saved;
  }
});

test('--concurrency takes a positive integer; a study has four tasks in flight unless told otherwise', () => {
  expect([parseTaskConcurrency('1'), parseTaskConcurrency(' 6 ')]).toEqual([1, 6]);
  expect(() => parseTaskConcurrency('0')).toThrow('--concurrency: "0" is not a positive integer (tasks in flight at once)');
  expect(() => parseTaskConcurrency('two')).toThrow('--concurrency: "two" is not a positive integer');
  expect(() => parseTaskConcurrency('1.5')).toThrow('--concurrency: "1.5" is not a positive integer');
  expect(buildStudyInput({ studyId: 's' }).taskConcurrency).toBe(4);
  expect(buildStudyInput({ studyId: 's', taskConcurrency: 1 }).taskConcurrency).toBe(1);
});
