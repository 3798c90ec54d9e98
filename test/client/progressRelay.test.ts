/**
 * Progress lines of an activity another process's worker runs reach the command that started the
 * workflow through the activity's heartbeats (activities/common/progressBeat.ts,
 * client/temporal.ts relayOtherWorkersProgress): `lockin data prepare` printed nothing while a
 * main job's worker ran its steps and printed them in the main job's terminal.
 */
import * as os from 'os';
import type { WorkflowClient } from '@temporalio/client';
import { unseenProgress } from '../../activities/common/progressBeat';
import { relayOtherWorkersProgress, runningActivityLines } from '../../client/temporal';

const beat = (seq: number, lines: string[]) => ({ progress: { seq, lines } });

test('unseenProgress: only the lines not shown yet; a gap that left the window is said, not hidden', () => {
  expect(unseenProgress(beat(3, ['a', 'b', 'c']), 0)).toEqual({ lines: ['a', 'b', 'c'], seq: 3 });
  expect(unseenProgress(beat(5, ['c', 'd', 'e']), 3)).toEqual({ lines: ['d', 'e'], seq: 5 });
  expect(unseenProgress(beat(5, ['c', 'd', 'e']), 5)).toEqual({ lines: [], seq: 5 });
  expect(unseenProgress(beat(10, ['h', 'i', 'j']), 5)).toEqual({ lines: ['(2 progress line(s) not relayed)', 'h', 'i', 'j'], seq: 10 });
  expect(unseenProgress(undefined, 4)).toEqual({ lines: [], seq: 4 });
  expect(unseenProgress({ other: 1 }, 0)).toEqual({ lines: [], seq: 0 });
});

test('relayOtherWorkersProgress prints another worker\'s lines once each, never this process\'s own', async () => {
  jest.useFakeTimers();
  try {
    const own = `${process.pid}@${os.hostname()}`;
    // What describe() returns at each poll: one activity on another worker, one on ours.
    const polls = [
      [{ activityId: '1', attempt: 1, lastWorkerIdentity: '77@other', heartbeatDetails: { payloads: [beat(2, ['load: q1', 'load: q2'])] } }, { activityId: '2', attempt: 1, lastWorkerIdentity: own, heartbeatDetails: { payloads: [beat(1, ['mine'])] } }],
      [{ activityId: '1', attempt: 1, lastWorkerIdentity: '77@other', heartbeatDetails: { payloads: [beat(3, ['load: q1', 'load: q2', 'load: q3'])] } }],
      [{ activityId: '1', attempt: 2, lastWorkerIdentity: '78@other', heartbeatDetails: { payloads: [beat(1, ['retry: q1'])] } }, { activityId: '3', attempt: 1, lastWorkerIdentity: '78@other' }],
    ];
    let n = 0;
    const wf = {
      getHandle: () => ({ describe: async () => ({ raw: { pendingActivities: polls[Math.min(n++, polls.length - 1)] } }) }),
      options: { loadedDataConverter: { payloadConverter: { fromPayload: (p: unknown) => p } } },
    } as unknown as WorkflowClient;
    const printed: string[] = [];
    const stop = relayOtherWorkersProgress(wf, 'lockin-prepare-sf1', (l) => printed.push(l));
    for (let i = 0; i < 4; i++) await jest.advanceTimersByTimeAsync(5000);
    await stop();
    expect(printed).toEqual([
      'load: q1 (relayed from worker 77@other)',
      'load: q2 (relayed from worker 77@other)',
      'load: q3 (relayed from worker 77@other)',
      'retry: q1 (relayed from worker 78@other)',
    ]);
  } finally {
    jest.useRealTimers();
  }
});

test('a line noted from a child process\'s stderr inside an activity goes out with its heartbeat', async () => {
  const { MockActivityEnvironment } = await import('@temporalio/testing');
  const { spawn } = await import('child_process');
  const { noteProgress } = await import('../../activities/common/progressBeat');
  const env = new MockActivityEnvironment();
  const beats: unknown[] = [];
  env.on('heartbeat', (d: unknown) => beats.push(d));
  await env.run(async () => {
    const child = spawn('sh', ['-c', 'echo "load: q1" >&2; echo "load: q2" >&2']);
    let buf = '';
    child.stderr.on('data', (b: Buffer) => (buf += b.toString()));
    child.stderr.on('end', () => buf.split('\n').filter(Boolean).forEach(noteProgress));
    await new Promise((r) => child.on('close', r));
  });
  expect(beats.at(-1)).toEqual({ progress: { seq: 2, lines: ['load: q1', 'load: q2'] } });
});

test('runningActivityLines: the last line of each running activity, whichever worker runs it', async () => {
  const wf = {
    getHandle: () => ({ describe: async () => ({ raw: { pendingActivities: [
      { activityId: '1', lastWorkerIdentity: '77@other', heartbeatDetails: { payloads: [beat(3, ['q87: building its mutants', 'q87: suite 1 of 4 (one-pass) on gold and its mutants', 'q87: suite 2 of 4 (test-guided) on gold and its mutants'])] } },
      { activityId: '2', lastWorkerIdentity: `${process.pid}@${os.hostname()}`, heartbeatDetails: { payloads: [beat(1, ['q36: labeller check: acceptance tests on gold and 9 violation(s)'])] } },
      { activityId: '3', lastWorkerIdentity: '77@other' },
    ] } }) }),
    options: { loadedDataConverter: { payloadConverter: { fromPayload: (p: unknown) => p } } },
  } as unknown as WorkflowClient;
  expect(await runningActivityLines(wf, 'x')).toEqual(['q87: suite 2 of 4 (test-guided) on gold and its mutants', 'q36: labeller check: acceptance tests on gold and 9 violation(s)']);
  const broken = { getHandle: () => ({ describe: async () => { throw new Error('gone'); } }) } as unknown as WorkflowClient;
  expect(await runningActivityLines(broken, 'x')).toEqual([]);
});
