/**
 * The references at SF=0.01: stored as Arrow IPC + Parquet + schema JSON, listed in
 * references.json, and reproduced by re-execution in a fresh Spark session
 * (docs/protocol.md §4, SQL re-execution).
 *
 * Known finding at this scale: q12 cannot be built under the study's ANSI mode. Its class
 * 'mystery' has zero web revenue in the 30-day window at SF=0.01 (and 0.02), so
 * `sum(...) * 100 / sum(sum(...)) OVER (PARTITION BY i_class)` divides by zero
 * (DIVIDE_BY_ZERO). The other 32 are built and must reproduce.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ensureTestDatabase, TEST_SPARK_SETTINGS, type TestDatabase } from '../support/database';
import { buildReferences, reexecuteReferences, reproduceReferences } from '../../activities/data';
import { REFERENCE_INVENTORY } from '../../protocol/corpus';

let db: TestDatabase;
let index: any;

beforeAll(async () => {
  process.env.LOCKIN_DATA_QUIET = '1';
  db = await ensureTestDatabase(0.01);
  index = JSON.parse(fs.readFileSync(path.join(db.referencesDir, 'references.json'), 'utf8'));
}, 45 * 60_000);

const BUILT = REFERENCE_INVENTORY.filter((id) => id !== 'q12');
/**
 * Re-executed by default (kept small for the npm test budget): a correlated subquery (q1), doubles
 * from stddev (q17), ROLLUP with GROUPING and a window (q36), EXISTS / NOT EXISTS (q94). All 32 with
 * LOCKIN_DATA_FULL=1; the main job re-executes all 33 at SF=1.
 */
const REPRODUCED = process.env.LOCKIN_DATA_FULL === '1' ? BUILT : ['q1', 'q17', 'q36', 'q94'];

test('references.json lists the inventory, built on this database; q12 fails under ANSI at SF=0.01', () => {
  expect(db.failed.map((f) => f.id)).toEqual(['q12']);
  expect(db.failed[0].error).toMatch(/^\[DIVIDE_BY_ZERO\]/);
  expect(Object.keys(index.variants).sort()).toEqual([...BUILT].sort());
  expect(Object.keys(index.variants)).toHaveLength(32);
  expect(index.manifestHash).toBe(db.manifestHash);
  expect(index.querySource).toBe('spark-tests-jar');
  expect(index.sparkSettings).toEqual(TEST_SPARK_SETTINGS);
});

test('each reference folder holds reference.arrow, reference.parquet and schema.json', () => {
  for (const id of BUILT) {
    const dir = path.join(db.referencesDir, id);
    for (const f of ['reference.arrow', 'reference.parquet', 'schema.json']) expect(fs.existsSync(path.join(dir, f))).toBe(true);
    const schema = JSON.parse(fs.readFileSync(path.join(dir, 'schema.json'), 'utf8'));
    expect(schema).toEqual(index.variants[id].schema);
    expect(index.variants[id].contentHash).toMatch(/^[0-9a-f]{64}$/);
  }
  // Known shapes: q1 returns c_customer_id only and is capped by LIMIT 100.
  expect(index.variants.q1.schema.fields.map((f: { name: string }) => f.name)).toEqual(['c_customer_id']);
  expect(index.variants.q1.rows).toBe(100);
});

test('re-execution in a fresh session reproduces every re-run variant (schema + multiset, hash and comparator); an attempt cut short is resumed, not redone', async () => {
  const prev = process.env.LOCKIN_HOME;
  process.env.LOCKIN_HOME = db.home;
  const study = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-reexec-'));
  const outFile = path.join(study, 'reproduce.json');
  const partial = `${outFile}.partial`;
  try {
    // What an earlier attempt finished before it was killed: q3 and q7 (their outputs in candidate
    // form, results with a marker time), a line from another database and a torn last line.
    for (const id of ['q3', 'q7']) {
      fs.mkdirSync(path.join(partial, id), { recursive: true });
      fs.copyFileSync(path.join(db.referencesDir, id, 'reference.arrow'), path.join(partial, id, 'output.arrow'));
      fs.copyFileSync(path.join(db.referencesDir, id, 'schema.json'), path.join(partial, id, 'schema.json'));
    }
    const line = (id: string, manifestHash: string) => JSON.stringify({ id, reproduced: true, reason: 'earlier attempt', seconds: 999, querySource: 'spark-tests-jar', manifestHash });
    fs.writeFileSync(path.join(partial, 'results.jsonl'), `${line('q3', db.manifestHash)}\n${line('q7', db.manifestHash)}\n${line('q1', 'another-database')}\n{"id": "q17", "repr`);
    const ids = [...REPRODUCED, 'q3', 'q7'];
    const res = await reproduceReferences({ scale: 0.01, settings: TEST_SPARK_SETTINGS, ids, resume: { dir: partial, manifestHash: db.manifestHash } });
    expect(res.resumed).toBe(2);
    expect(res.results.map((r) => r.id)).toEqual(ids);
    expect(res.results.filter((r) => !r.reproduced)).toEqual([]);
    expect(res.results.every((r) => r.comparator?.agree === true)).toBe(true);
    // Each query run now records its output's row count (Table V marks an empty reference); the resumed lines had none.
    expect(res.results.map((r) => r.rows)).toEqual([...REPRODUCED.map((id) => index.variants[id].rows), undefined, undefined]);
    expect([res.reproduced, res.total]).toEqual([ids.length, ids.length]);
    // Only the four not finished earlier ran (the marker time is kept for the two resumed) ...
    expect(res.results.map((r) => r.seconds === 999)).toEqual([...REPRODUCED.map(() => false), true, true]);
    // ... and each was recorded as it finished, with this database's hash.
    const lines = fs.readFileSync(path.join(partial, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l); } catch { return null; } }).filter(Boolean);
    expect(lines.filter((l) => l.manifestHash === db.manifestHash).map((l) => l.id).sort()).toEqual([...ids].sort());
    // The activity, resumed with everything finished: no Spark, the result recorded, the partial folder gone.
    const act = await reexecuteReferences({ scale: 0.01, settings: TEST_SPARK_SETTINGS, outFile, ids });
    expect(act).toEqual({ reproduced: ids.length, total: ids.length, recordedEarlier: false, resumed: ids.length });
    expect(fs.existsSync(partial)).toBe(false);
    expect(JSON.parse(fs.readFileSync(outFile, 'utf8'))).toMatchObject({ reproduced: ids.length, total: ids.length, databaseManifestHash: db.manifestHash });
    expect(await reexecuteReferences({ scale: 0.01, settings: TEST_SPARK_SETTINGS, outFile, ids })).toMatchObject({ recordedEarlier: true });
  } finally {
    if (prev === undefined) delete process.env.LOCKIN_HOME;
    else process.env.LOCKIN_HOME = prev;
  }
}, 40 * 60_000);

test('a variant that failed on this database is recorded and not retried on the next build', async () => {
  // In a home of its own (the database linked, an empty references folder), so the shared test
  // references are not touched.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-refs-failed-'));
  const link = path.join(home, 'data', 'tpcds', 'sf0.01');
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(db.dbDir, link);
  const prev = process.env.LOCKIN_HOME;
  process.env.LOCKIN_HOME = home;
  try {
    const first = await buildReferences({ scale: 0.01, settings: TEST_SPARK_SETTINGS, ids: ['q12'] });
    expect(first).toMatchObject({ built: [], skipped: [], count: 0 });
    expect(first.failed.map((f) => f.id)).toEqual(['q12']);
    const file = path.join(home, 'data', 'references', 'sf0.01', 'references.json');
    const recorded = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(recorded.failedVariants.q12.error).toBe(first.failed[0].error);
    expect(recorded.failedVariants.q12.error).toMatch(/^\[DIVIDE_BY_ZERO\]/);
    expect(recorded.failedVariants.q12.textSha256).toMatch(/^[0-9a-f]{64}$/);
    // A marked record comes back as is: the build read it instead of running q12 again.
    recorded.failedVariants.q12.error = 'recorded marker';
    fs.writeFileSync(file, JSON.stringify(recorded));
    const second = await buildReferences({ scale: 0.01, settings: TEST_SPARK_SETTINGS, ids: ['q12'] });
    expect(second).toMatchObject({ built: [], skipped: [], failed: [{ id: 'q12', error: 'recorded marker' }], count: 0 });
  } finally {
    if (prev === undefined) delete process.env.LOCKIN_HOME;
    else process.env.LOCKIN_HOME = prev;
    fs.rmSync(home, { recursive: true, force: true });
  }
}, 10 * 60_000);

test('a build lists the empty references among the ids it was given (stored ones too): q78 and q23b at SF=0.01', async () => {
  // A home of its own with a copy of the built references: every id is already stored, so nothing runs.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-refs-empty-'));
  const link = path.join(home, 'data', 'tpcds', 'sf0.01');
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(db.dbDir, link);
  fs.cpSync(db.referencesDir, path.join(home, 'data', 'references', 'sf0.01'), { recursive: true });
  const prev = process.env.LOCKIN_HOME;
  process.env.LOCKIN_HOME = home;
  try {
    const res = await buildReferences({ scale: 0.01, settings: TEST_SPARK_SETTINGS, ids: ['q3', 'q78', 'q23b', 'q98'] });
    expect(res).toMatchObject({ built: [], skipped: ['q3', 'q78', 'q23b', 'q98'], empty: ['q78', 'q23b'] });
  } finally {
    if (prev === undefined) delete process.env.LOCKIN_HOME;
    else process.env.LOCKIN_HOME = prev;
    fs.rmSync(home, { recursive: true, force: true });
  }
});
