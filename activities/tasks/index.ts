/**
 * Activities of the tasks group (exported to the worker): corpus checks, gold checks and the
 * replay-corpus builder. Bad input becomes a non-retryable failure at this boundary.
 */
import { InputError, nonRetryable } from '../common/errors';
import type { SparkSettings } from '../../protocol/settings';
import { checkCorpus, type CorpusCheckReport } from './corpus';
import { checkGold, type GoldVerdict } from './gold';
import { buildReplay, type BuildReplayReport } from './replay';

async function boundary<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof InputError) throw nonRetryable(err);
    throw err;
  }
}

/** Checks the task corpus at a scale (see corpus.ts checkCorpus). Runs on lockin-default. */
export async function checkTaskCorpus(input: { scale: number; ids?: string[] }): Promise<CorpusCheckReport> {
  return boundary(() => checkCorpus(input));
}

/** Runs one gold solution and compares it with its reference (see gold.ts checkGold). Starts a JVM: lockin-spark. */
export async function checkGoldSolution(input: { qid: string; scale: number; settings?: SparkSettings; timeoutMs?: number }): Promise<GoldVerdict> {
  return boundary(() => checkGold(input));
}

/** Writes the replay corpora's generated files (see replay.ts buildReplay). */
export async function buildReplayCorpus(input: { ids?: string[] }): Promise<BuildReplayReport> {
  return boundary(() => buildReplay(input));
}
