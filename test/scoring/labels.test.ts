/** Automated labels (rule, execution, judge, heuristic), judge replies and final-label import. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseSparkSchema, checkRule } from '../../activities/obligations/schemaRules';
import { keyTerms, heuristicPlan, heuristicTest, heuristicCode, assertionText } from '../../activities/obligations/heuristic';
import { autoLabels } from '../../activities/scoring/autoLabels';
import { parseJudgeMarkdown, replayJudgeFile } from '../../activities/scoring/judge';
import { parseFinalLabels, importFinalLabels, readFinalLabels } from '../../activities/scoring/finalLabels';
import { labelObligations } from '../../activities/scoring/labelActivity';
import { LabelsFile } from '../../protocol/labels';
import type { Obligation } from '../../protocol/corpus';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'study');
const schema = parseSparkSchema({
  type: 'struct',
  fields: [
    { name: 'I_ITEM_ID', type: 'string', nullable: true, metadata: {} },
    { name: 'total_sales', type: 'decimal(27,2)', nullable: true, metadata: {} },
    { name: 'cnt', type: 'long', nullable: false, metadata: {} },
  ],
});

describe('rule labels on the candidate Spark schema', () => {
  test('parses Spark JSON types into SQL names, lower-cased', () => {
    expect(schema).toEqual([{ name: 'i_item_id', type: 'string' }, { name: 'total_sales', type: 'decimal(27,2)' }, { name: 'cnt', type: 'bigint' }]);
    expect(() => parseSparkSchema({}, 'x/schema.json')).toThrow(/x\/schema.json \(fields\)/);
  });
  test('column-name, column-type and columns rules', () => {
    expect(checkRule({ kind: 'column-name', position: 1, name: 'sum(sales)' }, schema).label).toBe('violated');
    expect(checkRule({ kind: 'column-name', position: 0, name: 'i_item_id' }, schema).label).toBe('satisfied');
    expect(checkRule({ kind: 'column-type', name: 'total_sales', type: 'decimal(17,2)' }, schema).label).toBe('violated');
    expect(checkRule({ kind: 'column-type', name: 'cnt', type: 'bigint' }, schema).label).toBe('satisfied');
    expect(checkRule({ kind: 'column-type', name: 'missing', type: 'int' }, schema).label).toBe('violated');
    expect(checkRule({ kind: 'columns', names: ['cnt', 'I_ITEM_ID'] }, schema).label).toBe('satisfied');
    expect(checkRule({ kind: 'columns', names: ['cnt1', 'cnt2', 'cnt3'] }, schema)).toEqual({ label: 'violated', evidence: 'rule columns: missing cnt1, cnt2, cnt3' });
  });
  test('column-type with the reference position: a renamed column is judged at that position (an alias error is not a type error)', () => {
    // q2's O9 violation aliases the ratio columns; O10 types the ratio at position 1 as decimal(20,2).
    const renamed = parseSparkSchema({ type: 'struct', fields: [{ name: 'd_week_seq1', type: 'integer' }, { name: 'sun_ratio', type: 'decimal(20,2)' }] });
    const rule = { kind: 'column-type', name: 'round((sun_sales1 / sun_sales2), 2)', type: 'decimal(20,2)', position: 1 } as const;
    expect(checkRule(rule, renamed)).toEqual({ label: 'satisfied', evidence: 'rule column-type: no column round((sun_sales1 / sun_sales2), 2); the column at its position 1 (sun_ratio) is decimal(20,2), expected decimal(20,2)' });
    // Renamed and retyped: the type obligation is violated too.
    const retyped = parseSparkSchema({ type: 'struct', fields: [{ name: 'd_week_seq1', type: 'integer' }, { name: 'sun_ratio', type: 'double' }] });
    expect(checkRule(rule, retyped).label).toBe('violated');
    // The name wins over the position when present (a reordered output).
    const reordered = parseSparkSchema({ type: 'struct', fields: [{ name: 'round((sun_sales1 / sun_sales2), 2)', type: 'decimal(20,2)' }, { name: 'd_week_seq1', type: 'integer' }] });
    expect(checkRule(rule, reordered).label).toBe('satisfied');
    // Without a position, or with no column there, a missing name stays violated.
    expect(checkRule({ ...rule, position: undefined }, renamed)).toEqual({ label: 'violated', evidence: 'rule column-type: round((sun_sales1 / sun_sales2), 2) is (missing), expected decimal(20,2)' });
    expect(checkRule({ ...rule, position: 5 }, renamed)).toEqual({ label: 'violated', evidence: 'rule column-type: round((sun_sales1 / sun_sales2), 2) is (missing), and there is no column at position 5, expected decimal(20,2)' });
  });
  test('an exact columns rule: the same names in the same order and no other column', () => {
    expect(checkRule({ kind: 'columns', names: ['i_item_id', 'TOTAL_SALES', 'cnt'], exact: true }, schema)).toEqual({ label: 'satisfied', evidence: 'rule columns (exact): the 3 columns in order' });
    // Another order, a missing column, an extra column: each violates it (the subset rule would say satisfied to the first and third).
    expect(checkRule({ kind: 'columns', names: ['cnt', 'i_item_id', 'total_sales'], exact: true }, schema)).toEqual({ label: 'violated', evidence: 'rule columns (exact): output columns [i_item_id, total_sales, cnt], expected [cnt, i_item_id, total_sales]' });
    expect(checkRule({ kind: 'columns', names: ['cnt', 'i_item_id', 'total_sales'] }, schema).label).toBe('satisfied');
    expect(checkRule({ kind: 'columns', names: ['i_item_id', 'total_sales', 'cnt', 'avg'], exact: true }, schema).label).toBe('violated');
    expect(checkRule({ kind: 'columns', names: ['i_item_id', 'total_sales'], exact: true }, schema).label).toBe('violated');
    expect(checkRule({ kind: 'columns', names: ['i_item_id', 'total_sales'] }, schema).label).toBe('satisfied');
  });
});

describe('heuristic fallback', () => {
  test('key terms: backticks, quotes, snake_case identifiers, numbers', () => {
    expect(keyTerms("Filter d_year = 2000 and s_state in ('TN'), price `ss_ext_list_price` times 1.3")).toEqual(['ss_ext_list_price', 'tn', 'd_year', 's_state', '2000', '1.3']);
  });
  test('plan / test / code labels by evidence of mention', () => {
    const terms = ['ss_ext_list_price', 'd_year'];
    expect(heuristicPlan(terms, 'use SS_EXT_LIST_PRICE and d_year')).toBe('present');
    expect(heuristicPlan(terms, 'use d_year')).toBe('partial');
    expect(heuristicPlan(terms, 'nothing')).toBe('absent');
    expect(heuristicPlan([], 'x')).toBe('ambiguous');
    const tests = "rows = df.collect()\nassert df.columns == ['ss_ext_list_price',\n  'x']\n\n\n\n\nd_year = 1\n";
    expect(assertionText(tests)).toContain('ss_ext_list_price');
    expect(heuristicTest(terms, tests)).toBe('partially-covered');
    expect(heuristicTest(terms, 'assert d_year and ss_ext_list_price')).toBe('covered');
    expect(heuristicTest(terms, 'x = 1')).toBe('not-covered');
    expect(heuristicCode({ kind: 'filter' }, terms, '', true, [])).toBe('satisfied');
    expect(heuristicCode({ kind: 'alias' }, terms, 'ss_ext_list_price d_year', false, ['alias-mismatch'])).toBe('violated');
    expect(heuristicCode({ kind: 'filter' }, terms, 'ss_ext_list_price d_year', false, ['alias-mismatch'])).toBe('satisfied');
    expect(heuristicCode({ kind: 'filter' }, terms, 'd_year', false, [])).toBe('partial');
    expect(heuristicCode({ kind: 'filter' }, terms, '', false, [])).toBe('violated');
    expect(heuristicCode({ kind: 'filter' }, [], 'anything', false, [])).toBe('partial');
  });
});

const obs: Obligation[] = [
  { id: 'O1', statement: 'first output column is `i_item_id`', class: 'schema-grounded', kind: 'schema', rule: { kind: 'column-name', position: 0, name: 'i_item_id' } },
  { id: 'O2', statement: 'sum of `ss_ext_sales_price`', class: 'schema-grounded', kind: 'aggregation-metric' },
  { id: 'O3', statement: 'filter `d_moy` = 11', class: 'schema-grounded', kind: 'filter' },
];
const artifacts = { plan: 'group by i_item_id, sum ss_ext_sales_price', solution: 'F.sum("ss_ext_sales_price")', tests: 'assert out.columns[0] == "i_item_id"\n' };

describe('autoLabels precedence', () => {
  test('execution failure sets every code label to execution-failed; plan/test keep observed labels', () => {
    const ls = autoLabels({ obligations: obs, artifacts, executed: false, outputSchema: null, comparison: null, judge: [{ id: 'O2', plan: 'present', code: 'satisfied', test: 'covered' }] });
    expect(ls.map((l) => l.code)).toEqual(['execution-failed', 'execution-failed', 'execution-failed']);
    expect(ls.map((l) => l.source.code)).toEqual(['execution', 'execution', 'execution']);
    expect(ls[1]).toMatchObject({ plan: 'present', test: 'covered', source: { plan: 'judge', test: 'judge' } });
  });
  test('rule beats judge for code; judge for the rest; heuristic where the judge is silent', () => {
    const ls = autoLabels({
      obligations: obs,
      artifacts,
      executed: true,
      outputSchema: schema,
      comparison: { agree: false, categories: ['values'] },
      judge: [
        { id: 'O1', plan: 'absent', code: 'violated', test: 'not-covered' },
        { id: 'O2', plan: 'partial', code: 'violated', test: 'partially-covered', rationale: 'wrong column' },
      ],
    });
    expect(ls[0]).toMatchObject({ plan: 'absent', code: 'satisfied', test: 'not-covered', source: { plan: 'judge', code: 'schema-rule', test: 'judge' } });
    expect(ls[1]).toMatchObject({ plan: 'partial', code: 'violated', test: 'partially-covered', source: { plan: 'judge', code: 'judge', test: 'judge' } });
    expect(ls[2]).toMatchObject({ plan: 'absent', code: 'violated', test: 'not-covered', source: { plan: 'heuristic', code: 'heuristic', test: 'heuristic' } });
  });
  test('executable labels beat the schema rule and the judge; the plan stays the judge\'s; an obligation without one falls through', () => {
    const executable = {
      schemaVersion: 1 as const, taskId: 'q3', suiteOnGold: { passed: true },
      code: { O1: { label: 'violated' as const, evidence: 't1 failed' } },
      test: { O1: { label: 'covered' as const, evidence: 'fails on the violation' }, O2: { label: 'invalid-on-gold' as const, evidence: 'rejects gold' } },
    };
    const ls = autoLabels({
      obligations: obs, artifacts, executed: true, outputSchema: schema, comparison: { agree: false, categories: ['values'] },
      judge: [{ id: 'O1', plan: 'present', code: 'satisfied', test: 'not-covered' }], executable,
    });
    expect(ls[0]).toMatchObject({ plan: 'present', code: 'violated', test: 'covered', source: { plan: 'judge', code: 'executable', test: 'executable' } });
    expect(ls[1]).toMatchObject({ test: 'invalid-on-gold', source: { test: 'executable', code: 'heuristic' } });
    expect(ls[2].source).toEqual({ plan: 'heuristic', code: 'heuristic', test: 'heuristic' });
  });
});

describe('judge replies', () => {
  test('replay path and Markdown parsing', () => {
    expect(replayJudgeFile('replay:lockin', 'q4', 'plan-audit')).toMatch(/replay\/lockin\/q4\/judge\/plan-audit\.md$/);
    expect(replayJudgeFile('anthropic:claude-sonnet-4-6', 'q4', 'plan-audit')).toBeNull();
    const md = 'Labels:\n```json\n{"labels":[{"id":"O1","plan":"present","code":"violated","test":"covered"}]}\n```\n';
    expect(parseJudgeMarkdown(md, 'j.md')).toEqual([{ id: 'O1', plan: 'present', code: 'violated', test: 'covered' }]);
    expect(() => parseJudgeMarkdown('no block', 'j.md')).toThrow(/j\.md/);
    expect(() => parseJudgeMarkdown('```json\n{"labels":[{"id":"O1","plan":"yes","code":"violated","test":"covered"}]}\n```', 'j.md')).toThrow(/not a judge reply/);
  });
});

describe('labelObligations activity (heuristic path, no judge reply in the corpus)', () => {
  test('writes labels.json with source marks', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-labels-'));
    try {
      fs.writeFileSync(path.join(dir, 'plan.md'), 'Produce `q3_col1` and q3_col2.');
      fs.writeFileSync(path.join(dir, 'solution.py'), 'q3_col1');
      fs.writeFileSync(path.join(dir, 'test_solution.py'), 'def test_x():\n    assert "q3_col2"\n');
      const res = await labelObligations({
        studyId: 's', taskId: 'q3', condition: 'one-pass', conditionDir: dir, tasksDir: path.join(FIXTURE, 'tasks'),
        execution: { status: 'ok', isolation: 'checked-only', durationMs: 1 }, comparison: { agree: false, categories: ['values'], summary: '' },
        model: 'replay:no-such-corpus-for-tests',
      });
      expect(res).toMatchObject({ method: 'heuristic', obligations: 8 });
      const file = LabelsFile.parse(JSON.parse(fs.readFileSync(res.labelsFile, 'utf8')));
      // O1 `q3_col1`: in plan, in code, not in assertions → present / satisfied / not-covered (rule not checked: no schema.json)
      expect(file.labels[0]).toMatchObject({ plan: 'present', code: 'satisfied', test: 'not-covered', source: { plan: 'heuristic', code: 'heuristic', test: 'heuristic' } });
      // O2 (kind alias, comparison without alias-mismatch): `q3_col2` in plan and assertions, not in code
      expect(file.labels[1]).toMatchObject({ plan: 'present', code: 'violated', test: 'covered' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('Contract-First: the test labels measure the frozen contract_test.py, not the candidate\'s own suite', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-labels-'));
    try {
      fs.writeFileSync(path.join(dir, 'plan.md'), 'Produce `q3_col1` and q3_col2.');
      fs.writeFileSync(path.join(dir, 'solution.py'), 'q3_col1');
      fs.writeFileSync(path.join(dir, 'test_solution.py'), 'def test_x():\n    assert True\n');
      fs.writeFileSync(path.join(dir, 'contract_test.py'), 'def test_c():\n    assert "q3_col1"\n    assert "q3_col2"\n');
      const label = async (condition: 'one-pass' | 'contract-first') => {
        const res = await labelObligations({
          studyId: 's', taskId: 'q3', condition, conditionDir: dir, tasksDir: path.join(FIXTURE, 'tasks'),
          execution: { status: 'ok', isolation: 'checked-only', durationMs: 1 }, comparison: { agree: false, categories: ['values'], summary: '' },
          model: 'replay:no-such-corpus-for-tests',
        });
        return LabelsFile.parse(JSON.parse(fs.readFileSync(res.labelsFile, 'utf8'))).labels.slice(0, 2).map((l) => [l.test, l.source.test]);
      };
      // O1 `q3_col1` and O2 `q3_col2`: asserted by the contract suite only.
      expect(await label('contract-first')).toEqual([['covered', 'heuristic'], ['covered', 'heuristic']]);
      expect(await label('one-pass')).toEqual([['not-covered', 'heuristic'], ['not-covered', 'heuristic']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('final labels import', () => {
  const csv = 'study,task,condition,obligation,plan,code,test\ns1,q4,plan-audit,O3,absent,violated,not-covered\ns1,q4,one-pass,O1,"present",satisfied,covered\n';
  test('parses and validates, naming file, line and field', () => {
    expect(parseFinalLabels(csv, 'f.csv')).toHaveLength(2);
    expect(() => parseFinalLabels('study,task,condition,obligation,plan,code\n', 'f.csv')).toThrow(/f\.csv \(test\): missing column test/);
    expect(() => parseFinalLabels(csv.replace('absent', 'missing'), 'f.csv')).toThrow(/f\.csv \(line 2: plan\): invalid plan label "missing"/);
    expect(() => parseFinalLabels(csv.replace('plan-audit', 'planaudit'), 'f.csv')).toThrow(/line 2: condition/);
    expect(() => parseFinalLabels(csv + 's1,q4,plan-audit,O3,absent,violated,covered\n', 'f.csv')).toThrow(/duplicate/);
  });
  test('merges into labels/final.csv; a later import replaces the same key', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-final-'));
    try {
      expect(importFinalLabels(dir, 's1', parseFinalLabels(csv, 'f.csv'))).toMatchObject({ imported: 2, total: 2 });
      const again = parseFinalLabels('study,task,condition,obligation,plan,code,test\ns1,q4,plan-audit,O3,present,satisfied,covered\n', 'g.csv');
      expect(importFinalLabels(dir, 's1', again)).toMatchObject({ imported: 1, total: 2 });
      const m = readFinalLabels(dir);
      expect(m.get('q4|plan-audit|O3')).toMatchObject({ plan: 'present', code: 'satisfied', test: 'covered' });
      expect(() => importFinalLabels(dir, 's2', again)).toThrow(/expected s2/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('key terms ignore the named wrong alternative and keep prefix patterns', () => {
  test('negated clauses and cs_ext_* prefixes', () => {
    expect(keyTerms('Use the extended (ext_) columns, not unit prices such as ss_list_price.')).toEqual([]);
    expect(keyTerms('Sum ss_ext_sales_price rather than ss_sales_price; group by d_year')).toEqual(['ss_ext_sales_price', 'd_year']);
    expect(keyTerms('The catalog formulas use the cs_ext_* columns')).toEqual(['cs_ext_']);
  });
});
