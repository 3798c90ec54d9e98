/**
 * Spark schema helpers for the corpus checks: Spark's StructType JSON (what `df.schema.json()`
 * writes to a reference's schema.json and to the database manifest) read as the SQL type names
 * task.yaml uses, and the TPC-DS column-type rules of docs/tpcds-types.md used by the scaffold.
 */
import { z } from 'zod';

/** One column as task.yaml writes it. */
export interface ColumnType {
  name: string;
  type: string;
  nullable: boolean;
}

const StructField = z.object({ name: z.string(), type: z.unknown(), nullable: z.boolean().optional() });
const StructType = z.object({ type: z.literal('struct'), fields: z.array(StructField) });

/** Spark JSON type names -> the SQL type names task.yaml uses. */
const JSON_TO_SQL: Record<string, string> = {
  integer: 'int',
  long: 'bigint',
  short: 'smallint',
  byte: 'tinyint',
  double: 'double',
  float: 'float',
  string: 'string',
  date: 'date',
  timestamp: 'timestamp',
  boolean: 'boolean',
};

/**
 * Converts one Spark JSON type to a SQL type name: "integer" -> "int", "long" -> "bigint",
 * "decimal(7,2)" -> "decimal(7,2)"; SQL names pass through unchanged ("int" -> "int").
 * Nested types render as their JSON text (they never match a task.yaml type).
 */
export function sparkJsonTypeToSql(t: unknown): string {
  if (typeof t === 'string') {
    const dec = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(t);
    if (dec) return `decimal(${dec[1]},${dec[2]})`;
    if (t === 'decimal') return 'decimal(10,0)';
    return JSON_TO_SQL[t] ?? t;
  }
  return JSON.stringify(t);
}

/**
 * Reads a Spark StructType JSON value ({"type":"struct","fields":[...]}) as columns.
 * Also accepts a plain array of {name, type, nullable}.
 * Returns null when the value has neither shape.
 */
export function structColumns(value: unknown): ColumnType[] | null {
  const s = StructType.safeParse(value);
  if (s.success) return s.data.fields.map((f) => ({ name: f.name, type: sparkJsonTypeToSql(f.type), nullable: f.nullable ?? true }));
  const arr = z.array(StructField).safeParse(value);
  if (arr.success) return arr.data.map((f) => ({ name: f.name, type: sparkJsonTypeToSql(f.type), nullable: f.nullable ?? true }));
  return null;
}

/**
 * Reads the database manifest (databaseDir(S)/manifest.json) as {table: columns}.
 * Accepted shapes (the data engineer's manifest, per table the Spark schema):
 *   {tables: {<name>: {schema: StructType | columns: [...] , ...}}}, {tables: [{name, schema|columns}]},
 *   or {tables: {<name>: StructType}}.
 * Returns an empty map when no table schema can be read.
 */
export function manifestTables(manifest: unknown): Map<string, ColumnType[]> {
  const out = new Map<string, ColumnType[]>();
  if (!manifest || typeof manifest !== 'object') return out;
  const tables = (manifest as Record<string, unknown>).tables;
  const take = (name: string, v: unknown) => {
    if (!v || typeof v !== 'object') return;
    const rec = v as Record<string, unknown>;
    const cols = structColumns(rec.schema) ?? structColumns(rec.sparkSchema) ?? structColumns(rec.columns) ?? structColumns(v);
    if (cols) out.set(name, cols);
  };
  if (Array.isArray(tables)) {
    for (const t of tables) if (t && typeof t === 'object' && typeof (t as { name?: unknown }).name === 'string') take((t as { name: string }).name, t);
  } else if (tables && typeof tables === 'object') {
    for (const [name, v] of Object.entries(tables as Record<string, unknown>)) take(name, v);
  }
  return out;
}

/**
 * The TPC-DS primary keys (TPC-DS specification §2: each dimension's surrogate key; the fact
 * tables' composite keys). Used for nullability: a `*_sk` column in its table's primary key is
 * NOT NULL, every other column is nullable (corpus convention, tasks/README.md).
 */
export const TPCDS_PRIMARY_KEYS: Record<string, string[]> = {
  call_center: ['cc_call_center_sk'],
  catalog_page: ['cp_catalog_page_sk'],
  catalog_returns: ['cr_item_sk', 'cr_order_number'],
  catalog_sales: ['cs_item_sk', 'cs_order_number'],
  customer: ['c_customer_sk'],
  customer_address: ['ca_address_sk'],
  customer_demographics: ['cd_demo_sk'],
  date_dim: ['d_date_sk'],
  household_demographics: ['hd_demo_sk'],
  income_band: ['ib_income_band_sk'],
  inventory: ['inv_date_sk', 'inv_item_sk', 'inv_warehouse_sk'],
  item: ['i_item_sk'],
  promotion: ['p_promo_sk'],
  reason: ['r_reason_sk'],
  ship_mode: ['sm_ship_mode_sk'],
  store: ['s_store_sk'],
  store_returns: ['sr_item_sk', 'sr_ticket_number'],
  store_sales: ['ss_item_sk', 'ss_ticket_number'],
  time_dim: ['t_time_sk'],
  warehouse: ['w_warehouse_sk'],
  web_page: ['wp_web_page_sk'],
  web_returns: ['wr_item_sk', 'wr_order_number'],
  web_sales: ['ws_item_sk', 'ws_order_number'],
  web_site: ['web_site_sk'],
};

/** The corpus nullability rule: NOT NULL iff the column ends in `_sk` and is in its table's primary key. */
export function conventionNullable(table: string, column: string): boolean {
  return !(column.endsWith('_sk') && (TPCDS_PRIMARY_KEYS[table] ?? []).includes(column));
}

const BIGINT_COLUMNS = new Set([
  'ss_ticket_number', 'sr_ticket_number', 'cs_order_number', 'cr_order_number', 'ws_order_number', 'wr_order_number',
]);
const DECIMAL_5_2 = new Set(['cc_tax_percentage', 'web_tax_percentage', 's_tax_precentage']);

/**
 * The Spark type of a TPC-DS column by the rules of docs/tpcds-types.md, given the generator's
 * Arrow type string (pyarrow `str(field.type)`, e.g. "int32", "decimal128(7, 2)", "date32[day]",
 * "string_view"). Returns the SQL type name.
 */
export function tpcdsSparkType(column: string, arrowType: string): string {
  if (column.endsWith('_sk')) return 'int';
  if (BIGINT_COLUMNS.has(column)) return 'bigint';
  if (column.endsWith('_gmt_offset') || DECIMAL_5_2.has(column)) return 'decimal(5,2)';
  if (column === 'p_cost') return 'decimal(15,2)';
  const dec = /^decimal(?:128|256)?\((\d+),\s*(\d+)\)$/.exec(arrowType);
  if (dec) return `decimal(${dec[1]},${dec[2]})`;
  if (/^date/.test(arrowType)) return 'date';
  if (/^u?int(8|16|32|64)$/.test(arrowType)) return 'int';
  if (/^(double|float64)$/.test(arrowType)) return 'double';
  if (/^(float|float32)$/.test(arrowType)) return 'float';
  if (/^bool/.test(arrowType)) return 'boolean';
  return 'string';
}

/** The name a column has in the loaded table (docs/tpcds-types.md naming trap: c_last_review_date_sk -> c_last_review_date). */
export function loadedColumnName(table: string, column: string): string {
  return table === 'customer' && column === 'c_last_review_date_sk' ? 'c_last_review_date' : column;
}
