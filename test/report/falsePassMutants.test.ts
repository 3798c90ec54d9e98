/**
 * Why the mutation analysis did not foresee a false pass (activities/report/tables.ts
 * tableFalsePassMutants; sideFiles.ts summaryCategories). Four false passes built so that each
 * explanation is the known answer: q3 is alias-only and q3 has no alias mutant (none); q36's
 * values fault meets two values mutants its suite both killed (all killed); q51's precision fault
 * meets two precision mutants, one survived (some survive); q69's suite fails gold.
 */
import { summaryCategories, type MutantVerdict, type MutationRow } from '../../activities/report/sideFiles';
import { tableFalsePassMutants, type FalsePassRun } from '../../activities/report/tables';

const suite = (task: string, condition: string, killed: string[], alive: string[], validOnGold: boolean | null = true): MutationRow => ({
  task, condition, killed: killed.length, total: killed.length + alive.length, validOnGold, equivalent: 0, survivorsByOperator: {}, byOperator: {},
  mutants: [...killed.map((id) => ({ id, operator: id.replace(/-\d+$/, ''), killed: true })), ...alive.map((id) => ({ id, operator: id.replace(/-\d+$/, ''), killed: false }))],
});
const mutant = (id: string, categories: MutantVerdict['categories'], verdict = 'killable'): MutantVerdict => ({ id, operator: id.replace(/-\d+$/, ''), verdict, categories });

test('summaryCategories reads the categories of a "disagree [..]" summary and nothing else', () => {
  expect(summaryCategories('disagree [precision, values]; column 1 type: ...')).toEqual(['precision', 'values']);
  expect(summaryCategories('disagree [alias-mismatch]; column 1 name: ...')).toEqual(['alias-mismatch']);
  expect(summaryCategories('agrees at SF=0.01; SF=1: agree: 5 columns, 100 rows')).toEqual([]);
  // told apart only on the study's database (mutation/confirm.ts): its categories are those of that comparison
  expect(summaryCategories('agrees at SF=0.01; SF=1: disagree [row-count]; 3 reference row(s) missing')).toEqual(['row-count']);
  expect(summaryCategories('disagree [values, not-a-category]')).toEqual(['values']);
  expect(summaryCategories(undefined)).toEqual([]);
});

test('per false pass: its suite, the gold mutants that differ the same way, and why they did not foresee it', () => {
  const runs: FalsePassRun[] = [
    { taskId: 'q3', condition: 'one-pass', categories: ['alias-mismatch'], primaryCategory: 'alias-mismatch', uncovered: [] },
    { taskId: 'q36', condition: 'test-guided', categories: ['values', 'row-count'], primaryCategory: 'values', uncovered: ['O2', 'O7'] },
    { taskId: 'q51', condition: 'contract-first', categories: ['precision'], primaryCategory: 'precision', uncovered: [] },
    { taskId: 'q69', condition: 'plan-audit', categories: ['row-count'], primaryCategory: 'row-count', uncovered: ['O1'] },
  ];
  const suites = [
    suite('q3', 'one-pass', ['join-type-1', 'filter-bound-1'], []),
    suite('q36', 'test-guided', ['price-column-1', 'price-column-2', 'alias-rename-1'], ['filter-bound-1']),
    suite('q51', 'contract-first', ['decimal-cast-1'], ['aggregate-function-1']),
    suite('q69', 'plan-audit', [], [], false),
  ];
  const verdicts: Record<string, MutantVerdict[]> = {
    q3: [mutant('join-type-1', ['row-count']), mutant('filter-bound-1', ['values'])],
    // filter-bound-1 differs by row-count only; join-type-1 is equivalent (never counted).
    q36: [mutant('price-column-1', ['values']), mutant('price-column-2', ['values']), mutant('alias-rename-1', ['alias-mismatch']), mutant('filter-bound-1', ['row-count']), mutant('join-type-1', [], 'equivalent')],
    q51: [mutant('decimal-cast-1', ['precision']), mutant('aggregate-function-1', ['precision', 'values'])],
    q69: [mutant('anti-join-1', ['row-count'])],
  };
  expect(tableFalsePassMutants(runs, suites, verdicts).split('\n')).toEqual([
    '| Task | Condition | Differs from the reference by | Suite mutation score | Gold mutants that differ the same way | Why the mutants did not foresee it |',
    '|---|---|---|---|---|---|',
    '| q3 | Frozen One-Pass | alias-mismatch | 2/2 | none | no mutant of gold differs from the reference by alias-mismatch: the mutation score cannot see this kind of fault |',
    "| q36 | Test-Guided Revision | values (also row-count) | 3/4 | 2/2 killed (price-column-1, price-column-2) | its suite kills gold's values mutants but passed this candidate: the candidate's values fault is another one than the mutants'; violated obligations its suite does not cover: O2, O7 |",
    '| q51 | Contract-First Revision | precision | 1/2 | 1/2 killed; survived: aggregate-function-1 | 1 of 2 precision mutants survived its suite too: the suite does not check this kind of fault |',
    '| q69 | PlanAudit-Guided Revision | row-count | invalid on gold | — | no test of its suite passes gold, so it counts no kill; violated obligations its suite does not cover: O1 |',
  ]);
  expect(tableFalsePassMutants([], suites, verdicts)).toBe('_No false pass: nothing for the mutants to have missed._');
});
