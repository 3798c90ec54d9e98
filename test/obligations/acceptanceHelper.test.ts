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
