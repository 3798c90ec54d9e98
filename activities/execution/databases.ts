/**
 * Which database folders a candidate job (execution or smoke check) mounts, and which of them
 * its `--db` names (warm Spark slots, README "How long it takes"; README "Security" for what a job can read).
 *
 * A job on the study database of a scale, or on one of that database's variant databases
 * (`lockin data variants`, docs/protocol.md §7 "Differential execution"), mounts both, read-only:
 * the study database at /lockin/db and the variants folder at /lockin/variants. The executions
 * on the study database and on each variant are then one warm-slot profile (slots.ts keys a
 * slot by its fixed mounts): before, each variant database was a profile of its own, so a run's
 * three variant executions started three JVMs and evicted the slots the next task needed. Cold
 * runs mount the same folders, so a job sees the same files in both modes. Neither folder holds
 * a reference (those are under data/references and data/variant-references, never mounted).
 * Any other folder (a test's own database) is mounted alone at /lockin/db, as before.
 */
import * as fs from 'fs';
import * as path from 'path';
import { databaseDir, variantsDir } from '../common/paths';

/** The mounts of a candidate job's databases, and the in-sandbox path of the one it reads. */
export interface DatabaseMounts {
  /** Mount name → host folder (read-only); `db` always, `variants` when the scale has variants. */
  mounts: Record<string, { source: string }>;
  /** The mount names a warm slot binds once (all of them). */
  fixed: string[];
  /** The path the job's `--db` names, given where each mount appears (`at[name]`). */
  dbPath: (at: Record<string, string>) => string;
}

/**
 * The database mounts of a job that reads `dbDir` in a study at `scale`.
 * Inputs: dbDir, an absolute or relative host folder; scale, the study's scale factor.
 * Returns: DatabaseMounts (see the module comment for the rule). Reads only whether the study
 * database and the variants folder exist. Throws nothing.
 */
export function databaseMounts(dbDir: string, scale: number): DatabaseMounts {
  const db = path.resolve(dbDir);
  const study = path.resolve(databaseDir(scale));
  const variants = path.resolve(variantsDir(scale));
  const isVariant = path.dirname(db) === variants;
  if ((db !== study && !isVariant) || !fs.existsSync(variants) || !fs.existsSync(study)) {
    return { mounts: { db: { source: db } }, fixed: ['db'], dbPath: (at) => at.db };
  }
  const name = path.basename(db);
  return {
    mounts: { db: { source: study }, variants: { source: variants } },
    fixed: ['db', 'variants'],
    dbPath: (at) => (isVariant ? `${at.variants}/${name}` : at.db),
  };
}
