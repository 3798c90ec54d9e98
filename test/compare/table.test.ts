import * as fs from 'fs';
import * as path from 'path';
import execa from 'execa';
import { readArrowTable, formatDecimal, isoMicros, parseSparkSchema } from '../../activities/compare/table';
import { loadOutput, resolveOutput } from '../../activities/compare/load';
import { InputError } from '../../activities/common/errors';
import { venvPython } from '../../activities/common/paths';
import { fixtureDir, SALES, writeFixture } from '../support/arrowFixtures';

const dir = fixtureDir();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('reading outputs into the plain model', () => {
  test('an Arrow fixture round-trips to exact canonical cells', () => {
    const folder = writeFixture(dir, 'sales', SALES);
    const t = readArrowTable(path.join(folder, 'output.arrow'), path.join(folder, 'schema.json'));
    expect(t.columns.map((c) => `${c.name} ${c.type}`)).toEqual(['channel string', 'item_sk int', 'order_number bigint', 'sales decimal(17,2)', 'sold_date date', 'ratio double']);
    expect(t.rows).toEqual(SALES.rows);
    expect(t.schemaSource).toBe('schema.json');
  });

  test('without schema.json the Spark types are derived from Arrow', () => {
    const folder = writeFixture(dir, 'derived', SALES);
    fs.rmSync(path.join(folder, 'schema.json'));
    const t = readArrowTable(path.join(folder, 'output.arrow'));
    expect(t.schemaSource).toBe('derived');
    expect(t.columns.map((c) => c.type)).toEqual(['string', 'int', 'bigint', 'decimal(17,2)', 'date', 'double']);
  });

  test('decimal, timestamp and schema helpers are exact', () => {
    expect(formatDecimal(-310n, 2)).toBe('-3.10');
    expect(formatDecimal(5n, 3)).toBe('0.005');
    expect(formatDecimal(-5n, 0)).toBe('-5');
    expect(isoMicros(-1n)).toBe('1969-12-31T23:59:59.999999');
    const cols = parseSparkSchema('{"type":"struct","fields":[{"name":"a","type":"long","nullable":false,"metadata":{}},{"name":"b","type":"decimal(27,2)","nullable":true,"metadata":{}}]}', 's.json');
    expect(cols).toEqual([{ name: 'a', type: 'bigint', nullable: false }, { name: 'b', type: 'decimal(27,2)', nullable: true }]);
  });

  test('missing and unreadable files raise InputError naming the file', () => {
    expect(() => readArrowTable(path.join(dir, 'nope.arrow'))).toThrow(InputError);
    expect(() => readArrowTable(path.join(dir, 'nope.arrow'))).toThrow(/nope\.arrow: file not found/);
    const bad = path.join(dir, 'bad.arrow');
    fs.writeFileSync(bad, 'this is not arrow at all');
    expect(() => readArrowTable(bad)).toThrow(/bad\.arrow: not a readable Arrow IPC file/);
    const folder = writeFixture(dir, 'badschema', SALES);
    fs.writeFileSync(path.join(folder, 'schema.json'), '{"type":"struct","fields":[{"name":"a","type":"integer"}]}');
    expect(() => readArrowTable(path.join(folder, 'output.arrow'), path.join(folder, 'schema.json'))).toThrow(/6 columns but the Spark schema declares 1/);
    expect(() => resolveOutput(path.join(dir, 'empty-folder-missing'))).toThrow(/no such file or folder/);
  });

  test('a Parquet file written by pyarrow loads through to_arrow.py with derived Spark types', async () => {
    const pq = path.join(dir, 'p', 'out.parquet');
    fs.mkdirSync(path.dirname(pq), { recursive: true });
    await execa(venvPython(), ['-c', `
import pyarrow as pa, pyarrow.parquet as pq, decimal, datetime
t = pa.table({'k': pa.array([1, 2], pa.int32()), 'amt': pa.array([decimal.Decimal('1.50'), None], pa.decimal128(27, 2)),
              'd': pa.array([datetime.date(2002, 3, 4), None]), 'x': pa.array([float('nan'), 2.5]), 'big': pa.array([2**60, -1], pa.int64())})
pq.write_table(t, ${JSON.stringify(pq)})
`]);
    const t = await loadOutput(pq);
    expect(t.schemaSource).toBe('derived');
    expect(t.columns.map((c) => c.type)).toEqual(['int', 'decimal(27,2)', 'date', 'double', 'bigint']);
    expect(t.rows).toEqual([[1, '1.50', '2002-03-04', NaN, '1152921504606846976'], [2, null, null, 2.5, '-1']]);
    const garbage = path.join(dir, 'p', 'garbage.parquet');
    fs.writeFileSync(garbage, 'nope');
    await expect(loadOutput(garbage)).rejects.toThrow(/garbage\.parquet: not a readable Parquet file/);
  });
});
