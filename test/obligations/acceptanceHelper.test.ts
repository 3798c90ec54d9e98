/**
 * lockin_acceptance.TaskTables.df refuses a fixture that cannot be a row of the task's table,
 * naming it, before Spark is asked for anything (so these cases need no JVM): a column the
 * table does not have, and a NULL in a column task.yaml declares NOT NULL.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { pythonDir, venvPython } from '../../activities/common/paths';

function runHelper(rows: string): { status: number | null; stderr: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-acc-helper-'));
  fs.writeFileSync(path.join(dir, 'tables.json'), JSON.stringify([{ name: 'item', columns: [{ name: 'i_item_sk', type: 'int', nullable: false }, { name: 'i_brand', type: 'string', nullable: true }] }]));
  const code = `import lockin_acceptance as LA\nT = LA.TaskTables(${JSON.stringify(path.join(dir, 'test_acceptance.py'))})\nT.df(None, "item", ${rows})\n`;
  const r = spawnSync(venvPython(), ['-c', code], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: pythonDir() } });
  fs.rmSync(dir, { recursive: true, force: true });
  return { status: r.status, stderr: r.stderr };
}

test('a NULL in a NOT NULL column names the table, the column and the row', () => {
  const r = runHelper('[{"i_item_sk": 1}, {"i_brand": "b"}]');
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('ValueError: item.i_item_sk is NOT NULL in task.yaml, but fixture row 1 leaves it NULL');
});

test('a key that is not a column of the table names it', () => {
  const r = runHelper('[{"i_item_sk": 1, "i_colour": "red"}]');
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(`KeyError: "item has no column(s) ['i_colour']"`);
});

/** Runs lockin_acceptance.fill_rows on a table of store_sales columns and prints its rows as JSON. */
function fill(varied: string[], rows: string): Record<string, unknown>[] {
  const cols = [
    { name: 'ss_sold_date_sk', type: 'int' }, { name: 'ss_item_sk', type: 'int' }, { name: 'ss_store_sk', type: 'int' },
    { name: 'ss_list_price', type: 'decimal(7,2)' }, { name: 'ss_ext_sales_price', type: 'decimal(7,2)' }, { name: 'ss_ext_list_price', type: 'decimal(7,2)' },
    { name: 'ss_net_paid', type: 'decimal(7,2)' }, { name: 'ss_net_profit', type: 'decimal(7,2)' }, { name: 'ss_promo_name', type: 'string' }, { name: 'ss_day', type: 'date' },
  ];
  const fams = [['ss_list_price', 'ss_ext_sales_price', 'ss_ext_list_price', 'ss_net_paid', 'ss_net_profit']];
  const code = `import json, lockin_acceptance as LA\nrows = LA.fill_rows(json.loads(${JSON.stringify(JSON.stringify(cols))}), json.loads(${JSON.stringify(JSON.stringify(fams))}), set(json.loads(${JSON.stringify(JSON.stringify(varied))})), json.loads(${JSON.stringify(rows)}))\nprint(json.dumps(rows, default=str))\n`;
  const r = spawnSync(venvPython(), ['-c', code], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: pythonDir() } });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>[];
}

test('fill: the family copies the nearest named member; other columns get a fixed non-NULL filler', () => {
  const [a, b] = fill([], '[{"ss_sold_date_sk": 1, "ss_item_sk": 10, "ss_ext_sales_price": "10.00", "ss_net_profit": "2.00"}, {"ss_sold_date_sk": 1, "ss_item_sk": 11, "ss_ext_sales_price": "3.00", "ss_net_profit": null}]');
  // ext_list_price shares "ext" and "price" with ext_sales_price; net_paid shares "net" with net_profit;
  // list_price shares "price" with ext_sales_price (the first named member on a tie with nothing).
  expect(a).toEqual({ ss_sold_date_sk: 1, ss_item_sk: 10, ss_store_sk: 7002000, ss_list_price: '10.00', ss_ext_sales_price: '10.00', ss_ext_list_price: '10.00', ss_net_paid: '2.00', ss_net_profit: '2.00', ss_promo_name: 'ss_promo_name~fill', ss_day: '1901-01-28' });
  // A NULL is copied as NULL (a NULL test stays one); fillers are the same in every row.
  expect(b).toMatchObject({ ss_ext_list_price: '3.00', ss_net_paid: null, ss_store_sk: 7002000, ss_promo_name: 'ss_promo_name~fill' });
});

test('fill: when the running test names a family member, the others differ from it and from each other', () => {
  const [a] = fill(['ss_ext_sales_price'], '[{"ss_item_sk": 10, "ss_ext_sales_price": "10.00", "ss_net_profit": "2.00"}]');
  // member k (1-based in family order) = the nearest named value + k x (1000 + k/100).
  expect(a).toMatchObject({ ss_list_price: '1010.01', ss_ext_sales_price: '10.00', ss_ext_list_price: '3010.09', ss_net_paid: '4002.16', ss_net_profit: '2.00' });
  // Unnamed ints are fillers, never NULL: a key matching no fixture row.
  expect(a.ss_sold_date_sk).toBe(7000000);
});
