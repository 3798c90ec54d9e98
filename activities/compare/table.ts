/**
 * Reads a query output (Arrow IPC file + the Spark schema JSON beside it) into a plain,
 * exact table model that the comparator works on (docs/protocol.md §4).
 *
 * Canonical cell values, by Spark type (the declared type from schema.json decides):
 * - `int`, `smallint`, `tinyint`: number
 * - `bigint`: decimal digit string (exact beyond 2^53), e.g. "-12"
 * - `decimal(p,s)`: exact string with exactly s fraction digits, e.g. "-3.10", "0.00", "12"
 * - `double`, `float`: number; NaN, Infinity and -Infinity are kept
 * - `date`: ISO day "YYYY-MM-DD"; `timestamp`, `timestamp_ntz`: ISO "YYYY-MM-DDTHH:MM:SS.ffffff"
 *   (UTC instant, microseconds)
 * - `string`, `varchar(n)`, `char(n)`: string; `boolean`: boolean; `binary`: base64 string
 * - nested types: a JSON string of the Arrow value
 * - SQL NULL: null
 */
import * as fs from 'fs';
import * as path from 'path';
import { DataType, Table, tableFromIPC, Vector } from 'apache-arrow';
import { InputError } from '../common/errors';

/** One cell in canonical form (see the module docstring). */
export type Cell = null | boolean | number | string;

/** One output column: the name as written, the Spark type string (simpleString form). */
export interface TableColumn {
  name: string;
  /** Spark simpleString, e.g. `int`, `bigint`, `double`, `decimal(17,2)`, `string`, `date`. */
  type: string;
  nullable: boolean;
}

/** A query output in plain form: declared columns and rows of canonical cells (row-major). */
export interface PlainTable {
  /** Where it was read from (for messages). */
  source: string;
  columns: TableColumn[];
  rows: Cell[][];
  /** Where the Spark types came from: the schema.json beside the data, Parquet's Spark metadata, or derived from Arrow. */
  schemaSource?: 'schema.json' | 'spark-metadata' | 'derived';
}

const INTEGER_TYPES = new Set(['tinyint', 'smallint', 'int', 'bigint']);
const FLOAT_TYPES = new Set(['float', 'double']);

/** Parses `decimal(p,s)` into {precision, scale}, or null for other types. */
export function parseDecimalType(type: string): { precision: number; scale: number } | null {
  const m = /^decimal\((\d+),\s*(\d+)\)$/.exec(type);
  return m ? { precision: Number(m[1]), scale: Number(m[2]) } : null;
}

/** True for the Spark numeric types (integers, decimals, float, double). */
export function isNumericType(type: string): boolean {
  return INTEGER_TYPES.has(type) || FLOAT_TYPES.has(type) || parseDecimalType(type) !== null;
}

/** True for `double` and `float`: the only types the tolerance analysis relaxes. */
export function isFloatingType(type: string): boolean {
  return FLOAT_TYPES.has(type);
}

/** True for the Spark integer types. */
export function isIntegerType(type: string): boolean {
  return INTEGER_TYPES.has(type);
}

const JSON_ATOMIC: Record<string, string> = {
  integer: 'int', long: 'bigint', short: 'smallint', byte: 'tinyint', float: 'float', double: 'double',
  string: 'string', date: 'date', timestamp: 'timestamp', timestamp_ntz: 'timestamp_ntz', boolean: 'boolean',
  binary: 'binary', void: 'void', null: 'void',
};

/**
 * Converts a Spark schema-JSON data type (as in `df.schema.json()`) to Spark's simpleString.
 * @throws Error for an unknown type (the caller wraps it in an InputError naming the file).
 */
export function sparkJsonTypeToString(t: unknown): string {
  if (typeof t === 'string') {
    if (JSON_ATOMIC[t]) return JSON_ATOMIC[t];
    const dec = /^decimal\((\d+),\s*(\d+)\)$/.exec(t);
    if (dec) return `decimal(${dec[1]},${dec[2]})`;
    if (t === 'decimal') return 'decimal(10,0)';
    // Other atomic types (char/varchar, intervals, variant, ...) keep Spark's own name: they
    // compare by name, and their values fall back to Arrow's JSON form.
    return t;
  }
  const o = t as Record<string, unknown>;
  if (o && o.type === 'array') return `array<${sparkJsonTypeToString(o.elementType)}>`;
  if (o && o.type === 'map') return `map<${sparkJsonTypeToString(o.keyType)},${sparkJsonTypeToString(o.valueType)}>`;
  if (o && o.type === 'struct' && Array.isArray(o.fields)) {
    return `struct<${(o.fields as Record<string, unknown>[]).map((f) => `${String(f.name)}:${sparkJsonTypeToString(f.type)}`).join(',')}>`;
  }
  if (o && typeof o === 'object' && typeof o.type === 'string') return JSON.stringify(o);
  throw new Error(`unknown Spark type ${JSON.stringify(t)}`);
}

/**
 * Parses the text of a Spark schema JSON (`df.schema.json()`) into columns.
 * @throws InputError naming `file` and the field when the JSON is not a struct schema.
 */
export function parseSparkSchema(text: string, file: string): TableColumn[] {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (e) {
    throw new InputError(`not valid JSON: ${(e as Error).message}`, file);
  }
  const o = obj as { type?: unknown; fields?: unknown };
  if (!o || o.type !== 'struct' || !Array.isArray(o.fields)) throw new InputError('expected a Spark struct schema {"type":"struct","fields":[...]}', file, 'fields');
  return (o.fields as Record<string, unknown>[]).map((f, i) => {
    if (typeof f.name !== 'string') throw new InputError('field without a string name', file, `fields[${i}].name`);
    let type: string;
    try {
      type = sparkJsonTypeToString(f.type);
    } catch (e) {
      throw new InputError((e as Error).message, file, `fields[${i}].type`);
    }
    return { name: f.name, type, nullable: f.nullable !== false };
  });
}

/**
 * Derives the Spark type of an Arrow type, as Spark's own Arrow conversion maps them.
 * @throws Error for an Arrow type Spark has no counterpart for.
 */
export function sparkTypeOfArrow(t: DataType): string {
  if (DataType.isInt(t)) return ({ 8: 'tinyint', 16: 'smallint', 32: 'int', 64: 'bigint' } as Record<number, string>)[t.bitWidth];
  if (DataType.isFloat(t)) return t.precision === 2 ? 'double' : 'float';
  if (DataType.isDecimal(t)) return `decimal(${t.precision},${t.scale})`;
  if (DataType.isDate(t)) return 'date';
  if (DataType.isTimestamp(t)) return t.timezone ? 'timestamp' : 'timestamp_ntz';
  if (DataType.isUtf8(t) || DataType.isLargeUtf8(t)) return 'string';
  if (DataType.isBool(t)) return 'boolean';
  if (DataType.isBinary(t) || DataType.isLargeBinary(t)) return 'binary';
  if (DataType.isNull(t)) return 'void';
  if (DataType.isList(t)) return `array<${sparkTypeOfArrow(t.children[0].type)}>`;
  if (DataType.isStruct(t)) return `struct<${t.children.map((c) => `${c.name}:${sparkTypeOfArrow(c.type)}`).join(',')}>`;
  throw new Error(`Arrow type ${String(t)} has no Spark counterpart`);
}

/** Formats an unscaled decimal integer with `scale` fraction digits: (-310n, 2) -> "-3.10". */
export function formatDecimal(unscaled: bigint, scale: number): string {
  const neg = unscaled < 0n;
  let digits = (neg ? -unscaled : unscaled).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    digits = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  }
  return neg ? `-${digits}` : digits;
}

/** Days since 1970-01-01 -> "YYYY-MM-DD" (proleptic Gregorian, as Arrow and Spark 3+). */
export function isoDay(days: number): string {
  return new Date(days * 86400000).toISOString().slice(0, 10);
}

/** Microseconds since the epoch -> "YYYY-MM-DDTHH:MM:SS.ffffff" (UTC). */
export function isoMicros(micros: bigint): string {
  const ms = micros / 1000n - (micros % 1000n < 0n ? 1n : 0n);
  const frac = ((micros % 1000000n) + 1000000n) % 1000000n;
  return `${new Date(Number(ms)).toISOString().slice(0, 19)}.${frac.toString().padStart(6, '0')}`;
}

type ArrowData = Vector['data'][number];

/** Reads the unscaled integer of a decimal slot (little-endian two's complement, 32/64/128/256 bits). */
function decimalUnscaled(d: ArrowData, i: number): bigint {
  const words = (d.type as { bitWidth: number }).bitWidth / 32;
  const vals = d.values as Uint32Array;
  const base = (d.offset + i) * words;
  let v = 0n;
  for (let w = words - 1; w >= 0; w--) v = (v << 32n) | BigInt(vals[base + w]);
  const bits = BigInt(words * 32);
  if (v >= 1n << (bits - 1n)) v -= 1n << bits;
  return v;
}

function isValid(d: ArrowData, i: number): boolean {
  if (d.type.typeId === 1) return false; // Arrow Null type
  if (!d.nullBitmap || d.nullBitmap.length === 0 || d.nullCount === 0) return true;
  const j = d.offset + i;
  return ((d.nullBitmap[j >> 3] >> (j & 7)) & 1) === 1;
}

function integerOf(d: ArrowData, i: number): bigint {
  const v = (d.values as ArrayLike<number | bigint>)[d.offset + i];
  return typeof v === 'bigint' ? v : BigInt(v);
}

function toMicros(d: ArrowData, i: number): bigint {
  const unit = (d.type as { unit: number }).unit; // 0 s, 1 ms, 2 us, 3 ns
  const v = integerOf(d, i);
  return unit === 0 ? v * 1000000n : unit === 1 ? v * 1000n : unit === 2 ? v : v / 1000n;
}

/**
 * Decodes one Arrow slot into the canonical cell of `sparkType`.
 * @throws Error when the Arrow type cannot carry `sparkType` (the caller names file and field).
 */
function decodeCell(vector: Vector, d: ArrowData, i: number, sparkType: string): Cell {
  if (!isValid(d, i)) return null;
  const t = d.type;
  const dec = parseDecimalType(sparkType);
  if (dec) {
    if (DataType.isDecimal(t)) {
      if (t.scale !== dec.scale) throw new Error(`Arrow decimal scale ${t.scale} differs from declared ${sparkType}`);
      return formatDecimal(decimalUnscaled(d, i), dec.scale);
    }
    if (DataType.isInt(t)) return formatDecimal(integerOf(d, i) * 10n ** BigInt(dec.scale), dec.scale);
    throw new Error(`Arrow type ${String(t)} cannot hold ${sparkType}`);
  }
  if (INTEGER_TYPES.has(sparkType)) {
    if (!DataType.isInt(t)) throw new Error(`Arrow type ${String(t)} cannot hold ${sparkType}`);
    const v = integerOf(d, i);
    return sparkType === 'bigint' ? v.toString() : Number(v);
  }
  if (FLOAT_TYPES.has(sparkType)) {
    if (!DataType.isFloat(t)) throw new Error(`Arrow type ${String(t)} cannot hold ${sparkType}`);
    if (t.precision === 0) return Number(vector.get(i)); // half float: let Arrow decode it
    return Number((d.values as Float32Array | Float64Array)[d.offset + i]);
  }
  if (sparkType === 'date') {
    if (!DataType.isDate(t)) throw new Error(`Arrow type ${String(t)} cannot hold date`);
    return t.unit === 0 ? isoDay(Number(integerOf(d, i))) : isoDay(Math.floor(Number(integerOf(d, i)) / 86400000));
  }
  if (sparkType === 'timestamp' || sparkType === 'timestamp_ntz') {
    if (!DataType.isTimestamp(t)) throw new Error(`Arrow type ${String(t)} cannot hold ${sparkType}`);
    return isoMicros(toMicros(d, i));
  }
  if (sparkType === 'string' || /^(var)?char\(/.test(sparkType)) {
    if (DataType.isDictionary(t) && (DataType.isUtf8(t.dictionary) || DataType.isLargeUtf8(t.dictionary))) return vector.get(i) as string;
    if (!(DataType.isUtf8(t) || DataType.isLargeUtf8(t))) throw new Error(`Arrow type ${String(t)} cannot hold ${sparkType}`);
    return vector.get(i) as string;
  }
  if (sparkType === 'boolean') {
    if (!DataType.isBool(t)) throw new Error(`Arrow type ${String(t)} cannot hold boolean`);
    return Boolean(vector.get(i));
  }
  if (sparkType === 'binary') return Buffer.from(vector.get(i) as Uint8Array).toString('base64');
  const v = vector.get(i) as { toJSON?: () => unknown } | unknown;
  return JSON.stringify(v && typeof (v as { toJSON?: unknown }).toJSON === 'function' ? (v as { toJSON: () => unknown }).toJSON() : v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
}

/**
 * Converts an Arrow table into the plain model, with Spark types from `columns` (positional),
 * or derived from the Arrow schema when `columns` is undefined.
 * @throws InputError naming `source` and the field when the Arrow and Spark schemas disagree.
 */
export function plainFromArrow(table: Table, source: string, columns?: TableColumn[], schemaSource: PlainTable['schemaSource'] = 'schema.json'): PlainTable {
  const fields = table.schema.fields;
  let cols: TableColumn[];
  if (columns) {
    if (columns.length !== fields.length) {
      throw new InputError(`the Arrow data has ${fields.length} columns but the Spark schema declares ${columns.length}`, source, 'schema');
    }
    const j = columns.findIndex((c, k) => c.name !== fields[k].name);
    if (j >= 0) throw new InputError(`column ${j + 1} is "${fields[j].name}" in the Arrow data but "${columns[j].name}" in the Spark schema`, source, 'schema');
    cols = columns;
  } else {
    cols = fields.map((f, j) => {
      try {
        return { name: f.name, type: sparkTypeOfArrow(f.type), nullable: f.nullable };
      } catch (e) {
        throw new InputError((e as Error).message, source, `columns[${j}] ${f.name}`);
      }
    });
    schemaSource = 'derived';
  }
  const n = table.numRows;
  const rows: Cell[][] = Array.from({ length: n }, () => new Array<Cell>(cols.length));
  for (let j = 0; j < cols.length; j++) {
    const vector = table.getChildAt(j);
    if (!vector) throw new InputError('missing column data', source, `columns[${j}]`);
    let r = 0;
    for (const d of vector.data) {
      const chunk = new Vector([d]);
      for (let i = 0; i < d.length; i++, r++) {
        try {
          rows[r][j] = decodeCell(chunk, d, i, cols[j].type);
        } catch (e) {
          throw new InputError((e as Error).message, source, `column ${cols[j].name}`);
        }
      }
    }
  }
  return { source, columns: cols, rows, schemaSource };
}

/**
 * Reads an Arrow IPC file (file or stream format) and, when given, the Spark schema JSON.
 * @param arrowFile path of `*.arrow`
 * @param schemaFile path of the Spark schema JSON; undefined derives Spark types from Arrow
 * @throws InputError naming the file when it is missing or unreadable.
 */
export function readArrowTable(arrowFile: string, schemaFile?: string): PlainTable {
  if (!fs.existsSync(arrowFile)) throw new InputError('file not found', arrowFile);
  let table: Table;
  try {
    table = tableFromIPC(fs.readFileSync(arrowFile));
  } catch (e) {
    throw new InputError(`not a readable Arrow IPC file: ${(e as Error).message}`, arrowFile);
  }
  if (table.schema.fields.length === 0 && fs.statSync(arrowFile).size > 0 && table.numRows === 0) {
    // tableFromIPC returns an empty table for garbage; reject files that are not Arrow at all.
    const head = fs.readFileSync(arrowFile).subarray(0, 6).toString('latin1');
    if (head !== 'ARROW1') throw new InputError('not a readable Arrow IPC file', arrowFile);
  }
  let columns: TableColumn[] | undefined;
  if (schemaFile) {
    if (!fs.existsSync(schemaFile)) throw new InputError('file not found', schemaFile);
    columns = parseSparkSchema(fs.readFileSync(schemaFile, 'utf8'), schemaFile);
  }
  return plainFromArrow(table, path.resolve(arrowFile), columns);
}
