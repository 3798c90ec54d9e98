/** Numbers given on the command line or in the environment are parsed once, with clear errors. */
import { buildStudyInput, generationSettings, parseGenerationFlags, parseScale, parseTaskConcurrency, readModelSettingsFile, scaleDefault } from '../../client/studyInput';
import { resolveModelParams, STUDY_MODEL_PARAMS } from '../../protocol/settings';

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

test('generation settings: the paper\'s by default (params equal STUDY_MODEL_PARAMS, no new fields); flags for every model; a --model-settings file per model; bad values name the flag, the file and the field', () => {
  const fs = require('fs') as typeof import('fs');
  const os = require('os') as typeof import('os');
  const path = require('path') as typeof import('path');
  expect(generationSettings({}, ['anthropic'])).toEqual({ params: STUDY_MODEL_PARAMS });
  expect(generationSettings({ maxTokens: '512', temperature: '0.7', topP: '0.9', contextSize: '4096', stop: ['</s>', 'END'] }, ['local'])).toEqual({
    params: { temperature: 0.7, topP: 0.9, maxTokens: 512, longContext: true, contextSize: 4096, stop: ['</s>', 'END'] },
  });
  expect(() => parseGenerationFlags({ temperature: '1.5' })).toThrow('--temperature: "1.5" is not valid');
  expect(() => parseGenerationFlags({ maxTokens: 'many' })).toThrow('--max-tokens: "many" is not valid');
  expect(() => parseGenerationFlags({ contextSize: '100' })).toThrow('--context-size: "100" is not valid');
  expect(() => parseGenerationFlags({ topP: '0' })).toThrow('--top-p: "0" is not valid');

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-settings-'));
  const file = path.join(dir, 'models.yaml');
  fs.writeFileSync(file, 'local:gemma3-270m:\n  maxTokens: 256\n  stop: ["\\n\\n\\n"]\n');
  const matrix = generationSettings({ modelSettings: file, temperature: '0.5' }, ['anthropic', 'local:gemma3-270m']);
  expect(matrix.params).toEqual({ ...STUDY_MODEL_PARAMS, temperature: 0.5 });
  expect(matrix.modelParams).toEqual({ anthropic: { ...STUDY_MODEL_PARAMS, temperature: 0.5 }, 'local:gemma3-270m': { ...STUDY_MODEL_PARAMS, temperature: 0.5, maxTokens: 256, stop: ['\n\n\n'] } });
  fs.writeFileSync(file, 'local:gemma3-270m:\n  temprature: 0.2\n');
  expect(() => readModelSettingsFile(file, ['local:gemma3-270m'])).toThrow(`--model-settings ${file} (local:gemma3-270m.temprature)`);
  fs.writeFileSync(file, 'local:gemma3-270m:\n  maxTokens: -1\n');
  expect(() => readModelSettingsFile(file, ['local:gemma3-270m'])).toThrow(`--model-settings ${file} (local:gemma3-270m.maxTokens)`);
  fs.writeFileSync(file, 'openai:gpt-4.1: {}\n');
  expect(() => readModelSettingsFile(file, ['local:gemma3-270m'])).toThrow('"openai:gpt-4.1" is not a model of this study (local:gemma3-270m)');
  fs.rmSync(dir, { recursive: true, force: true });
  // An empty stop list and no context size leave the params as the paper's (the manifest hash of older studies holds).
  expect(resolveModelParams({ stop: [] })).toEqual(STUDY_MODEL_PARAMS);
});
