/**
 * The report's "Labellers measured on known truth" table (activities/report/tables.ts
 * tableLabellerAccuracy) on a labeller-accuracy.json written by hand: two tasks checked (one
 * failing its check), one without forms; the figures below are counted from the fixture.
 */
import { tableLabellerAccuracy, tableLabellerCalibration } from '../../activities/report/tables';
import { tallyCalibration, type CalibrationItem } from '../../activities/obligations/calibration';
import { equivalentViolationsLine } from '../../activities/report/render';
import { LabellerAccuracyFileSchema, LabellerCalibrationFileSchema, type LabellerAccuracyFile } from '../../protocol/sideFiles';

const acc = (labeller: 'executable' | 'schema-rule' | 'heuristic', satisfied: Record<string, number>, violated: Record<string, number>) => {
  const n = Object.values(satisfied).reduce((a, b) => a + b, 0) + Object.values(violated).reduce((a, b) => a + b, 0);
  return { labeller, confusion: { satisfied, violated }, n, correct: (satisfied.satisfied ?? 0) + (violated.violated ?? 0), byClass: {}, byKind: {} };
};

const FILE: LabellerAccuracyFile = LabellerAccuracyFileSchema.parse({
  schemaVersion: 1,
  scale: 0.01,
  tasks: [
    { taskId: 'q1', checked: true, ok: true, obligations: 12, executable: 11, notExecutable: 1, cached: true },
    { taskId: 'q3', checked: true, ok: false, obligations: 12, executable: 12, notExecutable: 0, cached: false },
    { taskId: 'q4', checked: false, ok: null, obligations: null, executable: 0, notExecutable: 0, cached: false },
  ],
  labellers: [
    acc('executable', { satisfied: 250 }, { violated: 23 }),
    acc('schema-rule', { satisfied: 60 }, { violated: 5, satisfied: 1 }),
    acc('heuristic', { satisfied: 180, violated: 70 }, { satisfied: 15, violated: 8 }),
  ],
});

test('one row per labeller with its accuracy and confusion matrix, then the coverage of executable forms', () => {
  expect(tableLabellerAccuracy(FILE).split('\n')).toEqual([
    '| Labeller | Labels | Right | Accuracy [Wilson 95 %] | Truth satisfied → labelled | Truth violated → labelled |',
    '|---|---|---|---|---|---|',
    // Wilson by hand: 273/273 → lower 273 / (273 + 1.96²) = 98.6 %; 65/66 → [91.9 %, 99.7 %].
    '| executable | 273 | 273 | 100.0% [98.6%, 100.0%] | satisfied 250 | violated 23 |',
    '| schema-rule | 66 | 65 | 98.5% [91.9%, 99.7%] | satisfied 60 | satisfied 1, violated 5 |',
    '| heuristic | 273 | 188 | 68.9% [63.1%, 74.1%] | satisfied 180, violated 70 | satisfied 15, violated 8 |',
    '',
    'Known truth from 2 of 3 tasks (SF=0.01): 23 of 24 obligations have a violation and acceptance tests, 1 marked not executable (with a reason). Tasks without executable forms yet (their code and test labels come from the schema rules, the judge or the heuristic): q4. **`lockin obligations check` fails for q3**.',
  ]);
});

test('a study without the file says so', () => {
  expect(tableLabellerAccuracy(null)).toBe('_Not measured for this study (labeller-accuracy.json is written by the mutation analysis, step 5)._');
});

test('a malformed file is refused by its schema, naming the field', () => {
  const bad = LabellerAccuracyFileSchema.safeParse({ ...FILE, labellers: [{ ...FILE.labellers[0], labeller: 'judge' }] });
  expect(bad.success).toBe(false);
  expect(bad.error!.issues[0].path).toEqual(['labellers', 0, 'labeller']);
});

describe('equivalentViolationsLine: the violations the reference cannot tell from gold', () => {
  const withEq = (q1: string[] | undefined, q3: string[] | undefined): LabellerAccuracyFile => ({
    ...FILE,
    tasks: FILE.tasks.map((t) => (t.taskId === 'q1' && q1 ? { ...t, equivalentViolations: q1 } : t.taskId === 'q3' && q3 ? { ...t, equivalentViolations: q3 } : t)),
  });

  test('on the study database: the count over the checked tasks, and each task with its obligations', () => {
    expect(equivalentViolationsLine(withEq([], ['O7', 'O10']), 0.01)).toBe(
      "Obligation violations against the reference on the study's database (SF=0.01): 2 of 23 agree with it, so a candidate whose only mistake is one of them agrees with the reference there: q3 O7, O10.",
    );
  });

  test('at another scale than the study: says which database, and how to check the study one', () => {
    expect(equivalentViolationsLine(withEq(['O2'], []), 1)).toBe(
      "Obligation violations against the reference on SF=0.01, the labeller check's database (the study's is SF=1, where a larger database may tell more of them apart: `lockin obligations check --scale 1`): 1 of 23 agree with it, so a candidate whose only mistake is one of them agrees with the reference there: q1 O2.",
    );
  });

  test('none agreeing, not recorded, not measured', () => {
    expect(equivalentViolationsLine(withEq([], []), 0.01)).toBe("Obligation violations against the reference on the study's database (SF=0.01): every one of the 23 checked violations disagrees with it.");
    expect(equivalentViolationsLine(FILE, 0.01)).toMatch(/^Obligation violations against the reference: not recorded/);
    expect(equivalentViolationsLine(null, 0.01)).toMatch(/^Obligation violations against the reference: not measured/);
  });
});

test('the labellers on realistic faults: compared items tallied with Wilson intervals, disagreements named', () => {
  // Built with the real tally (calibration.ts) from items written here: 20 code labels (19 agree),
  // 20 test labels (all agree), 2 mechanisms (1 agrees), no plan label.
  const items: CalibrationItem[] = [];
  for (let i = 1; i <= 20; i++) {
    items.push({ task: 'q3', fault: 'wrong-metric', obligation: `O${i}`, labeller: 'code', truth: i === 13 ? 'violated' : 'satisfied', label: i === 7 ? 'violated' : i === 13 ? 'violated' : 'satisfied' });
    items.push({ task: 'q3', fault: 'wrong-metric', obligation: `O${i}`, labeller: 'test', truth: i < 5 ? 'covered' : 'not-covered', label: i < 5 ? 'covered' : 'not-covered' });
  }
  items.push({ task: 'q3', fault: 'wrong-metric', obligation: 'O13', labeller: 'mechanism', truth: 'repeats-incorrect-logic', label: 'repeats-incorrect-logic' });
  items.push({ task: 'q3', fault: 'wrong-metric', obligation: 'O7', labeller: 'mechanism', truth: 'no-test-covered', label: 'unknown', evidence: 'no label' });
  const file = LabellerCalibrationFileSchema.parse({ schemaVersion: 1, tasks: [{ taskId: 'q3', faults: ['wrong-metric'], notExecutable: [], cached: false, problems: [] }], labellers: tallyCalibration(items), items });
  const lines = tableLabellerCalibration(file).split('\n');
  expect(lines.slice(0, 6)).toEqual([
    '| Labeller | Labels compared | Agree | Agreement [Wilson 95 %] | Hand label → labelled |',
    '|---|---|---|---|---|',
    // 19/20: p 0.95; Wilson [76.4 %, 99.1 %] (centre 0.8775, half 0.1136 by hand).
    '| code (executable) | 20 | 19 | 95.0% [76.4%, 99.1%] | satisfied → satisfied 18, violated 1; violated → violated 1 |',
    '| test (executable, per-test validity) | 20 | 20 | 100.0% [83.9%, 100.0%] | covered → covered 4; not-covered → not-covered 16 |',
    '| Table VI mechanism (from the test label) | 2 | 1 | 50.0% [9.5%, 90.5%] | no-test-covered → unknown 1; repeats-incorrect-logic → repeats-incorrect-logic 1 |',
    '| plan (keyword heuristic) | 0 | 0 | — | — |',
  ]);
  expect(lines.filter((l) => l.startsWith('- '))).toEqual([
    '- code: q3/wrong-metric O7: hand satisfied, labelled violated',
    '- mechanism: q3/wrong-metric O7: hand no-test-covered, labelled unknown (no label)',
  ]);
});
