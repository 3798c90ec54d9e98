/** The CLI survives a Temporal server restart (surviving a server restart): the result is asked for again; a server that stays away ends with the resume command. */
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { awaitStudyResult } from '../../client/studyRunner';
import { isSlowServer, whileServerAway } from '../../client/serverWait';

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

// On a loaded machine the main job's wait failed on "4 DEADLINE_EXCEEDED".
const slow = () => Object.assign(new Error('Failed to get Workflow execution history: 4 DEADLINE_EXCEEDED: Deadline exceeded'), { code: 4 });

test('a slow server (DEADLINE_EXCEEDED) is waited for beyond the reconnect budget, with one line, then the result', async () => {
  let calls = 0;
  const handle = { result: async () => { calls++; if (calls <= 5) throw slow(); return 'done'; } };
  const lines: string[] = [];
  // A reconnect budget of one attempt: five slow answers in a row still end in the result.
  await expect(whileServerAway(() => handle.result(), () => new Error('gave up'), [0], (l) => lines.push(l))).resolves.toBe('done');
  expect(calls).toBe(6);
  expect(lines).toEqual([
    '[lockin] the Temporal server answers too slowly (Failed to get Workflow execution history: 4 DEADLINE_EXCEEDED: Deadline exceeded; a loaded machine): the workflow goes on, waiting for it (0 min so far)\n',
    '[lockin] the Temporal server answers again\n',
  ]);
});

test('a server slow for longer than the allowance is given up with the cause', async () => {
  const handle = { result: async () => { throw slow(); } };
  await expect(whileServerAway(() => handle.result(), (c) => new Error(`gave up: ${c}`), [0], () => undefined, -1)).rejects.toThrow('gave up: Failed to get Workflow execution history: 4 DEADLINE_EXCEEDED: Deadline exceeded');
});

test('isSlowServer: the gRPC code or its name anywhere in the cause chain; a lost connection is not slow', () => {
  expect(isSlowServer(slow())).toBe(true);
  expect(isSlowServer(new Error('outer', { cause: Object.assign(new Error('x'), { code: 8 }) }))).toBe(true);
  expect(isSlowServer(new Error('14 UNAVAILABLE: Connection refused'))).toBe(false);
  expect(isSlowServer(lost())).toBe(false);
});
