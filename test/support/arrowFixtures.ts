/**
 * Hand-built Arrow IPC fixtures for the comparator tests: a plain spec (Spark types + rows in
 * the comparator's canonical cell form) is encoded into real Arrow buffers with apache-arrow,
 * written as `<name>.arrow` + a Spark schema JSON, and can be read back with readArrowTable.
 *
 * Cell forms: int/smallint/tinyint number; bigint digit string; decimal(p,s) exact string
 * ("12.30"); double/float number (NaN, ±Infinity allowed); date "YYYY-MM-DD"; string; boolean; null.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  Bool, DataType, DateDay, Decimal, Field, Float32, Float64, Int16, Int32, Int64, Int8, makeData, RecordBatch, Schema, Struct, Table, tableToIPC, Utf8,
} from 'apache-arrow';
import type { Cell, PlainTable } from '../../activities/compare/table';

/** A fixture table: columns with Spark types and rows of canonical cells. */
export interface FixtureSpec {
  columns: { name: string; type: string }[];
  rows: Cell[][];
}

const SPARK_JSON: Record<string, string> = { int: 'integer', bigint: 'long', smallint: 'short', tinyint: 'byte' };

/** The Spark schema JSON (`df.schema.json()` form) of a spec. */
export function sparkSchemaJson(spec: FixtureSpec): string {
  return JSON.stringify({ type: 'struct', fields: spec.columns.map((c) => ({ name: c.name, type: SPARK_JSON[c.type] ?? c.type, nullable: true, metadata: {} })) });
}

function validity(values: Cell[]): { nullBitmap: Uint8Array; nullCount: number } {
  const nullBitmap = new Uint8Array(Math.max(1, Math.ceil(values.length / 8)));
  let nullCount = 0;
  values.forEach((v, i) => {
    if (v === null) nullCount++;
    else nullBitmap[i >> 3] |= 1 << (i & 7);
  });
  return { nullBitmap, nullCount };
}

function unscaledOf(v: string, scale: number): bigint {
  const neg = v.startsWith('-');
  const [ip, fp = ''] = (neg ? v.slice(1) : v).split('.');
  if (fp.length > scale) throw new Error(`fixture: ${v} has more than ${scale} fraction digits`);
  const u = BigInt(ip + fp.padEnd(scale, '0'));
  return neg ? -u : u;
}

/** Encodes one column of canonical cells as Arrow data of the Spark type. */
function columnData(type: string, values: Cell[]): { arrowType: DataType; data: ReturnType<typeof makeData> } {
  const length = values.length;
  const { nullBitmap, nullCount } = validity(values);
  const dec = /^decimal\((\d+),(\d+)\)$/.exec(type);
  if (dec) {
    const scale = Number(dec[2]);
    const t = new Decimal(scale, Number(dec[1]), 128);
    const words = new Uint32Array(length * 4);
    values.forEach((v, i) => {
      if (v === null) return;
      let u = BigInt.asUintN(128, unscaledOf(String(v), scale));
      for (let w = 0; w < 4; w++) {
        words[i * 4 + w] = Number(u & 0xffffffffn);
        u >>= 32n;
      }
    });
    return { arrowType: t, data: makeData({ type: t, length, nullCount, nullBitmap, data: words }) };
  }
  switch (type) {
    case 'int': case 'smallint': case 'tinyint': {
      const t = type === 'int' ? new Int32() : type === 'smallint' ? new Int16() : new Int8();
      const Arr = type === 'int' ? Int32Array : type === 'smallint' ? Int16Array : Int8Array;
      const data = new Arr(values.map((v) => (v === null ? 0 : Number(v))));
      return { arrowType: t, data: makeData({ type: t as Int32, length, nullCount, nullBitmap, data: data as unknown as Int32Array }) };
    }
    case 'bigint': {
      const t = new Int64();
      return { arrowType: t, data: makeData({ type: t, length, nullCount, nullBitmap, data: new BigInt64Array(values.map((v) => (v === null ? 0n : BigInt(String(v))))) }) };
    }
    case 'double': case 'float': {
      const t = type === 'double' ? new Float64() : new Float32();
      const data = type === 'double' ? new Float64Array(values.map((v) => (v === null ? 0 : Number(v)))) : new Float32Array(values.map((v) => (v === null ? 0 : Number(v))));
      return { arrowType: t, data: makeData({ type: t as Float64, length, nullCount, nullBitmap, data: data as Float64Array }) };
    }
    case 'date': {
      const t = new DateDay();
      const days = new Int32Array(values.map((v) => (v === null ? 0 : Date.parse(`${String(v)}T00:00:00Z`) / 86400000)));
      return { arrowType: t, data: makeData({ type: t, length, nullCount, nullBitmap, data: days }) };
    }
    case 'string': {
      const t = new Utf8();
      const enc = values.map((v) => Buffer.from(v === null ? '' : String(v), 'utf8'));
      const valueOffsets = new Int32Array(length + 1);
      enc.forEach((b, i) => (valueOffsets[i + 1] = valueOffsets[i] + b.length));
      const data = new Uint8Array(Buffer.concat(enc));
      return { arrowType: t, data: makeData({ type: t, length, nullCount, nullBitmap, valueOffsets, data }) };
    }
    case 'boolean': {
      const t = new Bool();
      const bits = new Uint8Array(Math.max(1, Math.ceil(length / 8)));
      values.forEach((v, i) => {
        if (v === true) bits[i >> 3] |= 1 << (i & 7);
      });
      return { arrowType: t, data: makeData({ type: t, length, nullCount, nullBitmap, data: bits }) };
    }
    default:
      throw new Error(`fixture: unsupported type ${type}`);
  }
}

/** Encodes a spec as an Arrow IPC file (bytes). */
export function arrowBytes(spec: FixtureSpec): Uint8Array {
  const cols = spec.columns.map((c, j) => columnData(c.type, spec.rows.map((r) => r[j])));
  const fields = spec.columns.map((c, j) => new Field(c.name, cols[j].arrowType, true));
  const schema = new Schema(fields);
  const struct = makeData({ type: new Struct(fields), length: spec.rows.length, nullCount: 0, children: cols.map((c) => c.data) });
  const table = new Table([new RecordBatch(schema, struct)]);
  return tableToIPC(table, 'file');
}

/** A fresh temporary folder for one test file's fixtures. */
export function fixtureDir(prefix = 'lockin-fixture-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Writes a spec as `<dir>/<name>/<dataName>` (Arrow IPC) + `<dir>/<name>/schema.json`.
 * @param dataName `output.arrow` (candidate, default) or `reference.arrow`
 * @returns the folder path
 */
export function writeFixture(dir: string, name: string, spec: FixtureSpec, dataName = 'output.arrow'): string {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, dataName), arrowBytes(spec));
  fs.writeFileSync(path.join(folder, 'schema.json'), sparkSchemaJson(spec));
  return folder;
}

/** A spec as an in-memory PlainTable (for pure-function tests that need no files). */
export function plain(spec: FixtureSpec, source = 'fixture'): PlainTable {
  return { source, columns: spec.columns.map((c) => ({ ...c, nullable: true })), rows: spec.rows.map((r) => [...r]) };
}

/** A small table with every common TPC-DS output type: the base of most fixtures. */
export const SALES: FixtureSpec = {
  columns: [
    { name: 'channel', type: 'string' },
    { name: 'item_sk', type: 'int' },
    { name: 'order_number', type: 'bigint' },
    { name: 'sales', type: 'decimal(17,2)' },
    { name: 'sold_date', type: 'date' },
    { name: 'ratio', type: 'double' },
  ],
  rows: [
    ['store', 1, '9007199254740993', '1234567.89', '2000-01-31', 0.5],
    ['web', 2, '2', '-0.05', '1999-12-31', null],
    ['catalog', 3, '3', '0.00', null, 1.25],
    [null, 4, '4', null, '2001-02-28', -2],
  ],
};
