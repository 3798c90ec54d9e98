/**
 * Activities of the obligations group (exported to the worker): the executable labels of one
 * frozen run. They start JVMs (sandboxed pytest): register on the `lockin-spark` queue.
 */
import { ZodError } from 'zod';
import { InputError, nonRetryable } from '../common/errors';
import type { SparkMode, SparkSettings } from '../../protocol/settings';
import { scoredSuite, type ConditionId } from '../../protocol/conditions';
import { executableLabels } from './labels';

/**
 * Labels a frozen run's executable obligations (labels.ts) and writes
 * `<conditionDir>/executable-labels.json`, which labelObligations then reads. The test labels
 * measure the condition's scored suite (protocol/conditions.ts scoredSuite: contract_test.py for
 * Contract-First, docs/protocol.md §2; test_solution.py otherwise and when `condition` is absent,
 * as in histories from before it was passed).
 * Returns a small summary: the file and how many code and test labels it holds.
 */
export async function labelByExecution(req: { taskId: string; conditionDir: string; condition?: ConditionId; settings: SparkSettings; sparkMode?: SparkMode; reuseScope?: string }): Promise<{ file: string; code: number; test: number; suitePassesGold: boolean }> {
  try {
    const { condition, ...rest } = req;
    const { file, labels } = await executableLabels({ ...rest, suite: scoredSuite(condition ?? 'one-pass') });
    return { file, code: Object.keys(labels.code).length, test: Object.keys(labels.test).length, suitePassesGold: labels.suiteOnGold.passed };
  } catch (err) {
    if (err instanceof InputError) throw nonRetryable(err);
    if (err instanceof ZodError) throw nonRetryable(new InputError(`bad input: ${err.message}`, undefined, 'labelByExecution'));
    throw err;
  }
}
