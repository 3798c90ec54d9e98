/** The embedded dev server: start twice reuses it, the UI answers, stop leaves no process. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as http from 'http';
import { portOpen, reusedServerWarning, serverStatus, startServer, stopServer } from '../../infra/devServer';

function httpStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => http.get(url, (res) => { res.resume(); resolve(res.statusCode ?? 0); }).on('error', reject));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('start twice reuses one server; stop ends it', async () => {
  process.env.LOCKIN_HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-home-'));
  const port = 17233 + Math.floor(Math.random() * 500);
  const uiPort = port + 1000;
  const first = await startServer({ port, uiPort });
  try {
    const second = await startServer({ port, uiPort });
    expect(second.pid).toBe(first.pid);
    expect(second.address).toBe(`127.0.0.1:${port}`);
    expect(await httpStatus(`http://localhost:${uiPort}/`)).toBe(200);
    expect((await serverStatus())?.pid).toBe(first.pid);
    expect(fs.existsSync(path.join(process.env.LOCKIN_HOME!, 'temporal', 'temporal.db'))).toBe(true);
  } finally {
    expect(await stopServer()).toBe(true);
  }
  for (let i = 0; i < 50 && alive(first.pid); i++) await new Promise((r) => setTimeout(r, 100));
  expect(alive(first.pid)).toBe(false);
  expect(await portOpen(port)).toBe(false);
  expect(await serverStatus()).toBeNull();
  expect(await stopServer()).toBe(false);
}, 120_000);

test('a command asking for another port in the same lockin home is told it shares that home\'s server', () => {
  const running = { port: 7233, pid: 4242 };
  expect(reusedServerWarning(running, undefined, '/h/.lockin')).toBeNull();
  expect(reusedServerWarning(running, 7233, '/h/.lockin')).toBeNull();
  expect(reusedServerWarning(running, 7620, '/h/.lockin')).toBe(
    'LOCKIN_TEMPORAL_PORT=7620 is ignored: the Temporal server of /h/.lockin already runs on port 7233 (pid 4242), and this command uses it; its worker and the other commands\' workers serve each other\'s work, and one that ends cuts what it was running for the others. To run commands side by side, give each its own LOCKIN_HOME (and ports).',
  );
});
