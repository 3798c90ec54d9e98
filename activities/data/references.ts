/**
 * Activities for the 33 reference outputs (STUDY-PROTOCOL.md §1 inventory; §4 SQL re-execution):
 * build them with the study's Spark settings, reproduce them in a fresh session, and compare them
 * with Spark's golden SF=1 answers in the tests jar.
 */
import { databaseDir, referencesDir } from '../common/paths';
import type { SparkSettings } from '../common/settings';
import { REFERENCE_INVENTORY } from '../tasks/schema';
import { checkScale, runDataScript, scaleArg, settingsArg, testsJar } from './run';
import { BuildResult, GoldenResult, ReproduceResult } from './schemas';

/** Input shared by the reference activities. */
export interface ReferencesInput {
  scale: number;
  settings: SparkSettings;
  /** Variant ids (default: REFERENCE_INVENTORY, the 33). */
  ids?: string[];
}

function args(cmd: string, input: ReferencesInput): string[] {
  checkScale(input.scale);
  const ids = input.ids?.length ? input.ids : [...REFERENCE_INVENTORY];
  return [cmd, '--scale', scaleArg(input.scale), '--settings', settingsArg(input.settings), '--ids', ids.join(','),
    '--db-dir', databaseDir(input.scale), '--refs-dir', referencesDir(input.scale), '--jar', testsJar()];
}

/**
 * Builds (or resumes) the references under `referencesDir(S)/<qid>/` and `references.json`.
 * @returns built/skipped/failed ids, count stored, manifestHash, seconds per variant.
 */
export async function buildReferences(input: ReferencesInput): Promise<BuildResult> {
  return runDataScript('references.py', args('build', input), BuildResult);
}

/**
 * Re-executes each reference in a fresh Spark session and compares schema and multiset of rows.
 * @returns {reproduced, total, results: [{id, reproduced, reason, seconds}]}.
 */
export async function reproduceReferences(input: ReferencesInput): Promise<ReproduceResult> {
  return runDataScript('references.py', args('reproduce', input), ReproduceResult);
}

/**
 * Compares each variant's result with Spark's golden answer (tpcds-query-results/v1_4/, strings
 * right-trimmed). Disagreements are findings, not failures.
 * @returns {agree, total, results: [{id, agree, difference, schemaMatches}]}.
 */
export async function compareGolden(input: ReferencesInput): Promise<GoldenResult> {
  return runDataScript('references.py', args('golden', input), GoldenResult);
}
