/**
 * Differential execution (docs/protocol.md §7 "Differential execution"): seeded variant
 * databases built from the study database (activities/python/variants.py: `nulls`, `dupdims`, `crosschannel`),
 * and the references built on each with the study's reference builder (references.py build, the
 * same SQL text and Spark settings as step 2). A reference whose SQL fails on a variant is
 * recorded as failed in that variant's references.json, as q12 is on the SF=0.01 study database.
 */
import * as fs from 'fs';
import * as path from 'path';
import { databaseDir, variantReferencesDir, variantsDir, referencePaths } from '../common/paths';
import { InputError } from '../common/errors';
import type { SparkSettings } from '../../protocol/settings';
import { REFERENCE_INVENTORY } from '../../protocol/corpus';
import { checkScale, runDataScript, scaleArg, settingsArg, testsJar } from './run';
import { BuildResult, VariantsBuildResult, type BuildVariantsResult } from '../../protocol/data';
import { VARIANT_NAMES } from '../../protocol/differential';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

/** A variant database found on disk (its manifest read) and what is known of its references. */
export interface VariantInfo {
  name: string;
  dbDir: string;
  refsDir: string;
  manifestHash: string;
  seed: number;
  /** Built reference ids and failed ones ({id: first error line}); null when references.json is absent or from another build of the variant. */
  references: { built: string[]; failed: Record<string, string> } | null;
}

/** The reference of one task on one variant: built, its SQL failed there, or not built. */
export type VariantReference = { status: 'built'; dir: string } | { status: 'failed'; error: string } | { status: 'missing' };

function readJson(file: string): any {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The variant databases of scale S that have a manifest, in VARIANT_NAMES order then by name.
 * @returns [] when none was built. Never throws for an unreadable folder (it is left out).
 */
export function listVariants(scale: number): VariantInfo[] {
  const root = variantsDir(scale);
  if (!fs.existsSync(root)) return [];
  const order = (n: string) => {
    const i = (VARIANT_NAMES as readonly string[]).indexOf(n);
    return i < 0 ? VARIANT_NAMES.length : i;
  };
  const names = fs
    .readdirSync(root)
    .filter((n) => !n.startsWith('.') && fs.existsSync(path.join(root, n, 'manifest.json')))
    .sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  const out: VariantInfo[] = [];
  for (const name of names) {
    const m = readJson(path.join(root, name, 'manifest.json'));
    if (!m || typeof m.manifestHash !== 'string') continue;
    const refsDir = variantReferencesDir(scale, name);
    const idx = readJson(path.join(refsDir, 'references.json'));
    const references =
      idx && idx.manifestHash === m.manifestHash
        ? {
            built: Object.keys(idx.variants ?? {}).sort(),
            failed: Object.fromEntries(Object.entries(idx.failedVariants ?? {}).map(([id, v]) => [id, String((v as { error?: unknown }).error ?? '')])),
          }
        : null;
    out.push({ name, dbDir: path.join(root, name), refsDir, manifestHash: m.manifestHash, seed: Number(m.seed), references });
  }
  return out;
}

/**
 * The reference of `taskId` on one variant (see VariantReference).
 * @param v a VariantInfo from listVariants
 */
export function variantReference(v: VariantInfo, taskId: string): VariantReference {
  if (!v.references) return { status: 'missing' };
  const reference = referencePaths(v.refsDir, taskId);
  if (v.references.built.includes(taskId) && fs.existsSync(reference.schema)) return { status: 'built', dir: reference.dir };
  if (taskId in v.references.failed) return { status: 'failed', error: v.references.failed[taskId] };
  return { status: 'missing' };
}

/** Input of buildVariantDatabases. */
export interface VariantDatabasesInput {
  scale: number;
  /** Seed of the random draws (default 1); recorded in each manifest. */
  seed?: number;
  /** Variant names (default VARIANT_NAMES). */
  variants?: string[];
}

/**
 * Builds (or resumes) the variant databases of the study database at S under variantsDir(S).
 * @returns per variant: skipped, manifestHash, rows per table, changed cells.
 * @throws InputError when the study database is missing or a variant name is unknown.
 */
export async function buildVariantDatabases(input: VariantDatabasesInput): Promise<VariantsBuildResult> {
  checkScale(input.scale);
  const names = input.variants?.length ? input.variants : [...VARIANT_NAMES];
  const unknown = names.filter((n) => !(VARIANT_NAMES as readonly string[]).includes(n));
  if (unknown.length) throw new InputError(`unknown variant(s) ${unknown.join(', ')} (known: ${VARIANT_NAMES.join(', ')})`, undefined, '--variants');
  const seed = input.seed ?? 1;
  if (!Number.isInteger(seed) || seed < 0) throw new InputError(`seed must be a non-negative integer, got ${seed}`, undefined, '--seed');
  const source = databaseDir(input.scale);
  if (!fs.existsSync(path.join(source, 'manifest.json'))) throw new InputError(`no study database at ${source} (run \`lockin data prepare --scale ${input.scale}\`)`, source, '--scale');
  return runDataScript('variants.py', ['build', '--source-db', source, '--out-dir', variantsDir(input.scale), '--variants', names.join(','), '--seed', String(seed)], VariantsBuildResult);
}

/**
 * Builds (or resumes) the references on one variant database with the study's reference builder.
 * @returns the builder's result (built/skipped/failed ids; a failed SQL is recorded, not thrown).
 */
export async function buildVariantReferences(input: { scale: number; settings: SparkSettings; variant: string; ids?: string[] }): Promise<BuildResult> {
  checkScale(input.scale);
  const ids = input.ids?.length ? input.ids : [...REFERENCE_INVENTORY];
  const dbDir = path.join(variantsDir(input.scale), input.variant);
  if (!fs.existsSync(path.join(dbDir, 'manifest.json'))) throw new InputError(`no variant database ${input.variant} at ${dbDir} (run \`lockin data variants\`)`, dbDir, 'variant');
  const refsDir = variantReferencesDir(input.scale, input.variant);
  fs.mkdirSync(refsDir, { recursive: true });
  return runDataScript('references.py', [
    'build', '--scale', scaleArg(input.scale), '--settings', settingsArg(input.settings), '--ids', ids.join(','),
    '--db-dir', dbDir, '--refs-dir', refsDir, '--jar', testsJar(),
  ], BuildResult);
}

/**
 * Activity of `lockin data variants` (workflows/commands.ts variantDatabases): builds the variant
 * databases, then the references on each (resumable: finished databases and references are skipped).
 */
export async function buildVariants(input: ActivityInput<'buildVariants'>): Promise<ActivityOutput<'buildVariants'>> {
  const dbs = await buildVariantDatabases(input);
  const out: BuildVariantsResult['variants'] = [];
  for (const v of dbs.variants) {
    const refs = await buildVariantReferences({ scale: input.scale, settings: input.settings, variant: v.variant, ids: input.ids });
    out.push({ ...v, references: { built: refs.built, skipped: refs.skipped, failed: refs.failed, count: refs.count } });
  }
  return { seed: dbs.seed, variants: out };
}
