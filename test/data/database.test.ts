/**
 * The small study database (SF=0.01): typed schemas equal docs/tpcds-types.md column for column,
 * manifest row counts, and the analysis check of all 103 variants.
 * First run builds the database (see test/support/database.ts); later runs reuse it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ensureTestDatabase, TEST_SPARK_SETTINGS, type TestDatabase } from '../support/database';
import { analyzeQueries, verifyDatabase } from '../../activities/data';
import execa from 'execa';
import { pythonDir, venvPython } from '../../activities/common/paths';

let db: TestDatabase;
let manifest: any;

/** Runs `fn` with LOCKIN_HOME pointing at the test database's home. */
async function inHome<T>(fn: () => Promise<T>): Promise<T> {
  const prev = process.env.LOCKIN_HOME;
  process.env.LOCKIN_HOME = db.home;
  try {
    return await fn();
  } finally {
    if (prev === undefined) delete process.env.LOCKIN_HOME;
    else process.env.LOCKIN_HOME = prev;
  }
}

beforeAll(async () => {
  process.env.LOCKIN_DATA_QUIET = '1';
  db = await ensureTestDatabase(0.01);
  manifest = JSON.parse(fs.readFileSync(path.join(db.dbDir, 'manifest.json'), 'utf8'));
}, 45 * 60_000);

function columns(table: string): [string, string][] {
  return manifest.tables[table].schema.fields.map((f: { name: string; type: string }) => [f.name, f.type]);
}

// Spark schema JSON type names: int -> "integer", bigint -> "long".
const I = 'integer';
const L = 'long';
const S = 'string';
const D = 'date';
const M = 'decimal(7,2)';
const P = 'decimal(5,2)';

test('store: every column has the docs/tpcds-types.md type (decimal(5,2) gmt offset and s_tax_precentage)', () => {
  expect(columns('store')).toEqual([
    ['s_store_sk', I], ['s_store_id', S], ['s_rec_start_date', D], ['s_rec_end_date', D], ['s_closed_date_sk', I],
    ['s_store_name', S], ['s_number_employees', I], ['s_floor_space', I], ['s_hours', S], ['s_manager', S],
    ['s_market_id', I], ['s_geography_class', S], ['s_market_desc', S], ['s_market_manager', S], ['s_division_id', I],
    ['s_division_name', S], ['s_company_id', I], ['s_company_name', S], ['s_street_number', S], ['s_street_name', S],
    ['s_street_type', S], ['s_suite_number', S], ['s_city', S], ['s_county', S], ['s_state', S], ['s_zip', S],
    ['s_country', S], ['s_gmt_offset', P], ['s_tax_precentage', P],
  ]);
});

test('store_returns: keys int, the ticket number bigint, money decimal(7,2)', () => {
  expect(columns('store_returns')).toEqual([
    ['sr_returned_date_sk', I], ['sr_return_time_sk', I], ['sr_item_sk', I], ['sr_customer_sk', I], ['sr_cdemo_sk', I],
    ['sr_hdemo_sk', I], ['sr_addr_sk', I], ['sr_store_sk', I], ['sr_reason_sk', I], ['sr_ticket_number', L],
    ['sr_return_quantity', I], ['sr_return_amt', M], ['sr_return_tax', M], ['sr_return_amt_inc_tax', M], ['sr_fee', M],
    ['sr_return_ship_cost', M], ['sr_refunded_cash', M], ['sr_reversed_charge', M], ['sr_store_credit', M], ['sr_net_loss', M],
  ]);
});

test('customer: c_last_review_date (the v1.4 query name) replaces c_last_review_date_sk', () => {
  expect(columns('customer')).toEqual([
    ['c_customer_sk', I], ['c_customer_id', S], ['c_current_cdemo_sk', I], ['c_current_hdemo_sk', I], ['c_current_addr_sk', I],
    ['c_first_shipto_date_sk', I], ['c_first_sales_date_sk', I], ['c_salutation', S], ['c_first_name', S], ['c_last_name', S],
    ['c_preferred_cust_flag', S], ['c_birth_day', I], ['c_birth_month', I], ['c_birth_year', I], ['c_birth_country', S],
    ['c_login', S], ['c_email_address', S], ['c_last_review_date', I],
  ]);
});

test('promotion: p_cost is decimal(15,2)', () => {
  expect(columns('promotion')).toEqual([
    ['p_promo_sk', I], ['p_promo_id', S], ['p_start_date_sk', I], ['p_end_date_sk', I], ['p_item_sk', I],
    ['p_cost', 'decimal(15,2)'], ['p_response_target', I], ['p_promo_name', S], ['p_channel_dmail', S], ['p_channel_email', S],
    ['p_channel_catalog', S], ['p_channel_tv', S], ['p_channel_radio', S], ['p_channel_press', S], ['p_channel_event', S],
    ['p_channel_demo', S], ['p_channel_details', S], ['p_purpose', S], ['p_discount_active', S],
  ]);
});

test('only the six ticket/order numbers are bigint, across all 24 tables', () => {
  const bigints = Object.keys(manifest.tables)
    .flatMap((t) => columns(t).filter(([, ty]) => ty === L).map(([n]) => n))
    .sort();
  expect(Object.keys(manifest.tables)).toHaveLength(24);
  expect(bigints).toEqual(['cr_order_number', 'cs_order_number', 'sr_ticket_number', 'ss_ticket_number', 'wr_order_number', 'ws_order_number']);
});

test('manifest: generator, scale, row counts and a verifiable manifest hash', async () => {
  expect(manifest.generator).toEqual({ name: 'tpcgen-cli', version: '4.0.0', flags: ['tpcds', 'parquet', '--compat', 'c', '-s', '0.01'] });
  expect(manifest.scale).toBe(0.01);
  expect(manifest.tables.date_dim.rows).toBe(73049);
  expect(manifest.tables.time_dim.rows).toBe(86400);
  expect(manifest.tables.customer_demographics.rows).toBe(1920800);
  expect(manifest.tables.store_sales.rows).toBe(120527);
  expect(manifest.tables.reason.rows).toBe(75);
  expect(manifest.sparkSettings).toEqual(TEST_SPARK_SETTINGS);
  const verified = await inHome(() => verifyDatabase({ scale: 0.01 }));
  expect(verified.manifestHash).toBe(db.manifestHash);
});

test('all 103 query variants pass Spark analysis on the loaded tables', async () => {
  const res = await inHome(() => analyzeQueries({ scale: 0.01, settings: TEST_SPARK_SETTINGS }));
  expect(res.failed).toEqual([]);
  expect(res.source).toBe('spark-tests-jar');
  expect(res.passed).toBe(103);
  expect(res.columns.q1).toBe(1);
  expect(res.columns.q66).toBe(44);
  // Recorded for this database, texts and settings: the next call reads it instead of rerunning
  // (a marked record comes back as is).
  const file = path.join(db.dbDir, 'analysis.json');
  const rec = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(rec.key).toMatch(/^[0-9a-f]{64}$/);
  expect(rec.result.passed).toBe(103);
  fs.writeFileSync(file, JSON.stringify({ key: rec.key, result: { ...rec.result, columns: { ...rec.result.columns, q1: 99 } } }));
  try {
    expect((await inHome(() => analyzeQueries({ scale: 0.01, settings: TEST_SPARK_SETTINGS }))).columns.q1).toBe(99);
  } finally {
    fs.writeFileSync(file, JSON.stringify(rec));
  }
}, 20 * 60_000);

test('load_tables reads each table with its recorded schema: the same schema and rows as Spark infers; no manifest = inferred', async () => {
  const code = `
import json, os, shutil, sys, tempfile
from spark_session import build_session
from tables import load_tables, recorded_schemas, TPCDS_TABLES
db = sys.argv[1]
spark = build_session(json.loads(sys.argv[2]), "lockin-test-tables")
given = load_tables(spark, db, register_views=False)
same = [n for n in TPCDS_TABLES if spark.read.parquet(os.path.join(db, n)).schema == given[n].schema]
counts = {n: given[n].count() for n in ("store", "date_dim", "store_sales")}
# A folder without manifest.json records no schema: load_tables then lets Spark infer each table.
bare = tempfile.mkdtemp()
print(json.dumps({"recorded": len(recorded_schemas(db)), "same": len(same), "counts": counts, "bare": recorded_schemas(bare)}))
spark.stop()
`;
  const res = await execa(venvPython(), ['-c', code, db.dbDir, JSON.stringify(TEST_SPARK_SETTINGS)], { env: { ...process.env, PYTHONPATH: pythonDir() } });
  const out = JSON.parse(res.stdout.trim().split('\n').pop() as string);
  const manifest = JSON.parse(fs.readFileSync(path.join(db.dbDir, 'manifest.json'), 'utf8'));
  expect(out).toEqual({ recorded: 24, same: 24, counts: { store: manifest.tables.store.rows, date_dim: manifest.tables.date_dim.rows, store_sales: manifest.tables.store_sales.rows }, bare: {} });
}, 300_000);
