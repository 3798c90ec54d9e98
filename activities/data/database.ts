/**
 * Activities that build the study's TPC-DS database (docs/protocol.md §1): generate the 24
 * tables with tpcgen-cli (--compat c), load them with the docs/tpcds-types.md types into typed
 * Parquet plus manifest.json, and verify a database against its manifest. Each step skips
 * itself when its outputs already match their record, so a killed run resumes.
 */
import { databaseDir } from '../common/paths';
import { PINNED } from '../../protocol/settings';
import { checkScale, runDataScript, scaleArg, settingsArg } from './run';
import { GenerateResult, LoadResult, VerifyResult } from '../../protocol/data';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

/** Input of generateTables. */
export type GenerateTablesInput = ActivityInput<'generateTables'>;

/**
 * Generates the 24 tables at `scale` into `<home>/cache/tpcgen/sf<S>/` (skipped when done).
 * @returns rows per table, generator name/version/flags, seconds, skipped.
 * @throws InputError when tpcgen-cli is missing, has another version than PINNED, or a file is corrupted.
 */
export async function generateTables(input: GenerateTablesInput): Promise<ActivityOutput<'generateTables'>> {
  checkScale(input.scale);
  return runDataScript('tpcds_data.py', ['generate', '--scale', scaleArg(input.scale), '--expect-version', PINNED.tpcgenCli], GenerateResult);
}

/** Input of loadTables. */
export type LoadTablesInput = ActivityInput<'loadTables'>;

/**
 * Loads the generated tables into Spark with the study's types and writes `databaseDir(S)/<table>/`
 * plus `manifest.json` (skipped when the typed files match the manifest).
 * @returns manifestHash, rows per table, seconds, skipped.
 * @throws InputError when the generator output is missing or a typed file is corrupted.
 */
export async function loadTables(input: LoadTablesInput): Promise<ActivityOutput<'loadTables'>> {
  checkScale(input.scale);
  return runDataScript(
    'tpcds_data.py',
    ['load', '--scale', scaleArg(input.scale), '--settings', settingsArg(input.settings), '--db-dir', databaseDir(input.scale), '--expect-version', PINNED.tpcgenCli],
    LoadResult,
  );
}

/**
 * Checks every typed file of `databaseDir(S)` against its manifest.
 * @returns {ok, manifestHash, rows}. @throws InputError naming the first missing or corrupted file.
 */
export async function verifyDatabase(input: ActivityInput<'verifyDatabase'>): Promise<ActivityOutput<'verifyDatabase'>> {
  checkScale(input.scale);
  return runDataScript('tpcds_data.py', ['verify', '--scale', scaleArg(input.scale), '--db-dir', databaseDir(input.scale)], VerifyResult);
}
