/**
 * Eligibility as a screen (docs/protocol.md §1): the paper's criteria applied to every text, and
 * the record of which used variants the paper names and which the project chose.
 */
import { checkEligibility, loadEligibility, PAPER_NAMED_REFERENCES, PAPER_NAMED_TASKS, screenQueryText, sqlStatements, ALL_VARIANTS, EligibilityFile, eligibilitySummary, type ScreenFinding } from '../../activities/tasks/eligibility';
import * as fs from 'fs';
import * as path from 'path';
import { ensureTestDatabase } from '../support/database';
import { readQueryTexts } from '../../activities/tasks/queryTexts';
import { STUDY_TASKS } from '../../protocol/corpus';

test('the screen excludes the forms the paper names and the other failures of (i) and (iii)', () => {
  expect(screenQueryText("select a from t where s = 'x;y';\n-- a comment; with a semicolon\n")).toEqual([]);
  expect(sqlStatements("select 1; select ';'; ")).toEqual(['select 1', "select ';'"]);
  expect(screenQueryText('select a from t; select b from u;')).toEqual([{ criterion: 'i-stateless-solve', exclusion: 'multi-statement (2 statements)' }]);
  expect(screenQueryText('create temporary view v as select 1; select * from v')).toEqual([
    { criterion: 'i-stateless-solve', exclusion: 'multi-statement (2 statements)' },
    { criterion: 'i-stateless-solve', exclusion: 'a CREATE statement, not a query' },
  ]);
  expect(screenQueryText('with recursive r(n) as (select 1 union all select n + 1 from r where n < 3) select * from r')).toEqual([{ criterion: 'iii-dataframe-api', exclusion: 'recursive CTE' }]);
  expect(screenQueryText("select * from s pivot (sum(x) for y in ('a', 'b'))")).toEqual([{ criterion: 'iii-dataframe-api', exclusion: 'pivot' }]);
  expect(screenQueryText('select e from t lateral view explode(arr) x as e')).toEqual([{ criterion: 'iii-dataframe-api', exclusion: 'lateral view' }]);
  expect(screenQueryText("select transform(a, b) using 'cat' as (c, d) from t")).toEqual([{ criterion: 'iii-dataframe-api', exclusion: 'a script transform (an unavailable extension)' }]);
  // the word pivot in a string or a column name is not a PIVOT clause
  expect(screenQueryText("select pivot_key from t where c = 'pivot (x)'")).toEqual([]);
});

test('tasks/eligibility.yaml: every criterion (i) and (iii) and every verdict is the screen of its v1.4 text (read at run time); no variant is excluded', async () => {
  const { value, problems } = loadEligibility();
  expect(problems).toEqual([]);
  const texts = await readQueryTexts(ALL_VARIANTS);
  const result = (f: ScreenFinding[], c: string) => (f.some((x) => x.criterion === c) ? 'fail' : 'pass');
  const screened = value!.variants.map((v) => {
    const f = screenQueryText(texts[v.id]);
    return { id: v.id, verdict: f.length ? 'excluded' : 'eligible', i: result(f, 'i-stateless-solve'), iii: result(f, 'iii-dataframe-api'), statements: sqlStatements(texts[v.id]).length };
  });
  const recorded = value!.variants.map((v) => ({ id: v.id, verdict: v.verdict, i: v.screen['i-stateless-solve'].result, iii: v.screen['iii-dataframe-api'].result, statements: 1 }));
  expect(recorded).toEqual(screened);
  expect(value!.variants.filter((v) => v.verdict === 'excluded')).toEqual([]);
  // criterion (ii) is evidence from a run: every variant ran unmodified (q12 fails at sf0.01 on a division by zero and runs at SF=1)
  expect(value!.variants.filter((v) => v.screen['ii-runs-unmodified'].result !== 'pass')).toEqual([]);
  expect(value!.variants.filter((v) => !/^executes unmodified at sf0\.01 \(\d+ rows\)$/.test(v.screen['ii-runs-unmodified'].evidence)).map((v) => v.id)).toEqual(['q12']);
});

test('tasks/eligibility.yaml separates the 15 tasks the paper names from the 15 the project chose, and credits the paper with no other', () => {
  const { value } = loadEligibility();
  const v = value!.variants;
  const by = (b: string) => v.filter((e) => e.role === 'study' && e.selection?.by === b).map((e) => e.id).sort();
  expect(by('paper')).toEqual([...PAPER_NAMED_TASKS].sort());
  expect(by('project')).toEqual(STUDY_TASKS.filter((q) => !(PAPER_NAMED_TASKS as readonly string[]).includes(q)).sort());
  expect(by('project')).toEqual(['q1', 'q12', 'q18', 'q22', 'q27', 'q3', 'q36', 'q38', 'q49', 'q51', 'q7', 'q70', 'q87', 'q94', 'q98']);
  expect(v.filter((e) => e.role === 'extra-reference').map((e) => [e.id, e.selection?.by])).toEqual(PAPER_NAMED_REFERENCES.map((q) => [q, 'paper']));
  expect(v.filter((e) => e.named_by_paper).map((e) => e.id).sort()).toEqual([...PAPER_NAMED_TASKS, ...PAPER_NAMED_REFERENCES].sort());
  // crediting the paper with a task it never names is a problem naming the field
  const q1 = v.findIndex((e) => e.id === 'q1');
  const planted = { ...value!, variants: v.map((e, i) => (i === q1 ? { ...e, named_by_paper: true, selection: { by: 'paper' as const, how: 'eligible (study task)' } } : e)) };
  expect(checkEligibility('tasks/eligibility.yaml', planted)).toEqual([
    { file: 'tasks/eligibility.yaml', field: `variants[${q1}].named_by_paper`, message: 'q1: the paper does not name it' },
    { file: 'tasks/eligibility.yaml', field: `variants[${q1}].selection.by`, message: 'q1: not named by the paper: chosen by the project' },
  ]);
});

test('tasks/eligibility.yaml: 30 study tasks and 73 excluded, none by the screen: 3 extra references by the paper, 70 by the project', () => {
  const { value } = loadEligibility();
  const e = value!;
  const v = e.variants;
  expect([e.paper_eligible_count, e.paper_excluded_count, e.screen_excluded_count]).toEqual([30, 73, 0]);
  const count = (f: (x: (typeof v)[number]) => boolean) => v.filter(f).length;
  expect(count((x) => x.study_status === 'study-task')).toBe(30);
  expect(count((x) => x.study_status === 'study-task' && x.named_by_paper)).toBe(15);
  expect(count((x) => x.study_status === 'excluded')).toBe(73);
  expect(count((x) => x.exclusion?.by === 'screen')).toBe(0);
  expect(v.filter((x) => x.exclusion?.by === 'paper').map((x) => x.id)).toEqual(['q23b', 'q54', 'q85']);
  expect(count((x) => x.exclusion?.by === 'project' && x.role === 'none' && !x.named_by_paper)).toBe(70);
  expect(eligibilitySummary(e)).toBe('103 variants: 30 study tasks (15 named by the paper), 73 excluded: 0 by the screen, 3 by the paper, 70 by the project');
  // the selection rule names the project's 15 in order
  expect(e.selection_rule).toContain(STUDY_TASKS.filter((q) => !(PAPER_NAMED_TASKS as readonly string[]).includes(q)).join(' '));
});

test('eligibility.yaml rules: verdict follows the criteria, exclusions say who, the screen count is the verdicts', () => {
  const { value } = loadEligibility();
  const e = value!;
  const q54 = e.variants.findIndex((x) => x.id === 'q54');
  const q8 = e.variants.findIndex((x) => x.id === 'q8');
  const swapped = { ...e, screen_excluded_count: 1, variants: e.variants.map((x, i) => (i === q54 ? { ...x, exclusion: { by: 'project' as const, reason: 'r' } } : x)) };
  expect(checkEligibility('tasks/eligibility.yaml', swapped)).toEqual([
    { file: 'tasks/eligibility.yaml', field: `variants[${q54}].exclusion.by`, message: 'q54: excluded by paper' },
    { file: 'tasks/eligibility.yaml', field: 'screen_excluded_count', message: 'is 1, but 0 verdict(s) are excluded' },
  ]);
  // an eligible verdict with a failed criterion, and a study-task status on an unused variant, fail the schema
  const bad = {
    ...e,
    variants: e.variants.map((x, i) => (i === q8 ? { ...x, screen: { ...x.screen, 'i-stateless-solve': { result: 'fail', evidence: '2 statements' } }, study_status: 'study-task' } : x)),
  };
  const r = EligibilityFile.safeParse(bad);
  expect(r.success).toBe(false);
  expect(r.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
    [`variants.${q8}.verdict`, 'q8 is eligible but fails a criterion of screen'],
    [`variants.${q8}.study_status`, 'q8 has role none: study_status excluded'],
    [`variants.${q8}.exclusion`, 'q8 is a study task: no exclusion'],
  ]);
});

test('criterion (ii) evidence agrees with the built references: the recorded row count of every reference that ran at sf0.01, and q12 the one that raised', async () => {
  const db = await ensureTestDatabase(0.01);
  const refs = JSON.parse(fs.readFileSync(path.join(db.referencesDir, 'references.json'), 'utf8')) as { variants: Record<string, { rows: number }> };
  const { value } = loadEligibility();
  const byId = new Map(value!.variants.map((v) => [v.id, v.screen['ii-runs-unmodified'].evidence]));
  const recorded = Object.keys(refs.variants).sort().map((id) => [id, Number(/\((\d+) rows\)$/.exec(byId.get(id)!)?.[1])]);
  expect(recorded).toEqual(Object.keys(refs.variants).sort().map((id) => [id, refs.variants[id].rows]));
  expect(recorded).toHaveLength(32);
  expect(db.failed.map((f) => f.id)).toEqual(['q12']);
  expect(byId.get('q12')).toMatch(/DIVIDE_BY_ZERO/);
}, 45 * 60_000);
