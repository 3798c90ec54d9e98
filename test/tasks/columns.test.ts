/**
 * The columns an obligation names, their same-typed and plausible alternatives, and the column
 * swaps of gold (activities/tasks/columns.ts), on q3's real task.yaml and hand-built tables.
 * Expectations written from the definitions in tasks/README.md "Discriminating fixtures".
 */
import * as path from 'path';
import { alternatives, columnFamilies, familyKey, obligationColumns, swapColumn, taskSwaps, unswappableColumns } from '../../activities/tasks/columns';
import { loadTask } from '../../activities/tasks/load';

const q3 = loadTask('q3', path.join(__dirname, '..', '..', 'tasks'));
const tables = {
  tables: [
    { name: 'catalog_sales', columns: [
      { name: 'cs_sold_date_sk', type: 'int', nullable: true }, { name: 'cs_ship_date_sk', type: 'int', nullable: true },
      { name: 'cs_bill_customer_sk', type: 'int', nullable: true }, { name: 'cs_ship_customer_sk', type: 'int', nullable: true },
      { name: 'cs_item_sk', type: 'int', nullable: false }, { name: 'cs_quantity', type: 'int', nullable: true },
      { name: 'cs_order_number', type: 'bigint', nullable: true },
      { name: 'cs_sales_price', type: 'decimal(7,2)', nullable: true }, { name: 'cs_ext_sales_price', type: 'decimal(7,2)', nullable: true },
      { name: 'cs_net_profit', type: 'decimal(7,2)', nullable: true },
    ] },
    { name: 'date_dim', columns: [{ name: 'd_date_sk', type: 'int', nullable: false }, { name: 'd_year', type: 'int', nullable: true }, { name: 'd_date', type: 'date', nullable: true }] },
  ],
};

test('an obligation names the input columns its statement mentions as words, in order of mention', () => {
  const o13 = q3.obligations.obligations.find((o) => o.id === 'O13')!;
  expect(obligationColumns(o13, q3.task)).toEqual(['ss_ext_sales_price']);
  const o6 = q3.obligations.obligations.find((o) => o.id === 'O6')!;
  expect(obligationColumns(o6, q3.task)).toEqual(['ss_sold_date_sk', 'd_date_sk']);
  // "d_year" inside "d_year_x" or "xd_year" is not the column.
  expect(obligationColumns({ statement: 'by d_year_x and xd_year, then d_date' }, tables)).toEqual(['d_date']);
  // An explicit list wins, and names no table has are dropped.
  expect(obligationColumns({ statement: 'about d_year', columns: ['d_date', 'nope'] }, tables)).toEqual(['d_date']);
});

test('families: money columns by type, role keys by suffix; a column alone has none', () => {
  expect(familyKey('cs_ext_sales_price', 'decimal(7,2)')).toBe('money:decimal(7,2)');
  expect(familyKey('cs_ship_date_sk', 'int')).toBe('key:_date_sk');
  expect(familyKey('cs_item_sk', 'int')).toBeNull();
  expect(familyKey('cs_order_number', 'bigint')).toBeNull();
  expect(columnFamilies(tables)).toEqual({
    catalog_sales: [['cs_sold_date_sk', 'cs_ship_date_sk'], ['cs_bill_customer_sk', 'cs_ship_customer_sk'], ['cs_sales_price', 'cs_ext_sales_price', 'cs_net_profit']],
  });
  // q3's store_sales: 12 money columns, one date key (no family), no other role key pairs.
  const ss = columnFamilies(q3.task).store_sales;
  expect(ss).toHaveLength(1);
  expect(ss[0]).toHaveLength(12);
  expect(columnFamilies(q3.task).item).toEqual([['i_current_price', 'i_wholesale_cost']]);
});

test('alternatives: every same-typed column of the table, plausible within the family', () => {
  expect(alternatives(tables, 'cs_sold_date_sk')).toEqual([
    { column: 'cs_ship_date_sk', plausible: true },
    { column: 'cs_bill_customer_sk', plausible: false },
    { column: 'cs_ship_customer_sk', plausible: false },
    { column: 'cs_item_sk', plausible: false },
    { column: 'cs_quantity', plausible: false },
  ]);
  expect(alternatives(tables, 'cs_order_number')).toEqual([]);
  expect(alternatives(tables, 'no_such')).toEqual([]);
});

test('a swap replaces whole-word uses only, and is null when gold does not read the column', () => {
  const gold = 'F.sum("cs_ext_sales_price") + F.col("cs_ext_sales_price_x") # cs_ext_sales_price';
  expect(swapColumn(gold, 'cs_ext_sales_price', 'cs_net_profit')).toBe('F.sum("cs_net_profit") + F.col("cs_ext_sales_price_x") # cs_net_profit');
  expect(swapColumn(gold, 'cs_sales_price', 'cs_net_profit')).toBeNull();
});

test('an obligation naming a column gold builds by an f-string (or never reads) is out of the swaps\' reach, unless its columns: list leaves it out', () => {
  const task = { tables: [{ name: 'store_sales', columns: [{ name: 'ss_list_price', type: 'decimal(7,2)', nullable: true }, { name: 'ss_quantity', type: 'int', nullable: true }, { name: 'ss_sales_price', type: 'decimal(7,2)', nullable: true }] }] } as unknown as Parameters<typeof unswappableColumns>[1];
  const gold = 'p = "ss"\nF.sum(F.col(f"{p}_quantity") * F.col("ss_list_price"))';
  const obligations = [
    { id: 'O1', statement: 'sales value = sum(ss_quantity x ss_list_price)' },
    { id: 'O2', statement: 'the unit price ss_list_price, not ss_sales_price' },
    { id: 'O3', statement: 'the unit price ss_list_price, not ss_sales_price', columns: ['ss_list_price'] },
    { id: 'O4', statement: 'ss_sales_price is never read', executable: false },
  ];
  expect(unswappableColumns(obligations, task, gold)).toEqual([
    { id: 'O1', column: 'ss_quantity' },
    { id: 'O2', column: 'ss_sales_price' },
  ]);
});

test("q3's swaps: one per (column, alternative) gold reads, naming every obligation that names the column", () => {
  const gold = require('fs').readFileSync(path.join(q3.dir, 'gold', 'solution.py'), 'utf8') as string;
  const swaps = taskSwaps(q3.obligations.obligations, q3.task, gold);
  // Columns named and read by gold: ss_ext_sales_price (11 other money columns), ss_sold_date_sk
  // and ss_item_sk (9 other ints of store_sales each), d_date_sk, d_year and d_moy (15 other ints
  // of date_dim each), i_item_sk, i_manufact_id and i_brand_id (5 other ints of item each),
  // i_brand (11 other strings of item).
  expect(swaps).toHaveLength(11 + 9 * 2 + 15 * 3 + 5 * 3 + 11);
  const list = swaps.find((s) => s.id === 'swap.ss_ext_sales_price.ss_ext_list_price')!;
  expect(list).toEqual({ id: 'swap.ss_ext_sales_price.ss_ext_list_price', from: 'ss_ext_sales_price', to: 'ss_ext_list_price', plausible: true, obligations: ['O13'] });
  expect(swaps.find((s) => s.id === 'swap.d_year.d_fy_year')!.obligations).toEqual(['O1', 'O10']);
  expect(swaps.filter((s) => s.plausible).map((s) => s.from)).toEqual(Array(11).fill('ss_ext_sales_price'));
});

test('a swap between two columns one obligation names is not plausible (it collapses the obligation, x / x)', () => {
  const obligations = [
    { id: 'O4', statement: 'the margin is sum(cs_net_profit) / sum(cs_ext_sales_price)' },
    { id: 'O9', statement: 'cs_sales_price is summed' },
  ];
  const gold = 'F.sum("cs_net_profit") / F.sum("cs_ext_sales_price") + F.sum("cs_sales_price")';
  const swaps = taskSwaps(obligations, tables, gold);
  const get = (id: string) => swaps.find((s) => s.id === id)!;
  expect(get('swap.cs_net_profit.cs_ext_sales_price').plausible).toBe(false);
  expect(get('swap.cs_ext_sales_price.cs_net_profit').plausible).toBe(false);
  // Another obligation's column stays a plausible alternative (isolation is checked).
  expect(get('swap.cs_net_profit.cs_sales_price').plausible).toBe(true);
  expect(get('swap.cs_sales_price.cs_net_profit').plausible).toBe(true);
});
