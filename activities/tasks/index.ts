/**
 * Activities of the tasks group (exported to the worker): the main job's corpus checks between
 * its steps. Bad input becomes a non-retryable failure at this boundary.
 */
import { InputError, nonRetryable } from '../common/errors';
import { checkCorpus } from './corpus';
import { formatProblem } from './load';
import { referencesDir, referencePaths } from '../common/paths';
import * as fs from 'fs';
import * as path from 'path';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

async function boundary<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof InputError) throw nonRetryable(err);
    throw err;
  }
}

/**
 * Activity of the main job (workflows/mainJob.ts): splits `tasks` into those whose reference
 * exists at `scale` (`referencesDir(scale)/<taskId>/reference.arrow`) and those without (e.g. q12 at
 * SF=0.01, whose reference query divides by zero under ANSI), in the given order.
 */
export async function tasksWithReferences(req: ActivityInput<'tasksWithReferences'>): Promise<ActivityOutput<'tasksWithReferences'>> {
  const has = (q: string) => fs.existsSync(referencePaths(referencesDir(req.scale), q).data);
  return { kept: req.tasks.filter(has), missing: req.tasks.filter((q) => !has(q)) };
}

/**
 * Activity of the main job: the `lockin tasks check` rules (corpus.ts checkCorpus) for the tasks
 * a study is about to run, before its first model call. @returns every problem as
 * "<taskId>: <file> <field>: <message>" (empty when the corpus is valid).
 */
export async function checkStudyCorpus(req: ActivityInput<'checkStudyCorpus'>): Promise<ActivityOutput<'checkStudyCorpus'>> {
  const rep = await boundary(() => checkCorpus({ scale: req.scale, ids: [...new Set(req.tasks)] }));
  return { problems: rep.tasks.filter((t) => !t.ok).flatMap((t) => t.problems.map((p) => `${t.taskId}: ${formatProblem(p)}`)) };
}
