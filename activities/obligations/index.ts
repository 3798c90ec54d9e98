/**
 * Activities of the obligations group (exported to the worker): the executable labels of one
 * frozen run. They start JVMs (sandboxed pytest): register on the `lockin-spark` queue.
 */
import { ZodError } from 'zod';
import { InputError, nonRetryable } from '../common/errors';
import type { SparkMode, SparkSettings } from '../../protocol/settings';
import { executableLabels } from './labels';

/**
 * Labels a frozen run's executable obligations (labels.ts) and writes
 * `<conditionDir>/executable-labels.json`, which labelObligations then reads.
 * Returns a small summary: the file and how many code and test labels it holds.
 */
export async function labelByExecution(req: { taskId: string; conditionDir: string; settings: SparkSettings; sparkMode?: SparkMode; reuseScope?: string }): Promise<{ file: string; code: number; test: number; suitePassesGold: boolean }> {
  try {
    const { file, labels } = await executableLabels(req);
    return { file, code: Object.keys(labels.code).length, test: Object.keys(labels.test).length, suitePassesGold: labels.suiteOnGold.passed };
  } catch (err) {
    if (err instanceof InputError) throw nonRetryable(err);
    if (err instanceof ZodError) throw nonRetryable(new InputError(`bad input: ${err.message}`, undefined, 'labelByExecution'));
    throw err;
  }
}
