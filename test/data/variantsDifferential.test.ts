/**
 * Differential execution end to end on the SF=0.01 test database (differential execution; slow: test:full only).
 * The `dupdims` variant (seed 1) duplicates about 6 % of dimension rows, date_dim among them, so
 * the SQL of q3 counts a November sale once per copy of its date row. A wrong candidate that
 * de-duplicates date_dim by key agrees with the reference on the study database (no duplicates
 * there) and disagrees on the variant; q3's gold agrees on both. Passed in 381 s (warm Spark mode,
 * LOCKIN_TEST_FULL=1, on the shared SF=0.01 database, 2026-12-03).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ensureTestDatabase, TEST_SPARK_SETTINGS, type TestDatabase } from '../support/database';
import { buildVariantDatabases, buildVariantReferences } from '../../activities/data';
import { listVariants } from '../../activities/data/variants';
import { checkGold } from '../../activities/data/gold';
import { tasksRoot } from '../../activities/common/paths';

const FULL = process.env.LOCKIN_TEST_FULL === '1';
const maybe = FULL ? test : test.skip;
/** The shared SF=0.01 database these figures were measured on. */
const STUDY_HASH = '0342cc5d1a3ebcb2a549b1de423e45424b77f0c1782a80f4d667427ac7f571a6';
/** dupdims, seed 1, on that database (measured twice, in two homes). */
const DUPDIMS_SEED1 = '35c6a8febccbb4a30319df77353ebb4b0f66d1c1cfbf584f0fb153615061356d';

let db: TestDatabase;
let home: string;
const prevHome = process.env.LOCKIN_HOME;

beforeAll(async () => {
  if (!FULL) return;
  process.env.LOCKIN_DATA_QUIET = '1';
  db = await ensureTestDatabase(0.01);
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-differential-'));
  // The study database, its references and the jar are the test database's (read only).
  fs.mkdirSync(path.join(home, 'data'), { recursive: true });
  fs.mkdirSync(path.join(home, 'cache'), { recursive: true });
  fs.symlinkSync(path.dirname(db.dbDir), path.join(home, 'data', 'tpcds'));
  fs.symlinkSync(path.dirname(db.referencesDir), path.join(home, 'data', 'references'));
  fs.symlinkSync(path.join(db.home, 'cache', 'jars'), path.join(home, 'cache', 'jars'));
  process.env.LOCKIN_HOME = home;
}, 45 * 60_000);

afterAll(() => {
  if (prevHome === undefined) delete process.env.LOCKIN_HOME;
  else process.env.LOCKIN_HOME = prevHome;
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

maybe('a candidate that de-duplicates date_dim agrees on the study database and disagrees on dupdims; gold agrees on both', async () => {
  const built = await buildVariantDatabases({ scale: 0.01, seed: 1, variants: ['dupdims'] });
  if (db.manifestHash === STUDY_HASH) expect(built.variants[0].manifestHash).toBe(DUPDIMS_SEED1);
  const refs = await buildVariantReferences({ scale: 0.01, settings: TEST_SPARK_SETTINGS, variant: 'dupdims', ids: ['q3'] });
  expect(refs.built).toEqual(['q3']);
  const variants = listVariants(0.01);
  expect(variants.map((v) => v.name)).toEqual(['dupdims']);

  const v = variants[0];
  const gold = fs.readFileSync(path.join(tasksRoot(), 'q3', 'gold', 'solution.py'), 'utf8');
  const wrong = gold.replace('date_dim = tables["date_dim"]', 'date_dim = tables["date_dim"].dropDuplicates(["d_date_sk"])');
  expect(wrong).not.toBe(gold);
  const verdicts: Record<string, string> = {};
  for (const [name, text] of [['gold', gold], ['wrong', wrong]] as const) {
    const root = path.join(home, `tasks-${name}`);
    fs.mkdirSync(path.join(root, 'q3', 'gold'), { recursive: true });
    fs.writeFileSync(path.join(root, 'q3', 'gold', 'solution.py'), text);
    const opts = { taskId: 'q3', scale: 0.01, settings: TEST_SPARK_SETTINGS, root };
    verdicts[`${name}/study`] = (await checkGold({ ...opts, database: { dbDir: db.dbDir, refsDir: db.referencesDir, outDir: path.join(home, 'out', name, 'study') } })).verdict;
    verdicts[`${name}/dupdims`] = (await checkGold({ ...opts, database: { dbDir: v.dbDir, refsDir: v.refsDir, outDir: path.join(home, 'out', name, 'dupdims') } })).verdict;
  }
  expect(verdicts).toEqual({ 'gold/study': 'agree', 'gold/dupdims': 'agree', 'wrong/study': 'agree', 'wrong/dupdims': 'disagree' });
}, 60 * 60_000);
