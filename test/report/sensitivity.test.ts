/** Sensitivity subsets as a study setting: recorded in study.json (outside the manifest hash), the paper's by default. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { initStudy } from '../../activities/store/manifest';
import { buildStudyInput } from '../../client/studyInput';
import { PAPER_SENSITIVITY, paperShapedSubsets } from '../../protocol/sensitivity';

let runs: string;
const saved = process.env.LOCKIN_RUNS;
beforeAll(() => {
  runs = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-sens-'));
  process.env.LOCKIN_RUNS = runs;
});
afterAll(() => {
  if (saved === undefined) delete process.env.LOCKIN_RUNS;
  else process.env.LOCKIN_RUNS = saved;
  fs.rmSync(runs, { recursive: true, force: true });
});

test("the paper's subsets: q11 excluded, SQL-reproduced only, both; each with its rule", () => {
  expect(PAPER_SENSITIVITY.map((s) => [s.name, s.exclude, s.reproducedOnly])).toEqual([
    ['Excluding q11', ['q11'], false],
    ['SQL-reproduced references only', [], true],
    ['SQL-reproduced, excluding q11', ['q11'], true],
  ]);
  expect(PAPER_SENSITIVITY[0].rule).toBe('every task but q11 (the paper excludes "the session-sensitive q11 score record")');
  expect(paperShapedSubsets([], 'none').map((s) => s.name)).toEqual(['SQL-reproduced references only']);
});

test("study.json records the setting (default: the paper's); it is outside the manifest hash, so a resume with another setting is not refused", async () => {
  const input = { studyId: 'sens-default', tasks: ['q3'], model: 'replay:gold', scale: 0.01 };
  const a = await initStudy(buildStudyInput(input));
  const file = path.join(a.studyDir, 'study.json');
  expect(JSON.parse(fs.readFileSync(file, 'utf8')).sensitivity).toEqual(PAPER_SENSITIVITY);
  const own = paperShapedSubsets(['q3'], 'a study of its own');
  const b = await initStudy(buildStudyInput({ studyId: 'sens-own', tasks: ['q3'], model: 'replay:gold', scale: 0.01, sensitivity: own }));
  expect(JSON.parse(fs.readFileSync(path.join(b.studyDir, 'study.json'), 'utf8')).sensitivity).toEqual(own);
  const resumed = await initStudy(buildStudyInput({ ...input, sensitivity: own }));
  expect(resumed.manifestHash).toBe(a.manifestHash);
  expect(JSON.parse(fs.readFileSync(file, 'utf8')).sensitivity).toEqual(PAPER_SENSITIVITY);
});
