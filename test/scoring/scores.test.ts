/** Worked examples for the scoring rules (docs/protocol.md §5), answers computed by hand. */
import {
  tukeyHinges, median, taskScores, isSCO, countSCO, conditionMeans, pairedChanges, falsePassFigures,
  mechanisms, trajectory, tabulateTrajectories, restrictTasks, failureCategories, type LabelTriple,
} from '../../activities/scoring/scores';

const L = (plan: LabelTriple['plan'], code: LabelTriple['code'], test: LabelTriple['test']): LabelTriple => ({ plan, code, test });

describe('Tukey hinges', () => {
  test('even n: halves are disjoint', () => {
    // [1,2,3,4,5,6,7,8]: lower half 1..4 → 2.5, upper 5..8 → 6.5, median 4.5
    expect(tukeyHinges([8, 1, 7, 2, 6, 3, 5, 4])).toEqual({ lower: 2.5, median: 4.5, upper: 6.5, iqr: 4 });
    expect(tukeyHinges([1, 2, 3, 4])).toEqual({ lower: 1.5, median: 2.5, upper: 3.5, iqr: 2 });
  });
  test('odd n: the median belongs to both halves (Tukey), not excluded (which would give 1.5 and 4.5)', () => {
    expect(tukeyHinges([5, 4, 3, 2, 1])).toEqual({ lower: 2, median: 3, upper: 4, iqr: 2 });
    // n = 7: halves [1,2,3,10] and [10,20,30,40] → 2.5 and 25
    expect(tukeyHinges([40, 1, 30, 2, 20, 3, 10])).toEqual({ lower: 2.5, median: 10, upper: 25, iqr: 22.5 });
  });
  test('mostly zeros, as in the paper (median 0, IQR from a subset)', () => {
    expect(tukeyHinges([0, 0, 0, 0, 0, 8.33, 8.33, 16.67])).toMatchObject({ lower: 0, median: 0, upper: 8.33 });
  });
  test('n = 1 and empty', () => {
    expect(tukeyHinges([7])).toEqual({ lower: 7, median: 7, upper: 7, iqr: 0 });
    expect(Number.isNaN(tukeyHinges([]).median)).toBe(true);
    expect(median([3, 1, 2])).toBe(2);
  });
});

describe('task scores with the paper weights', () => {
  test('a 10-obligation task worked by hand', () => {
    const labels = [
      L('present', 'satisfied', 'covered'),
      L('present', 'satisfied', 'covered'),
      L('partial', 'partial', 'partially-covered'),
      L('ambiguous', 'satisfied', 'covered'),
      L('absent', 'violated', 'not-covered'),
      L('contradicted', 'violated', 'covered'),
      L('present', 'satisfied', 'partially-covered'),
      L('present', 'execution-failed', 'not-covered'),
      L('partial', 'satisfied', 'covered'),
      L('present', 'satisfied', 'covered'),
    ];
    // plan: 1+1+.5+.5+0+0+1+1+.5+1 = 6.5 → 0.65; code: S at 1,2,4,7,9,10 = 6 → 0.6;
    // test: 1+1+.5+1+0+1+.5+0+1+1 = 7 → 0.7
    const s = taskScores(labels);
    expect(s.plan).toBeCloseTo(0.65, 12);
    expect(s.code).toBeCloseTo(0.6, 12);
    expect(s.test).toBeCloseTo(0.7, 12);
    expect(countSCO(labels)).toBe(1);
  });
  test('no labels is an error', () => {
    expect(() => taskScores([])).toThrow(/no obligation labels/);
  });
  test('condition mean over all assigned tasks: a missing task counts 0', () => {
    const m = conditionMeans(['q1', 'q2', 'q3', 'q4'], new Map([['q1', { plan: 1, code: 0.5, test: 0.25 }], ['q2', { plan: 0.5, code: 0.5, test: 0.75 }]]));
    expect(m).toEqual({ plan: 0.375, code: 0.25, test: 0.25 });
  });
});

describe('self-confirming omission', () => {
  test('absent or contradicted plan + violated code + not-covered test', () => {
    expect(isSCO(L('absent', 'violated', 'not-covered'))).toBe(true);
    expect(isSCO(L('contradicted', 'violated', 'not-covered'))).toBe(true);
  });
  test('near-misses: execution failure is not an SCO; partial coverage or partial plan is not', () => {
    expect(isSCO(L('absent', 'execution-failed', 'not-covered'))).toBe(false);
    expect(isSCO(L('absent', 'violated', 'partially-covered'))).toBe(false);
    expect(isSCO(L('partial', 'violated', 'not-covered'))).toBe(false);
    expect(isSCO(L('absent', 'partial', 'not-covered'))).toBe(false);
  });
});

describe('false-pass denominators', () => {
  test('rate over all assigned runs; conditional proportion over test-passing runs', () => {
    // 10 runs: 6 pass tests, of which 1 matches the reference → 5 false passes; 1 non-passing run matches.
    const runs = [
      ...Array.from({ length: 5 }, () => ({ testPassed: true, referenceAgreement: false })),
      { testPassed: true, referenceAgreement: true },
      { testPassed: false, referenceAgreement: true },
      ...Array.from({ length: 3 }, () => ({ testPassed: false, referenceAgreement: false })),
    ];
    const f = falsePassFigures(runs);
    expect(f).toEqual({ runs: 10, testPassed: 6, referenceAgreement: 2, falsePasses: 5, falsePassRate: 0.5, conditionalFalsePassProportion: 5 / 6 });
  });
  test('the paper: 22/30 passing, 0 matches → rate 22/30, conditional 100%', () => {
    const runs = Array.from({ length: 30 }, (_, i) => ({ testPassed: i < 22, referenceAgreement: false }));
    const f = falsePassFigures(runs);
    expect(f.falsePassRate).toBeCloseTo(22 / 30, 12);
    expect(f.conditionalFalsePassProportion).toBe(1);
  });
  test('no passing run: conditional proportion is null, not 0', () => {
    expect(falsePassFigures([{ testPassed: false, referenceAgreement: false }]).conditionalFalsePassProportion).toBeNull();
  });
});

describe('paired within-task changes', () => {
  test('counts, mean, median and hinges in percentage points', () => {
    const tasks = ['a', 'b', 'c', 'd', 'e'];
    const base = new Map([['a', 0.5], ['b', 0.8], ['c', 1], ['d', 0.25], ['e', 0.6]]);
    const branch = new Map([['a', 0.75], ['b', 0.8], ['c', 0.9], ['d', 0.5], ['e', 0.6]]);
    const p = pairedChanges(tasks, base, branch);
    // changes: +25, 0, −10, +25, 0 → sorted [−10, 0, 0, 25, 25]
    expect(p.improved).toBe(2);
    expect(p.unchanged).toBe(2);
    expect(p.decreased).toBe(1);
    expect(p.meanChange).toBeCloseTo(8, 9);
    expect(p.median).toBe(0);
    expect(p.lowerHinge).toBe(0); // [−10, 0, 0]
    expect(p.upperHinge).toBe(25); // [0, 25, 25]
    expect(p.changes.map((c) => c.task)).toEqual(tasks);
  });
  test('float noise counts as unchanged; a task missing on one side is paired against 0', () => {
    const p = pairedChanges(['a', 'b'], new Map([['a', 0.1 + 0.2], ['b', 0.5]]), new Map([['a', 0.3]]));
    expect(p.unchanged).toBe(1);
    expect(p.decreased).toBe(1);
    expect(p.changes[1].change).toBeCloseTo(-50, 9);
  });
});

describe('mechanisms (Table VI)', () => {
  test('violated obligations of false-pass runs: no test covered vs covered and passed anyway', () => {
    const m = mechanisms([
      [L('absent', 'violated', 'not-covered'), L('present', 'violated', 'covered'), L('present', 'satisfied', 'not-covered')],
      [L('present', 'violated', 'partially-covered'), L('present', 'execution-failed', 'not-covered')],
    ]);
    expect(m).toEqual({ violated: 3, noTestCovered: 1, coveredPassedAnyway: 2, inadequateCheck: 2, repeatsIncorrectLogic: 0, suiteInvalidOnGold: 0 });
  });

  test('a violated obligation no valid test covers, with a test asserting its wrong value, repeats incorrect logic', () => {
    // The paper's archetype: a wrong metric whose suite asserts the wrong totals (those tests fail
    // gold). The grain is violated too and nothing asserts it: no test covered it.
    const m = mechanisms([
      [{ ...L('present', 'violated', 'not-covered'), repeats: true }, L('present', 'violated', 'not-covered'), L('present', 'satisfied', 'not-covered'), { ...L('present', 'satisfied', 'not-covered'), repeats: true }],
      [{ ...L('present', 'violated', 'covered'), repeats: false }],
    ]);
    expect(m).toEqual({ violated: 3, noTestCovered: 1, coveredPassedAnyway: 2, inadequateCheck: 1, repeatsIncorrectLogic: 1, suiteInvalidOnGold: 0 });
  });

  test('an obligation whose suite fails on gold is neither covered nor not-covered: counted apart', () => {
    const m = mechanisms([
      [L('absent', 'violated', 'invalid-on-gold'), L('present', 'violated', 'invalid-on-gold'), L('present', 'satisfied', 'invalid-on-gold')],
      [L('absent', 'violated', 'not-covered'), L('present', 'violated', 'covered')],
    ]);
    expect(m).toEqual({ violated: 4, noTestCovered: 1, coveredPassedAnyway: 1, inadequateCheck: 1, repeatsIncorrectLogic: 0, suiteInvalidOnGold: 2 });
  });
});

describe('trajectories', () => {
  test('a constructed case covering all four trajectories and the assertion flag', () => {
    const base = [L('present', 'violated', 'covered'), L('present', 'violated', 'not-covered'), L('present', 'satisfied', 'covered'), L('present', 'satisfied', 'covered'), L('present', 'execution-failed', 'covered')];
    const branch = [L('present', 'violated', 'covered'), L('present', 'satisfied', 'covered'), L('present', 'violated', 'covered'), L('present', 'satisfied', 'covered'), L('present', 'satisfied', 'covered')];
    const items = base.map((b, i) => trajectory(b, branch[i], false));
    expect(items.map((i) => i.trajectory)).toEqual(['persistent-mistake', 'repair', 'new-defect', 'unchanged-correct', 'repair']);
    expect(items.map((i) => i.assertionsChanged)).toEqual([false, true, false, false, false]);
    expect(trajectory(base[0], branch[0], true).assertionsChanged).toBe(true);
    const tab = tabulateTrajectories(items);
    expect(tab).toEqual({
      'persistent-mistake': { count: 1, assertionsChanged: 0 },
      repair: { count: 2, assertionsChanged: 1 },
      'new-defect': { count: 1, assertionsChanged: 0 },
      'unchanged-correct': { count: 1, assertionsChanged: 0 },
    });
  });
});

describe('sensitivity restrictions and failure categories', () => {
  test('exclude, reproduced-only and both keep the original order', () => {
    const tasks = ['q2', 'q4', 'q11', 'q35', 'q80'];
    const rep = new Set(['q4', 'q11', 'q80']);
    expect(restrictTasks(tasks, { exclude: ['q11'] })).toEqual(['q2', 'q4', 'q35', 'q80']);
    expect(restrictTasks(tasks, { reproduced: rep })).toEqual(['q4', 'q11', 'q80']);
    expect(restrictTasks(tasks, { exclude: ['q11'], reproduced: rep })).toEqual(['q4', 'q80']);
  });
  test('primary and any-category counts over disagreeing runs', () => {
    const f = failureCategories([
      { agree: false, primaryCategory: 'alias-mismatch', categories: ['alias-mismatch', 'precision'] },
      { agree: false, primaryCategory: 'alias-mismatch', categories: ['alias-mismatch'] },
      { agree: true, categories: [] },
      null,
    ]);
    expect(f).toEqual({ primary: { 'alias-mismatch': 2 }, any: { 'alias-mismatch': 2, precision: 1 }, notCompared: 1 });
  });
});
