/**
 * Generation resumes and refuses corrupted files without deleting anything (no Spark: the
 * generator alone, a few seconds at SF=0.01 in a throwaway LOCKIN_HOME).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { generateTables } from '../../activities/data';
import { InputError } from '../../activities/common/errors';
import { lockinHome } from '../../activities/common/paths';

let home: string;
let prevHome: string | undefined;

beforeAll(() => {
  process.env.LOCKIN_DATA_QUIET = '1';
  prevHome = process.env.LOCKIN_HOME;
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-gen-'));
  process.env.LOCKIN_HOME = home;
});

afterAll(() => {
  if (prevHome === undefined) delete process.env.LOCKIN_HOME;
  else process.env.LOCKIN_HOME = prevHome;
  fs.rmSync(home, { recursive: true, force: true });
});

test('generates 24 tables, then skips a verified earlier run, then refuses a corrupted file', async () => {
  const first = await generateTables({ scale: 0.01 });
  expect(first.generate.skipped).toBe(false);
  expect(Object.keys(first.generate.rows)).toHaveLength(24);
  expect(first.generate.rows.date_dim).toBe(73049);
  expect(first.generate.rows.item).toBe(2000);
  expect(first.generate.generator.version).toBe('4.0.0');

  const second = await generateTables({ scale: 0.01 });
  expect(second.generate.skipped).toBe(true);

  const file = path.join(lockinHome(), 'cache', 'tpcgen', 'sf0.01', 'reason.parquet');
  fs.appendFileSync(file, 'garbage');
  const size = fs.statSync(file).size;
  await expect(generateTables({ scale: 0.01 })).rejects.toThrow(InputError);
  await expect(generateTables({ scale: 0.01 })).rejects.toThrow(/reason\.parquet: corrupted/);
  expect(fs.statSync(file).size).toBe(size);
}, 180_000);

test('a non-positive scale is an InputError naming the field', async () => {
  await expect(generateTables({ scale: 0 })).rejects.toThrow(/scale/);
});
