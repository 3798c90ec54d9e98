/** Checks against the database manifest and the reference schema (pure functions, fixtures with known answers). */
import * as path from 'path';
import { checkOutputAgainstReference, checkRulesAgainstReference, checkTablesAgainstManifest, queryAliases, sqlFragmentProblems, sqlFragments } from '../../activities/tasks/check';
import { checkCorpus } from '../../activities/tasks/corpus';
import { checkConventionNullability } from '../../activities/tasks/corpus';
import type { TaskSpec } from '../../protocol/corpus';
import { conventionNullable, manifestTables, sparkJsonTypeToSql, structColumns, tpcdsSparkType } from '../../activities/tasks/sparkTypes';
import { fixtureTask, writeFixtureCorpus } from './fixtures';

const task = () => ({ task: fixtureTask() as unknown as TaskSpec, taskFile: 'tasks/q3/task.yaml' });

/** The data engineer's manifest shape: tables.<name>.schema is Spark's StructType JSON (Parquet reads: all nullable). */
function manifest(overrides: Record<string, string> = {}) {
  const f = (name: string, type: string) => ({ name, type: overrides[name] ?? type, nullable: true, metadata: {} });
  return {
    formatVersion: 1,
    tables: {
      date_dim: { rows: 3, schema: { type: 'struct', fields: [f('d_date_sk', 'integer'), f('d_year', 'integer'), f('d_moy', 'integer')] } },
      store_sales: {
        rows: 1,
        schema: { type: 'struct', fields: [f('ss_sold_date_sk', 'integer'), f('ss_item_sk', 'integer'), f('ss_ext_sales_price', 'decimal(7,2)'), f('ss_net_paid', 'decimal(7,2)')] },
      },
    },
  };
}

describe('manifest checks', () => {
  test('reads the StructType JSON of each table as SQL type names', () => {
    const m = manifestTables(manifest());
    expect(m.get('store_sales')!.map((c) => `${c.name}:${c.type}`)).toEqual(['ss_sold_date_sk:int', 'ss_item_sk:int', 'ss_ext_sales_price:decimal(7,2)', 'ss_net_paid:decimal(7,2)']);
    expect(sparkJsonTypeToSql('long')).toBe('bigint');
  });

  test('a type mismatch and a column missing from task.yaml are reported with their fields', () => {
    const m = manifestTables(manifest({ d_year: 'long' }));
    expect(checkTablesAgainstManifest(task(), m, false)).toEqual([
      { file: 'tasks/q3/task.yaml', field: 'tables[0].columns[1].type', message: 'date_dim.d_year is int here but bigint in the database' },
      { file: 'tasks/q3/task.yaml', field: 'tables[1].columns', message: 'store_sales lacks 1 column(s) of the database table: ss_net_paid' },
    ]);
  });

  test('an unknown table or column is reported', () => {
    const t = task();
    t.task.tables[0].columns[2].name = 'd_month';
    t.task.tables[1].name = 'web_sales';
    const p = checkTablesAgainstManifest(t, manifestTables(manifest()), false).map((x) => x.field);
    expect(p).toEqual(['tables[0].columns[2].name', 'tables[0].columns', 'tables[1].name']);
  });

  test('nullability: compared with the manifest only when asked; the corpus rule always', () => {
    const m = manifestTables(manifest());
    const fields = checkTablesAgainstManifest(task(), m, true).map((x) => x.field);
    expect(fields).toEqual(['tables[0].columns[0].nullable', 'tables[1].columns[1].nullable', 'tables[1].columns']);
    expect(checkConventionNullability(task())).toEqual([]);
    const t = task();
    t.task.tables[1].columns[0].nullable = false;
    expect(checkConventionNullability(t).map((x) => x.field)).toEqual(['tables[1].columns[0].nullable']);
  });

  test('the type rules of docs/tpcds-types.md and the primary-key nullability rule', () => {
    expect(tpcdsSparkType('ss_ticket_number', 'int64')).toBe('bigint');
    expect(tpcdsSparkType('ca_gmt_offset', 'decimal128(5, 2)')).toBe('decimal(5,2)');
    expect(tpcdsSparkType('p_cost', 'decimal128(15, 2)')).toBe('decimal(15,2)');
    expect(tpcdsSparkType('d_date', 'date32[day]')).toBe('date');
    expect(tpcdsSparkType('i_brand', 'string_view')).toBe('string');
    expect(conventionNullable('store_sales', 'ss_item_sk')).toBe(false);
    expect(conventionNullable('store_sales', 'ss_ticket_number')).toBe(true);
    expect(conventionNullable('store_sales', 'ss_sold_date_sk')).toBe(true);
    expect(conventionNullable('date_dim', 'd_date_sk')).toBe(false);
  });
});

describe('reference schema check', () => {
  const ref = structColumns({
    type: 'struct',
    fields: [
      { name: 'd_year', type: 'integer', nullable: true, metadata: {} },
      { name: 'sum_agg', type: 'decimal(17,2)', nullable: true, metadata: {} },
    ],
  })!;

  test('declared names and types agree by position', () => {
    expect(checkOutputAgainstReference(task(), ref)).toEqual([]);
  });

  test('a wrong declared name, a wrong type and a wrong column count are reported', () => {
    const t = task();
    t.task.output.columns[0] = { name: 'year', description: 'the year', type: 'bigint' };
    t.task.output.columns.push({ description: 'extra' });
    expect(checkOutputAgainstReference(t, ref)).toEqual([
      { file: 'tasks/q3/task.yaml', field: 'output.columns', message: 'describes 3 column(s) but the reference has 2' },
      { file: 'tasks/q3/task.yaml', field: 'output.columns[0].name', message: 'is "year" but the reference\'s column 0 is "d_year"' },
      { file: 'tasks/q3/task.yaml', field: 'output.columns[0].type', message: "is bigint but the reference's column 0 (d_year) is int" },
    ]);
  });

  test('obligation rules must hold on the reference schema', () => {
    const obl = [
      { id: 'O1', rule: { kind: 'column-name', position: 0, name: 'D_YEAR' } },
      { id: 'O2', rule: { kind: 'column-name', position: 1, name: 'total' } },
      { id: 'O3', rule: { kind: 'column-type', name: 'sum_agg', type: 'decimal(38,2)' } },
      { id: 'O4', rule: { kind: 'columns', names: ['d_year', 'brand'] } },
      { id: 'O5' },
      { id: 'O6', rule: { kind: 'columns', names: ['sum_agg', 'd_year'], exact: true } },
      { id: 'O7', rule: { kind: 'columns', names: ['D_YEAR', 'sum_agg'], exact: true } },
      { id: 'O8', rule: { kind: 'columns', names: ['d_year'], exact: true } },
      { id: 'O9', rule: { kind: 'column-type', name: 'sum_agg', type: 'decimal(17,2)', position: 1 } },
      { id: 'O10', rule: { kind: 'column-type', name: 'sum_agg', type: 'decimal(17,2)', position: 0 } },
    ];
    expect(checkRulesAgainstReference(obl, ref, 'o.yaml')).toEqual([
      { file: 'o.yaml', field: 'obligations[1].rule', message: 'O2: the reference\'s column 1 is "sum_agg", not "total"' },
      { file: 'o.yaml', field: 'obligations[2].rule', message: "O3: the reference's sum_agg is decimal(17,2), not decimal(38,2)" },
      { file: 'o.yaml', field: 'obligations[3].rule', message: 'O4: the reference has no column(s) brand' },
      { file: 'o.yaml', field: 'obligations[5].rule', message: "O6: exact: the reference's columns are [d_year, sum_agg], not [sum_agg, d_year]" },
      { file: 'o.yaml', field: 'obligations[7].rule', message: "O8: exact: the reference's columns are [d_year, sum_agg], not [d_year]" },
      { file: 'o.yaml', field: 'obligations[9].rule', message: 'O10: position 0: the reference\'s column 0 is "d_year", not "sum_agg" (it is column 1)' },
    ]);
  });
});

describe('SQL fragments in prompts', () => {
  const tables = new Set(['store_sales', 'item', 'date_dim', 'customer_demographics']);

  test('a planted ss_item_sk = i_item_sk, a decimal cast, an alias of the query and "the reference report" are flagged with their fields', () => {
    const t = fixtureTask();
    t.joins = ['store_sales.ss_sold_date_sk matches date_dim.d_date_sk', 'ss_item_sk = i_item_sk'];
    t.aggregations = ['the ratio is computed as decimal(15,4) and rounded', 'totals per brand of cd1'];
    t.notes = ['as in the reference report'];
    const frags = sqlFragments(t, ['cd1', 'cd2']);
    expect(frags).toEqual([
      { kind: 'column-predicate', field: 'joins[1]', text: 'ss_item_sk = i_item_sk' },
      { kind: 'literal-expression', field: 'aggregations[0]', text: 'decimal(15,4)' },
      { kind: 'query-alias', field: 'aggregations[1]', text: 'cd1' },
      { kind: 'reference-mention', field: 'notes[0]', text: 'the reference report' },
    ]);
    expect(sqlFragmentProblems('tasks/q3/task.yaml', frags.slice(0, 1))).toEqual([
      { file: 'tasks/q3/task.yaml', field: 'joins[1]', message: 'SQL fragment (column-predicate): "ss_item_sk = i_item_sk": say it in words ("store_sales.ss_item_sk matches item.i_item_sk")' },
    ]);
  });

  test('prose in words, the input schemas and declared output types are not flagged', () => {
    const t = fixtureTask();
    (t.output as { columns: unknown[] }).columns.push({ name: 'ratio', type: 'decimal(15,4)', description: 'the ratio' });
    expect(sqlFragments(t, ['cd1'])).toEqual([]);
    // qualified predicates and the other comparison operators
    expect(sqlFragments({ joins: ['store_sales.ss_item_sk=item.i_item_sk', 'cs_item_sk <> ss_item_sk', 'a hierarchy channel > i_brand_id > i_class_id'] }).map((f) => f.text)).toEqual(['store_sales.ss_item_sk=item.i_item_sk', 'cs_item_sk <> ss_item_sk']);
  });

  test("the query's table, CTE and subquery aliases, not its column aliases or keywords", () => {
    const query = `with totals as (select ss_item_sk, sum(ss_net_paid) as paid from store_sales group by ss_item_sk)
      select cd1.cd_gender, t.paid, x.n
      from totals t, customer_demographics cd1, customer_demographics as cd2, (select count(*) n from item) x, date_dim
      where cd1.cd_demo_sk = cd2.cd_demo_sk order by paid desc`;
    expect(queryAliases(query, tables)).toEqual(['cd1', 'cd2', 'totals']);
  });

  test('lockin tasks check flags a planted ss_item_sk = i_item_sk and counts it', async () => {
    const root = writeFixtureCorpus({ ...fixtureTask(), joins: ['store_sales.ss_sold_date_sk matches date_dim.d_date_sk', 'each sale has its item: ss_item_sk = i_item_sk'] });
    const rep = await checkCorpus({ scale: 0.01, root, ids: ['q3'], skipLeak: true });
    expect(rep.tasks[0].ok).toBe(false);
    expect(rep.tasks[0].problems).toContainEqual({ file: path.join(root, 'q3', 'task.yaml'), field: 'joins[1]', message: 'SQL fragment (column-predicate): "ss_item_sk = i_item_sk": say it in words ("store_sales.ss_item_sk matches item.i_item_sk")' });
    expect(rep.totals.sqlFragments).toEqual({ 'column-predicate': 1, 'literal-expression': 0, 'query-alias': 0, 'reference-mention': 0 });
  });
});
