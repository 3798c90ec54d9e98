/**
 * The sandbox itself, without Spark (a few seconds): no network, no study folders, limits, outputs
 * through descriptors. The view and the wall-clock limit also for a job of a warm Spark slot
 * (warm Spark slots; the other limits are set too small here for a slot's JVM to start under them).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cleanStaleSandboxFolders, replaceFile, runSandboxed, SANDBOX_RUN_UID_BASE, SANDBOX_SLOT_UID_BASE, toMiB, type SandboxSpec } from '../../activities/execution/sandbox';
import { venvPython } from '../../activities/common/paths';
import { runSparkJob, stopAllSlots } from '../../activities/execution/slots';
import { DEFAULT_SPARK_SETTINGS, type SparkMode } from '../../protocol/settings';
import { MODES_UNDER_TEST } from '../support/modes';

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-sbx-test-'));
  fs.chmodSync(work, 0o755); // the sandbox's unprivileged user reads the mounts
  fs.mkdirSync(path.join(work, 'secret'));
  fs.writeFileSync(path.join(work, 'secret', 'labels.json'), '{"label": "hidden"}');
  fs.mkdirSync(path.join(work, 'in'));
  fs.writeFileSync(path.join(work, 'in', 'data.txt'), 'input');
  fs.mkdirSync(path.join(work, 'out'));
});
afterAll(async () => {
  await stopAllSlots();
  fs.rmSync(work, { recursive: true, force: true });
});

function py(code: string, extra: Partial<SandboxSpec> = {}): Promise<Awaited<ReturnType<typeof runSandboxed>>> {
  return runSandboxed({
    mounts: { in: { source: path.join(work, 'in') } },
    command: () => [venvPython(), '-c', code],
    timeoutMs: 20000,
    forbidden: [path.join(work, 'secret')],
    ...extra,
  });
}

/** py() as a Spark job in `mode` (cold: exactly runSandboxed; warm: a job of a slot); checks the mode it ran in. */
async function pyIn(mode: SparkMode, code: string, extra: Partial<SandboxSpec> = {}): Promise<Awaited<ReturnType<typeof runSandboxed>>> {
  const run = await runSparkJob({
    mounts: { in: { source: path.join(work, 'in') } },
    command: () => [venvPython(), '-c', code],
    timeoutMs: 20000,
    forbidden: [path.join(work, 'secret')],
    ...extra,
  }, { mode, settings: { ...DEFAULT_SPARK_SETTINGS, master: 'local[1]', driverMemory: '1g' } });
  expect(run.spark.mode).toBe(mode);
  // Where its wall time went: the process is the sandboxed run's; cold has no slot to wait for or check.
  expect(run.spark.ms!.process).toBe(run.durationMs);
  if (mode === 'cold') expect(run.spark.ms).toEqual({ slot: 0, process: run.durationMs, check: 0 });
  return run;
}

test('toMiB reads JVM memory strings', () => {
  expect([toMiB('4g'), toMiB('512m'), toMiB('2048k'), toMiB('1073741824'), toMiB('lots')]).toEqual([4096, 512, 2, 1024, 4096]);
});

test.each(MODES_UNDER_TEST)('%s Spark: host study folders are not there, mounts are read-only, outputs come through descriptors, no network', async (mode) => {
  const secret = path.join(work, 'secret', 'labels.json');
  const dest = path.join(work, 'out', 'hello.txt');
  const code = [
    'import os, socket, sys',
    `print("secret", os.path.exists(${JSON.stringify(secret)}))`,
    `print("out folder", os.path.exists(${JSON.stringify(path.join(work, 'out'))}))`,
    'print("read", open("/lockin/in/data.txt").read())',
    'try:',
    '    open("/lockin/in/new.txt", "w"); print("mount writable")',
    'except OSError:',
    '    print("mount read-only")',
    'os.write(int(sys.argv[1]), b"hi")',
    'os.write(3, b"channel line\\n")',
    'try:',
    '    socket.create_connection(("1.1.1.1", 53), timeout=3); print("net open")',
    'except OSError as e:',
    '    print("net closed")',
    'print("uid", os.getuid())',
  ].join('\n');
  fs.rmSync(dest, { force: true });
  const run = await pyIn(mode, code, { outputs: { hello: dest }, command: (_at, fds) => [venvPython(), '-c', code, String(fds.hello)] });
  expect(run.isolation).toBe('bwrap');
  expect(run.exitCode).toBe(0);
  // As root, a cold run has a host uid of its own (runHostUid); a warm slot's jobs share the slot's (slotHostUid).
  const root = process.getuid?.() === 0;
  const uid = !root ? 1000 : run.limits.hostUid;
  if (root) expect(run.limits.hostUid).toBeGreaterThanOrEqual(mode === 'warm' ? SANDBOX_SLOT_UID_BASE : SANDBOX_RUN_UID_BASE);
  if (root && mode === 'cold') expect(run.limits.hostUid).toBeLessThan(SANDBOX_SLOT_UID_BASE);
  expect(run.stdout.trim().split('\n')).toEqual(['secret False', 'out folder False', 'read input', 'mount read-only', 'net closed', `uid ${uid}`]);
  expect(run.channel).toBe('channel line\n');
  expect(run.outputs).toEqual({ hello: { file: dest, bytes: 2 } });
  expect(fs.readFileSync(dest, 'utf8')).toBe('hi');
  expect(fs.readdirSync(path.join(work, 'out'))).toEqual(['hello.txt']); // no partial file left
  expect(run.limits).toMatchObject({ scratchMb: 1024, fileMb: 1024, processes: 2048, hostUid: !root ? process.getuid?.() : uid });
});

test('an output replaced by a symlink or hard-linked elsewhere is refused; the victim is untouched (host-path mode)', async () => {
  // Without bubblewrap the process sees the host folder holding the partial files: the
  // acceptance checks (same inode, one link, regular file) are what protects the host there.
  const victim = path.join(work, 'VICTIM.txt');
  fs.writeFileSync(victim, 'precious');
  const code = [
    'import os, glob',
    `out = ${JSON.stringify(path.join(work, 'out'))}`,
    'sym = [p for p in glob.glob(out + "/.sym.txt.*.partial")][0]',
    'os.unlink(sym)',
    `os.symlink(${JSON.stringify(victim)}, sym)`,
    'hard = [p for p in glob.glob(out + "/.hard.txt.*.partial")][0]',
    'os.write(5, b"x")',
    `os.link(hard, ${JSON.stringify(path.join(work, 'hardcopy'))})`,
  ].join('\n');
  process.env.LOCKIN_ISOLATION = 'checked-only';
  try {
    const run = await py(code, { outputs: { sym: path.join(work, 'out', 'sym.txt'), hard: path.join(work, 'out', 'hard.txt') } });
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toEqual({ sym: { refused: 'the file was moved or replaced' }, hard: { refused: 'the file has 2 links (a hard link was made to it)' } });
    expect(fs.existsSync(path.join(work, 'out', 'sym.txt'))).toBe(false);
    expect(fs.existsSync(path.join(work, 'out', 'hard.txt'))).toBe(false);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
  } finally {
    delete process.env.LOCKIN_ISOLATION;
  }
});

test('partial files a killed run left beside an output are removed by the next run; other files stay', async () => {
  const out = path.join(work, 'out-stale');
  fs.mkdirSync(out);
  const stale = path.join(out, '.junit.xml.0123456789ab.partial');
  fs.writeFileSync(stale, '');
  fs.writeFileSync(path.join(out, '.junit.xml.keep.partial'), 'not ours');
  fs.writeFileSync(path.join(out, '.other.xml.0123456789ab.partial'), '');
  const code = 'import os, sys; os.write(int(sys.argv[1]), b"ok")';
  const run = await py(code, { outputs: { junit: path.join(out, 'junit.xml') }, command: (_at, fds) => [venvPython(), '-c', code, String(fds.junit)] });
  expect(run.outputs).toEqual({ junit: { file: path.join(out, 'junit.xml'), bytes: 2 } });
  expect(fs.readdirSync(out).sort()).toEqual(['.junit.xml.keep.partial', '.other.xml.0123456789ab.partial', 'junit.xml']);
});

test('replaceFile replaces a planted symlink instead of writing through it', () => {
  const victim = path.join(work, 'VICTIM2.txt');
  fs.writeFileSync(victim, 'precious');
  const log = path.join(work, 'out', 'pytest-initial.log');
  fs.symlinkSync(victim, log);
  replaceFile(log, 'the log');
  expect(fs.lstatSync(log).isSymbolicLink()).toBe(false);
  expect(fs.readFileSync(log, 'utf8')).toBe('the log');
  expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
});

test('the private /tmp is size-limited (scratch quota, counted in memory) and recorded', async () => {
  const code = [
    'n = 0',
    'try:',
    '    with open("/tmp/fill", "wb") as fh:',
    '        for _ in range(16):',
    '            fh.write(b"x" * 1048576); fh.flush(); n += 1',
    'except OSError as e:',
    '    print("refused after", n, "MiB:", e.strerror)',
  ].join('\n');
  const run = await py(code, { scratchMb: 4 });
  expect(run.limits.scratchMb).toBe(4);
  expect(run.stdout.trim()).toMatch(/^refused after [34] MiB: (No space left on device|File too large)$/);
});

test('stale scratch folders of dead workers are removed on start, live ones kept', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-clean-test-'));
  try {
    for (const [name, pid] of [['lockin-sbx-dead', 2 ** 22 + 7], ['lockin-stage-live', process.pid], ['other-dead', 2 ** 22 + 7]] as const) {
      fs.mkdirSync(path.join(tmp, name));
      fs.writeFileSync(path.join(tmp, name, 'owner.pid'), String(pid));
    }
    expect(cleanStaleSandboxFolders(tmp)).toEqual([path.join(tmp, 'lockin-sbx-dead')]);
    expect(fs.readdirSync(tmp).sort()).toEqual(['lockin-stage-live', 'other-dead']);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test.each(MODES_UNDER_TEST)('%s Spark: the wall-clock limit kills the process group', async (mode) => {
  const started = Date.now();
  const run = await pyIn(mode, 'import time\nwhile True: time.sleep(1)', { timeoutMs: 1500 });
  expect(run.timedOut).toBe(true);
  expect(run.exitCode).not.toBe(0);
  // warm: the slot's start-up comes before the job's clock starts
  expect(mode === 'cold' ? Date.now() - started : run.durationMs).toBeLessThan(8000);
});

test('the memory watchdog kills a process tree over its limit', async () => {
  const run = await py('import time\nx = bytearray(600 * 1024 * 1024)\ntime.sleep(30)', { memoryLimitMb: 200 });
  expect(run.memoryExceeded).toBe(true);
  expect(run.timedOut).toBe(false);
});

test('the process limit stops a fork bomb inside the sandbox', async () => {
  await stopAllSlots(); // RLIMIT_NPROC counts every task of the sandbox's host uid: an idle warm slot's JVM threads too
  const code = [
    'import os, time',
    'n = 0',
    'try:',
    '    for _ in range(400):',
    '        if os.fork() == 0:',
    '            time.sleep(2); os._exit(0)',
    '        n += 1',
    'except OSError as e:',
    '    print("refused", e.strerror)',
    'print("forked", n < 60)',
  ].join('\n');
  const run = await py(code, { processes: 60 });
  expect(run.limits.processes).toBe(60);
  expect(run.stdout.trim().split('\n')).toEqual(['refused Resource temporarily unavailable', 'forked True']);
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
