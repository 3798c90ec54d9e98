/** lockin's logger for the Temporal SDK (worker/log.ts): levels, no ANSI, repeats collapsed (surviving a server restart). */
import { LockinLogger, parseLogLevel } from '../../worker/log';

test('LOCKIN_LOG_LEVEL: case-insensitive, ERROR by default, a clear error otherwise', () => {
  expect([parseLogLevel('warn'), parseLogLevel(' Info '), parseLogLevel(undefined), parseLogLevel('')]).toEqual(['WARN', 'INFO', 'ERROR', 'ERROR']);
  expect(() => parseLogLevel('loud')).toThrow('LOCKIN_LOG_LEVEL: "loud" is not a log level (one of TRACE, DEBUG, INFO, WARN, ERROR)');
});

test('a core warning storm during a server outage: one plain line per minute per message, the next saying how many were left out', () => {
  const lines: string[] = [];
  let t = 0;
  const log = new LockinLogger('WARN', (l) => lines.push(l), () => t);
  const storm = (n: number) => `\x1b[2mgRPC call poll_activity_task_queue retried ${n} times\x1b[0m`;
  log.info('Worker state changed'); // below the level
  for (let n = 1; n <= 40; n++, t += 500) log.warn(storm(n), { error: 'Status { code: Unavailable, message: "tcp connect error" }\nsecond line' });
  log.warn('gRPC call poll_workflow_task_queue retried 3 times'); // another message: its own line
  t = 61_000;
  log.warn(storm(41), { error: new Error('tcp connect error') });
  log.error('Worker failed');
  expect(lines).toEqual([
    '[lockin] temporal WARN: gRPC call poll_activity_task_queue retried 1 times (Status { code: Unavailable, message: "tcp connect error" })\n',
    '[lockin] temporal WARN: gRPC call poll_workflow_task_queue retried 3 times\n',
    '[lockin] temporal WARN: gRPC call poll_activity_task_queue retried 41 times (tcp connect error) [39 more like it in the last 61 s]\n',
    '[lockin] temporal ERROR: Worker failed\n',
  ]);
});
