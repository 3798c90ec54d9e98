/**
 * The LockinStatus search attribute tells the truth: `running` while a workflow runs (set when
 * it is started), `done` or `failed` when it ends.
 */
import { deprecatePatch, upsertSearchAttributes } from '@temporalio/workflow';
import { STATUS_KEY } from '../protocol/searchAttributes';

/** The values LockinStatus takes. */
export type LockinStatus = 'running' | 'done' | 'failed';

/**
 * Runs a workflow's body and sets LockinStatus to `done` when it returns or `failed` when it
 * throws (the error is rethrown unchanged).
 * @param body the workflow's own steps.
 * @returns what the body returns.
 */
export async function recordingStatus<T>(body: () => Promise<T>): Promise<T> {
  deprecatePatch('lockin-status-set-at-end');
  try {
    const result = await body();
    upsertSearchAttributes([{ key: STATUS_KEY, value: 'done' }]);
    return result;
  } catch (err) {
    upsertSearchAttributes([{ key: STATUS_KEY, value: 'failed' }]);
    throw err;
  }
}
