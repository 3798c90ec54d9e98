/**
 * The small TPC-DS database and its references for tests: prepared once (generate, load,
 * 33 references at the study's settings) and cached; later calls return in milliseconds.
 *
 * Cache: under LOCKIN_TEST_DATA_HOME if set, else lockinHome() at the time of the first call
 * (default `<repo>/.lockin`), so call it before pointing LOCKIN_HOME at a temporary folder.
 * Concurrent callers (several jest processes) serialize on a lock folder.
 */
import * as fs from 'fs';
import * as path from 'path';
import { databaseDir, lockinHome, referencesDir } from '../../activities/common/paths';
import { DEFAULT_SPARK_SETTINGS, type SparkSettings } from '../../protocol/settings';
import { REFERENCE_INVENTORY } from '../../protocol/corpus';
import { buildReferences, generateTables, loadTables } from '../../activities/data';

/** The Spark settings the test database and references are built with (the study's, small memory). */
export const TEST_SPARK_SETTINGS: SparkSettings = { ...DEFAULT_SPARK_SETTINGS, master: 'local[2]', driverMemory: '3g' };

/** What ensureTestDatabase returns. */
export interface TestDatabase {
  /** `<home>/data/tpcds/sf<S>`: typed tables + manifest.json. */
  dbDir: string;
  /** `<home>/data/references/sf<S>`: one folder per reference variant + references.json. */
  referencesDir: string;
  manifestHash: string;
  /** The home folder the database lives under (pass as LOCKIN_HOME to reuse it). */
  home: string;
  /** Reference variants that could not be built at this scale (with the error), e.g. an ANSI division by zero. */
  failed: { id: string; error: string }[];
}

const memo = new Map<string, Promise<TestDatabase>>();

function readJson(file: string): any {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** The cached database when manifest.json and references.json agree and hold every variant. */
function cached(home: string, scale: number): TestDatabase | null {
  const withHome = <T>(fn: () => T): T => {
    const prev = process.env.LOCKIN_HOME;
    process.env.LOCKIN_HOME = home;
    try {
      return fn();
    } finally {
      if (prev === undefined) delete process.env.LOCKIN_HOME;
      else process.env.LOCKIN_HOME = prev;
    }
  };
  const dbDir = withHome(() => databaseDir(scale));
  const refsDir = withHome(() => referencesDir(scale));
  const manifest = readJson(path.join(dbDir, 'manifest.json'));
  const refs = readJson(path.join(refsDir, 'references.json'));
  const status = readJson(path.join(refsDir, 'test-status.json'));
  if (!manifest || !refs || !status || refs.manifestHash !== manifest.manifestHash || status.manifestHash !== manifest.manifestHash) return null;
  const have = new Set([...Object.keys(refs.variants ?? {}), ...status.failed.map((f: { id: string }) => f.id)]);
  if (!REFERENCE_INVENTORY.every((id) => have.has(id))) return null;
  return { dbDir, referencesDir: refsDir, manifestHash: manifest.manifestHash, home, failed: status.failed };
}

async function withLock<T>(home: string, fn: () => Promise<T>): Promise<T> {
  fs.mkdirSync(home, { recursive: true });
  const lock = path.join(home, '.test-database.lock');
  const deadline = Date.now() + 60 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      const pid = Number(readJson(path.join(lock, 'pid')) ?? NaN);
      let alive = true;
      try {
        if (Number.isFinite(pid)) process.kill(pid, 0);
      } catch {
        alive = false;
      }
      if (!alive) fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`${lock}: still held by process ${pid} after an hour`);
      else await new Promise((r) => setTimeout(r, 2000));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

async function prepare(home: string, scale: number): Promise<TestDatabase> {
  const hit = cached(home, scale);
  if (hit) return hit;
  return withLock(home, async () => {
    const again = cached(home, scale);
    if (again) return again;
    const prev = process.env.LOCKIN_HOME;
    process.env.LOCKIN_HOME = home;
    try {
      await generateTables({ scale });
      const loaded = await loadTables({ scale, settings: TEST_SPARK_SETTINGS });
      const refs = await buildReferences({ scale, settings: TEST_SPARK_SETTINGS });
      fs.writeFileSync(path.join(refs.refsDir, 'test-status.json'), JSON.stringify({ manifestHash: loaded.manifestHash, failed: refs.failed }, null, 2));
    } finally {
      if (prev === undefined) delete process.env.LOCKIN_HOME;
      else process.env.LOCKIN_HOME = prev;
    }
    const done = cached(home, scale);
    if (!done) throw new Error(`test database at scale ${scale} under ${home} is incomplete after preparing it`);
    return done;
  });
}

/**
 * Prepares (once) the TPC-DS database at `scale` and its reference outputs, and returns where
 * they are. First call at SF=0.01: several minutes on a busy 2-core machine; later calls: milliseconds.
 * @returns {dbDir, referencesDir, manifestHash, home, failed}.
 */
export function ensureTestDatabase(scale = 0.01): Promise<TestDatabase> {
  const home = path.resolve(process.env.LOCKIN_TEST_DATA_HOME ?? lockinHome());
  const key = `${home}|${scale}`;
  let p = memo.get(key);
  if (!p) {
    p = prepare(home, scale);
    p.catch(() => memo.delete(key));
    memo.set(key, p);
  }
  return p;
}
