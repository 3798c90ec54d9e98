/** Checks against the database manifest and the reference schema (pure functions, fixtures with known answers). */
import { checkOutputAgainstReference, checkRulesAgainstReference, checkTablesAgainstManifest } from '../../activities/tasks/check';
import { checkConventionNullability } from '../../activities/tasks/corpus';
import type { TaskSpec } from '../../activities/tasks/schema';
import { conventionNullable, manifestTables, sparkJsonTypeToSql, structColumns, tpcdsSparkType } from '../../activities/tasks/sparkTypes';
import { fixtureTask } from './fixtures';

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
    ];
    expect(checkRulesAgainstReference(obl, ref, 'o.yaml')).toEqual([
      { file: 'o.yaml', field: 'obligations[1].rule', message: 'O2: the reference\'s column 1 is "sum_agg", not "total"' },
      { file: 'o.yaml', field: 'obligations[2].rule', message: "O3: the reference's sum_agg is decimal(17,2), not decimal(38,2)" },
      { file: 'o.yaml', field: 'obligations[3].rule', message: 'O4: the reference has no column(s) brand' },
    ]);
  });
});
