/**
 * Variant databases (differential execution; activities/python/variants.py): built on a
 * fixture database of the 24 tables (200 rows each: a surrogate key, a business key, a value; the
 * fact table store_sales also a ticket number), without Spark. Checked: the key columns are never
 * NULLed, the changed cells are exactly the NULLs injected / the rows appended, fact tables are not
 * duplicated, the manifest is deterministic for a seed (same hash and file bytes in another home),
 * a finished variant is skipped, another seed gives another database.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { venvPython, variantsDir } from '../../activities/common/paths';
import { buildVariantDatabases } from '../../activities/data';
import { listVariants, variantReference } from '../../activities/data/variants';
import { VARIANT_NAMES } from '../../protocol/differential';

const SCALE = 0.5;
/** Totals for seed 7 on the fixture (see the first test). */
const NULLED_SEED7 = 371;
const APPENDED_SEED7 = 191;
/** Store lines echoed by crosschannel for seed 7 on the fixture (of the 137 eligible, at 5 %). */
const ECHOED_SEED7 = 7;
let homes: string[] = [];
const prevHome = process.env.LOCKIN_HOME;

/** Runs a Python snippet in the venv; returns its stdout parsed as JSON. */
function py(code: string, ...args: string[]): any {
  const r = spawnSync(venvPython(), ['-c', code, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

const FIXTURE = `
import hashlib, json, os, sys
import pyarrow as pa, pyarrow.parquet as pq
sys.path.insert(0, sys.argv[2])
from tables import TPCDS_TABLES
db = sys.argv[1]
tables = {}
for t in TPCDS_TABLES:
    cols = {t[:2] + "_sk": pa.array(range(200), pa.int32()), t[:2] + "_id": pa.array([f"ID{i:04d}" for i in range(200)]),
            "val": pa.array([i % 7 for i in range(200)], pa.int32())}
    if t == "store_sales":
        cols["ss_ticket_number"] = pa.array(range(1000, 1200), pa.int64())
        cols["ss_customer_sk"] = pa.array([None if i % 5 == 0 else 300 + i for i in range(200)], pa.int32())
        cols["ss_item_sk"] = pa.array([i % 50 for i in range(200)], pa.int32())
        cols["ss_sold_date_sk"] = pa.array([None if i % 7 == 0 else 2000 + i % 10 for i in range(200)], pa.int32())
    if t in ("web_sales", "catalog_sales"):
        p = t[0] + "s_"
        cols[p + "bill_customer_sk"] = pa.array([i for i in range(200)], pa.int32())
        cols[p + "item_sk"] = pa.array([i % 40 for i in range(200)], pa.int32())
        cols[p + "sold_date_sk"] = pa.array([1000 + i for i in range(200)], pa.int32())
        cols[p + "order_number"] = pa.array(range(5000, 5200), pa.int64())
    os.makedirs(os.path.join(db, t))
    path = os.path.join(db, t, "part-00000.parquet")
    pq.write_table(pa.table(cols), path)
    digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
    tables[t] = {"rows": 200, "schema": {"type": "struct", "fields": []}, "files": {"part-00000.parquet": digest}}
json.dump({"manifestHash": "fixture-manifest", "scale": 0.5, "generator": {"name": "fixture"}, "tables": tables}, open(os.path.join(db, "manifest.json"), "w"))
print("{}")
`;

const INSPECT = `
import json, os, sys
import pyarrow.parquet as pq
root = sys.argv[1]
out = {}
for v in sorted(os.listdir(root)):
    if v.startswith("."):
        continue
    for t in sorted(os.listdir(os.path.join(root, v))):
        if t == "manifest.json":
            continue
        tab = pq.read_table(os.path.join(root, v, t, "part-00000.parquet"))
        rows = [tuple(r.values()) for r in tab.to_pylist()]
        out[f"{v}/{t}"] = {"rows": tab.num_rows, "nulls": {c: tab.column(c).null_count for c in tab.column_names},
                           "extraAreCopies": all(r in rows[:200] for r in rows[200:])}
print(json.dumps(out))
`;

function newHome(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-variants-'));
  homes.push(home);
  py(FIXTURE, path.join(home, 'data', 'tpcds', `sf${SCALE}`), path.join(__dirname, '..', '..', 'activities', 'python'));
  process.env.LOCKIN_HOME = home;
  return home;
}

const manifest = (variant: string) => JSON.parse(fs.readFileSync(path.join(variantsDir(SCALE), variant, 'manifest.json'), 'utf8'));

beforeAll(() => {
  process.env.LOCKIN_DATA_QUIET = '1';
});

afterAll(() => {
  if (prevHome === undefined) delete process.env.LOCKIN_HOME;
  else process.env.LOCKIN_HOME = prevHome;
  for (const h of homes) fs.rmSync(h, { recursive: true, force: true });
  homes = [];
});

test('nulls: only non-key cells become NULL, and the manifest counts exactly those; dupdims: dimension rows appended as exact copies, fact tables unchanged', async () => {
  newHome();
  const res = await buildVariantDatabases({ scale: SCALE, seed: 7 });
  expect(res.seed).toBe(7);
  expect(res.variants.map((v) => [v.variant, v.skipped])).toEqual([['nulls', false], ['dupdims', false], ['crosschannel', false]]);
  const seen = py(INSPECT, variantsDir(SCALE));
  const nulls = manifest('nulls');
  const dup = manifest('dupdims');
  expect(nulls.seed).toBe(7);
  expect(nulls.params).toEqual({ fraction: 0.08, exceptTables: ['date_dim', 'time_dim'] });
  expect(dup.params).toEqual({ fraction: 0.06 });
  expect(nulls.source).toEqual({ manifestHash: 'fixture-manifest', scale: 0.5, generator: { name: 'fixture' } });
  let nulled = 0;
  for (const [t, rec] of Object.entries<any>(nulls.tables)) {
    const s = seen[`nulls/${t}`];
    expect(s.rows).toBe(200);
    expect(s.nulls[`${t.slice(0, 2)}_sk`]).toBe(0);
    expect(s.nulls[`${t.slice(0, 2)}_id`]).toBe(0);
    if (t === 'store_sales') expect(s.nulls.ss_ticket_number).toBe(0);
    expect(rec.changedCells).toBe(s.nulls.val);
    if (t === 'date_dim' || t === 'time_dim') expect(rec.changedCells).toBe(0);
    expect(rec.nulledCells).toEqual(s.nulls.val ? { val: s.nulls.val } : {});
    nulled += s.nulls.val;
  }
  let appended = 0;
  const facts = ['store_sales', 'store_returns', 'catalog_sales', 'catalog_returns', 'web_sales', 'web_returns', 'inventory'];
  for (const [t, rec] of Object.entries<any>(dup.tables)) {
    const s = seen[`dupdims/${t}`];
    expect(s.rows).toBe(200 + rec.duplicatedRows);
    expect(rec.rows).toBe(s.rows);
    expect(rec.changedCells).toBe(rec.duplicatedRows * 3);
    expect(s.extraAreCopies).toBe(true);
    if (facts.includes(t)) expect(rec.duplicatedRows).toBe(0);
    appended += rec.duplicatedRows;
  }
  // Exact totals for seed 7 on this fixture (22 x 200 value cells at 8 %: the calendar tables are left whole; 17 x 200 dimension rows at 6 %).
  expect(nulled).toBe(NULLED_SEED7);
  expect(appended).toBe(APPENDED_SEED7);
  expect(res.variants[0].changedCells).toBe(nulled);
  const listed = listVariants(SCALE);
  expect(listed.map((v) => [v.name, v.seed, v.references])).toEqual([['crosschannel', 7, null], ['dupdims', 7, null], ['nulls', 7, null]].sort((a, b) => VARIANT_NAMES.indexOf(a[0] as never) - VARIANT_NAMES.indexOf(b[0] as never)));
  expect(variantReference(listed[0], 'q3')).toEqual({ status: 'missing' });
});

const ECHOES = `
import json, sys
import pyarrow.parquet as pq
root = sys.argv[1]
store = pq.read_table(f"{root}/crosschannel/store_sales/part-00000.parquet").to_pylist()
keys = {(r["ss_customer_sk"], r["ss_item_sk"], r["ss_sold_date_sk"]) for r in store}
out = {}
for t, p in (("web_sales", "ws_"), ("catalog_sales", "cs_")):
    rows = pq.read_table(f"{root}/crosschannel/{t}/part-00000.parquet").to_pylist()
    extra = rows[200:]
    out[t] = {"rows": len(rows),
              "echoKeys": sorted((r[p + "bill_customer_sk"], r[p + "item_sk"], r[p + "sold_date_sk"]) for r in extra),
              "allFromStore": all((r[p + "bill_customer_sk"], r[p + "item_sk"], r[p + "sold_date_sk"]) in keys for r in extra),
              "orders": [r[p + "order_number"] for r in extra]}
print(json.dumps(out))
`;

test('crosschannel: store lines with a customer and a date echoed into web_sales and catalog_sales (the same picks), new order numbers; every other table unchanged', async () => {
  newHome();
  const res = await buildVariantDatabases({ scale: SCALE, seed: 7, variants: ['crosschannel'] });
  expect(res.variants.map((v) => [v.variant, v.skipped])).toEqual([['crosschannel', false]]);
  const m = manifest('crosschannel');
  expect(m.params).toEqual({ fraction: 0.05 });
  const echoed = m.tables.web_sales.echoedRows;
  // 200 store lines, 137 with a customer and a date (i % 5 != 0 and i % 7 != 0), each at 5 %.
  expect(echoed).toBe(ECHOED_SEED7);
  expect(m.tables.catalog_sales.echoedRows).toBe(echoed);
  for (const [t, rec] of Object.entries<any>(m.tables)) {
    if (t === 'web_sales' || t === 'catalog_sales') expect([rec.rows, rec.changedCells]).toEqual([200 + echoed, echoed * 7]);
    else expect([t, rec.rows, rec.changedCells]).toEqual([t, 200, 0]);
  }
  const seen = py(ECHOES, variantsDir(SCALE));
  for (const t of ['web_sales', 'catalog_sales']) {
    expect(seen[t].rows).toBe(200 + echoed);
    expect(seen[t].allFromStore).toBe(true);
    expect(seen[t].orders).toEqual(Array.from({ length: echoed }, (_, i) => 5200 + i));
  }
  expect(seen.web_sales.echoKeys).toEqual(seen.catalog_sales.echoKeys);
  expect(seen.web_sales.echoKeys.every((k: (number | null)[]) => k[0] !== null && k[2] !== null)).toBe(true);
});

test('deterministic for a seed: another home gives the same manifest hash and file bytes; a finished variant is skipped; another seed differs', async () => {
  newHome();
  const first = await buildVariantDatabases({ scale: SCALE, seed: 7 });
  const again = await buildVariantDatabases({ scale: SCALE, seed: 7, variants: ['nulls'] });
  expect(again.variants.map((v) => [v.variant, v.skipped, v.manifestHash])).toEqual([['nulls', true, first.variants[0].manifestHash]]);
  const a = { nulls: manifest('nulls'), dupdims: manifest('dupdims') };
  newHome();
  const second = await buildVariantDatabases({ scale: SCALE, seed: 7 });
  expect(second.variants.map((v) => v.manifestHash)).toEqual(first.variants.map((v) => v.manifestHash));
  expect({ nulls: manifest('nulls'), dupdims: manifest('dupdims') }).toEqual(a);
  const other = await buildVariantDatabases({ scale: SCALE, seed: 8, variants: ['nulls'] });
  expect(other.variants[0].skipped).toBe(false);
  expect(other.variants[0].manifestHash).not.toBe(first.variants[0].manifestHash);
  expect(manifest('nulls').seed).toBe(8);
});

test('clear errors: an unknown variant, a missing study database', async () => {
  newHome();
  await expect(buildVariantDatabases({ scale: SCALE, variants: ['typos'] })).rejects.toThrow(/unknown variant\(s\) typos \(known: nulls, dupdims, crosschannel\)/);
  await expect(buildVariantDatabases({ scale: 0.25 })).rejects.toThrow(/no study database at .*sf0\.25/);
});
