/**
 * Reuse of identical runs within one study: the three conditions start from the same snapshot,
 * so until one of them revises, their pytest runs and candidate executions have byte-identical
 * inputs. Such a run is made once and its outcome and files are copied to the others
 * (and to a resumed study). The key is the sha256 of everything the run depends on (the files'
 * bytes, the Spark settings, the database manifest, the limits); the scope is the study, so two
 * studies never share a sample of a possibly nondeterministic run.
 *
 * Only outcomes that do not depend on the machine's load are reused: a pytest run that
 * completed, an execution that ended ok, with an exception or a forbidden access. Time-outs,
 * crashes and memory kills always run again. A reused run writes `reused.json` (the key and the
 * label of the run it copies) into its output folder.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { runsRoot } from '../common/paths';

const inFlight = new Map<string, Promise<unknown>>();

/** sha256 over the parts (strings, or files read as bytes when given as {file}). A missing file hashes as "missing". */
export function reuseKey(parts: (string | { file: string })[]): string {
  const h = crypto.createHash('sha256');
  for (const p of parts) {
    if (typeof p === 'string') h.update(`s:${p}\0`);
    else h.update(`f:${fs.existsSync(p.file) ? crypto.createHash('sha256').update(fs.readFileSync(p.file)).digest('hex') : 'missing'}\0`);
  }
  return h.digest('hex');
}

export interface ReuseSpec<T> {
  /** Study id; undefined disables reuse (the run is made as before). */
  scope: string | undefined;
  kind: 'pytest' | 'execute' | 'labels';
  key: string;
  outDir: string;
  /** Output files (names in outDir) saved with the outcome and restored on reuse: [saved name, name in this outDir]. */
  files: [string, string][];
  /** Makes the run. */
  run: () => Promise<T>;
  /** Whether this outcome may be reused. */
  reusable: (value: T) => boolean;
  /** Rewrites paths inside the outcome for this outDir. */
  relocate: (value: T, outDir: string) => T;
}

/**
 * Runs `spec.run` once per key and scope: a concurrent caller with the same key waits for the
 * first (same worker process); a later caller restores the saved outcome and files from
 * runs/<scope>/.reuse/<kind>/<key>/. Returns the outcome for this outDir. Errors of `run`
 * propagate and are not saved.
 */
export async function reuseRun<T>(spec: ReuseSpec<T>): Promise<T> {
  if (!spec.scope) return spec.run();
  const dir = path.join(runsRoot(), spec.scope, '.reuse', spec.kind, spec.key);
  const saved = path.join(dir, 'outcome.json');
  const restore = (): T | null => {
    if (!fs.existsSync(saved)) return null;
    const value = JSON.parse(fs.readFileSync(saved, 'utf8')) as T & { __label?: string };
    fs.mkdirSync(spec.outDir, { recursive: true });
    for (const [from, to] of spec.files) if (fs.existsSync(path.join(dir, from))) fs.copyFileSync(path.join(dir, from), path.join(spec.outDir, to));
    fs.writeFileSync(path.join(spec.outDir, 'reused.json'), JSON.stringify({ key: spec.key, from: value.__label ?? null }, null, 2));
    const { __label: _label, ...rest } = value;
    // An outcome that says how Spark ran (SparkRun) says it was copied: no job ran for it.
    const spark = (rest as { spark?: unknown }).spark;
    const marked = spark && typeof spark === 'object' ? { ...rest, spark: { ...spark, reused: true } } : rest;
    return spec.relocate(marked as T, spec.outDir);
  };
  const hit = restore();
  if (hit) return hit;
  const id = `${spec.scope}/${spec.kind}/${spec.key}`;
  const pending = inFlight.get(id);
  if (pending) {
    await pending.catch(() => undefined);
    const again = restore();
    if (again) return again;
    return spec.run();
  }
  const p = (async () => {
    const value = await spec.run();
    if (spec.reusable(value)) {
      fs.mkdirSync(dir, { recursive: true });
      for (const [from, to] of spec.files) if (fs.existsSync(path.join(spec.outDir, to))) fs.copyFileSync(path.join(spec.outDir, to), path.join(dir, from));
      fs.writeFileSync(`${saved}.tmp`, JSON.stringify({ ...value, __label: spec.outDir }));
      fs.renameSync(`${saved}.tmp`, saved);
    }
    return value;
  })();
  inFlight.set(id, p);
  try {
    return await p;
  } finally {
    inFlight.delete(id);
  }
}
