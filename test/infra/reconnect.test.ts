/** The CLI survives a Temporal server restart (surviving a server restart): the result is asked for again; a server that stays away ends with the resume command. */
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { awaitStudyResult } from '../../client/studyRunner';

const lost = () => new Error('Failed to get Workflow execution history');

test('a server that comes back: the result arrives after the failed attempts', async () => {
  const errors = [lost(), lost()];
  let calls = 0;
  const handle = { result: async () => { calls++; if (errors.length) throw errors.shift(); return { reportDir: null }; } };
  const lines: string[] = [];
  await expect(awaitStudyResult(handle, 's1', [0, 0, 0], (l) => lines.push(l))).resolves.toEqual({ reportDir: null });
  expect(calls).toBe(3);
  // One line when the server stops answering, one when it is back: none per retry.
  expect(lines).toEqual([
    '[lockin] the Temporal server is not answering (Failed to get Workflow execution history); waiting for it up to 0 s (restart it with `npx lockin server start`)\n',
    '[lockin] the Temporal server answers again\n',
  ]);
});

test('a server that stays away: an error with the cause and the exact resume command', async () => {
  let calls = 0;
  const handle = { result: async () => { calls++; throw lost(); } };
  const lines: string[] = [];
  await expect(awaitStudyResult(handle, 'my-study', [0, 0], (l) => lines.push(l))).rejects.toThrow(
    'the Temporal server stopped answering (Failed to get Workflow execution history). The study is durable: once the server is back (`npx lockin server start`), resume it with: npx lockin study resume my-study',
  );
  expect(calls).toBe(3);
  expect(lines).toHaveLength(1);
});

test("the workflow's own failure is not retried", async () => {
  let calls = 0;
  const failure = new WorkflowFailedError('Workflow execution failed', ApplicationFailure.nonRetryable('boom'), 'NON_RETRYABLE_FAILURE');
  const handle = { result: async () => { calls++; throw failure; } };
  await expect(awaitStudyResult(handle, 's', [0, 0], () => undefined)).rejects.toBe(failure);
  expect(calls).toBe(1);
});
