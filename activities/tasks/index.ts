/**
 * Activities of the tasks group (exported to the worker): corpus checks, gold checks and the
 * replay-corpus builder. Bad input becomes a non-retryable failure at this boundary.
 */
import { InputError, nonRetryable } from '../common/errors';
import type { SparkSettings } from '../../protocol/settings';
import { checkCorpus, type CorpusCheckReport } from './corpus';
import { checkGold, type GoldVerdict } from '../data/gold';
import { buildReplay, type BuildReplayReport } from '../model/replayCorpus';
import { formatProblem } from './load';
import { referencesDir } from '../common/paths';
import * as fs from 'fs';
import * as path from 'path';

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
export async function checkGoldSolution(input: { taskId: string; scale: number; settings?: SparkSettings; timeoutMs?: number }): Promise<GoldVerdict> {
  return boundary(() => checkGold(input));
}

/** Writes the replay corpora's generated files (see replay.ts buildReplay). */
export async function buildReplayCorpus(input: { ids?: string[] }): Promise<BuildReplayReport> {
  return boundary(() => buildReplay(input));
}

/**
 * Activity of the main job (workflows/mainJob.ts): splits `tasks` into those whose reference
 * exists at `scale` (`referencesDir(scale)/<taskId>/reference.arrow`) and those without (e.g. q12 at
 * SF=0.01, whose reference query divides by zero under ANSI), in the given order.
 */
export async function tasksWithReferences(req: { scale: number; tasks: string[] }): Promise<{ kept: string[]; missing: string[] }> {
  const has = (q: string) => fs.existsSync(path.join(referencesDir(req.scale), q, 'reference.arrow'));
  return { kept: req.tasks.filter(has), missing: req.tasks.filter((q) => !has(q)) };
}

/**
 * Activity of the main job: the `lockin tasks check` rules (corpus.ts checkCorpus) for the tasks
 * a study is about to run, before its first model call. @returns every problem as
 * "<taskId>: <file> <field>: <message>" (empty when the corpus is valid).
 */
export async function checkStudyCorpus(req: { scale: number; tasks: string[] }): Promise<{ problems: string[] }> {
  const rep = await boundary(() => checkCorpus({ scale: req.scale, ids: [...new Set(req.tasks)] }));
  return { problems: rep.tasks.filter((t) => !t.ok).flatMap((t) => t.problems.map((p) => `${t.taskId}: ${formatProblem(p)}`)) };
}
