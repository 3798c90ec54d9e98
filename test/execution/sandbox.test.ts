/** The sandbox itself, without Spark (a few seconds): no network, no study folders, limits. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runSandboxed, toMiB, type SandboxSpec } from '../../activities/execution/sandbox';
import { venvPython } from '../../activities/common/paths';

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-sbx-test-'));
  fs.mkdirSync(path.join(work, 'secret'));
  fs.writeFileSync(path.join(work, 'secret', 'labels.json'), '{"label": "hidden"}');
  fs.mkdirSync(path.join(work, 'out'));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function py(code: string, extra: Partial<SandboxSpec> = {}): Promise<Awaited<ReturnType<typeof runSandboxed>>> {
  return runSandboxed({
    mounts: { out: { source: path.join(work, 'out'), writable: true } },
    command: () => [venvPython(), '-c', code],
    timeoutMs: 20000,
    forbidden: [path.join(work, 'secret')],
    ...extra,
  });
}

test('toMiB reads JVM memory strings', () => {
  expect([toMiB('4g'), toMiB('512m'), toMiB('2048k'), toMiB('1073741824'), toMiB('lots')]).toEqual([4096, 512, 2, 1024, 4096]);
});

test('host study folders are not there, the writable mount is, and there is no network', async () => {
  const secret = path.join(work, 'secret', 'labels.json');
  const code = [
    'import os, socket',
    `print("secret", os.path.exists(${JSON.stringify(secret)}))`,
    'open("/lockin/out/hello.txt", "w").write("hi")',
    'try:',
    '    socket.create_connection(("1.1.1.1", 53), timeout=3); print("net open")',
    'except OSError as e:',
    '    print("net closed")',
    'print("uid", os.getuid())',
  ].join('\n');
  const run = await py(code);
  expect(run.isolation).toBe('bwrap');
  expect(run.exitCode).toBe(0);
  expect(run.stdout.trim().split('\n')).toEqual(['secret False', 'net closed', 'uid 1000']);
  expect(fs.readFileSync(path.join(work, 'out', 'hello.txt'), 'utf8')).toBe('hi');
});

test('the wall-clock limit kills the process group', async () => {
  const started = Date.now();
  const run = await py('import time\nwhile True: time.sleep(1)', { timeoutMs: 1500 });
  expect(run.timedOut).toBe(true);
  expect(run.exitCode).not.toBe(0);
  expect(Date.now() - started).toBeLessThan(8000);
});

test('the memory watchdog kills a process tree over its limit', async () => {
  const run = await py('import time\nx = bytearray(600 * 1024 * 1024)\ntime.sleep(30)', { memoryLimitMb: 200 });
  expect(run.memoryExceeded).toBe(true);
  expect(run.timedOut).toBe(false);
});

test('without bubblewrap the in-process check (exec_guard.py) still refuses a forbidden path', async () => {
  const secret = path.join(work, 'secret', 'labels.json');
  process.env.LOCKIN_ISOLATION = 'checked-only';
  try {
    const code = [
      'import exec_guard',
      'exec_guard.install(); exec_guard.activate()',
      'try:',
      `    open(${JSON.stringify(secret)}).read(); print("read it")`,
      'except PermissionError as e:',
      '    print("refused", exec_guard.attempts())',
      `print(exec_guard.mentions_forbidden("PATH_NOT_FOUND: file:${path.join(work, 'secret')}/x"))`,
    ].join('\n');
    const run = await py(code);
    expect(run.isolation).toBe('checked-only');
    expect(run.stdout.trim().split('\n')).toEqual([`refused ['${secret}']`, path.join(work, 'secret')]);
  } finally {
    delete process.env.LOCKIN_ISOLATION;
  }
});
