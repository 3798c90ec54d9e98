/**
 * The LockinStatus search attribute tells the truth: `running` while a workflow runs (set when
 * it is started), `done` or `failed` when it ends. Workflows recorded before this rule replay
 * unchanged (the upsert is behind a patch marker).
 */
import { patched, upsertSearchAttributes } from '@temporalio/workflow';
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
  const marks = patched('lockin-status-set-at-end');
  try {
    const result = await body();
    if (marks) upsertSearchAttributes([{ key: STATUS_KEY, value: 'done' }]);
    return result;
  } catch (err) {
    if (marks) upsertSearchAttributes([{ key: STATUS_KEY, value: 'failed' }]);
    throw err;
  }
}
