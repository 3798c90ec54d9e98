/**
 * databaseMounts (activities/execution/databases.ts): the study database and its variant
 * databases are one set of mounts, so their executions share a warm slot; any other folder is
 * mounted alone. Expectations written from the module's rule, on a home built here.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { databaseMounts } from '../../activities/execution/databases';

const at = { db: '/lockin/db', variants: '/lockin/variants', candidate: '/lockin/candidate' };

describe('databaseMounts', () => {
  let home: string;
  const saved = process.env.LOCKIN_HOME;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-dbmounts-'));
    process.env.LOCKIN_HOME = home;
    fs.mkdirSync(path.join(home, 'data', 'tpcds', 'sf1'), { recursive: true });
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.LOCKIN_HOME;
    else process.env.LOCKIN_HOME = saved;
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('mounts the study database alone while the scale has no variants', () => {
    const m = databaseMounts(path.join(home, 'data', 'tpcds', 'sf1'), 1);
    expect(m.mounts).toEqual({ db: { source: path.join(home, 'data', 'tpcds', 'sf1') } });
    expect(m.fixed).toEqual(['db']);
    expect(m.dbPath(at)).toBe('/lockin/db');
  });

  it('gives the study database and each variant the same mounts, each job naming its own database', () => {
    const variants = path.join(home, 'data', 'variants', 'sf1');
    fs.mkdirSync(path.join(variants, 'nulls'), { recursive: true });
    fs.mkdirSync(path.join(variants, 'skew'), { recursive: true });
    const onStudy = databaseMounts(path.join(home, 'data', 'tpcds', 'sf1'), 1);
    const onNulls = databaseMounts(path.join(variants, 'nulls'), 1);
    const onSkew = databaseMounts(path.join(variants, 'skew'), 1);
    const expected = { db: { source: path.join(home, 'data', 'tpcds', 'sf1') }, variants: { source: variants } };
    for (const m of [onStudy, onNulls, onSkew]) {
      expect(m.mounts).toEqual(expected);
      expect(m.fixed).toEqual(['db', 'variants']);
    }
    expect(onStudy.dbPath(at)).toBe('/lockin/db');
    expect(onNulls.dbPath(at)).toBe('/lockin/variants/nulls');
    expect(onSkew.dbPath(at)).toBe('/lockin/variants/skew');
  });

  it('mounts a folder that is neither the study database nor one of its variants alone, as before', () => {
    fs.mkdirSync(path.join(home, 'data', 'variants', 'sf1', 'nulls'), { recursive: true });
    const own = path.join(home, 'fixture-db');
    fs.mkdirSync(own);
    const m = databaseMounts(own, 1);
    expect(m.mounts).toEqual({ db: { source: own } });
    expect(m.dbPath(at)).toBe('/lockin/db');
    // A variant of another scale is not one of this scale's variants.
    const other = databaseMounts(path.join(home, 'data', 'variants', 'sf1', 'nulls'), 0.01);
    expect(other.mounts).toEqual({ db: { source: path.join(home, 'data', 'variants', 'sf1', 'nulls') } });
  });
});
