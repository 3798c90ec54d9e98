/**
 * Runs one untrusted command in an isolated process with a wall-clock limit and a memory
 * limit (isolation comes from the operating system).
 *
 * Isolation modes, best first (probed once per process; `LOCKIN_ISOLATION` forces one):
 * - "bwrap": bubblewrap with every namespace unshared (no network: only a loopback), all
 *   capabilities dropped, an unprivileged uid, and a root file system made of read-only binds of
 *   only what Python + Spark need (/usr, /etc/java*, the base Python, the venv, lockin's Python
 *   folder) plus the caller's named mounts at `/lockin/<name>` and a private /tmp. The study's
 *   references, labels, scores and other conditions' runs are simply not there.
 * - "unshare-net+checked": `unshare -n` (no network, loopback up) and the in-process check of
 *   activities/python/exec_guard.py (LOCKIN_FORBIDDEN); the file system is the host's.
 * - "checked-only": the in-process check alone.
 * In every mode the process gets its own process group, is terminated (SIGTERM, then SIGKILL
 * after a 2 s grace) when its time is up, and is killed when the resident memory of its whole
 * process tree exceeds `memoryLimitMb` (polled every 500 ms).
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pythonDir, REPO_ROOT } from '../common/paths';

export type IsolationMode = 'bwrap' | 'unshare-net+checked' | 'checked-only';

/** A host folder made visible to the sandboxed process. */
export interface SandboxMount {
  source: string;
  writable: boolean;
}

export interface SandboxSpec {
  /** Named host folders; inside bwrap each appears at `/lockin/<name>`, elsewhere at its own path. */
  mounts: Record<string, SandboxMount>;
  /** argv to run, given each mount's path as the process sees it (plus `tmp`). */
  command: (at: Record<string, string>) => string[];
  /** Extra environment variables (the environment is otherwise minimal, never inherited). */
  env?: (at: Record<string, string>) => Record<string, string>;
  /** Name of the mount to start in (default: tmp). */
  cwd?: string;
  /** Wall-clock limit in milliseconds. */
  timeoutMs: number;
  /** Kill when the process tree's resident memory exceeds this many MiB (0/undefined: no limit). */
  memoryLimitMb?: number;
  /** Host path prefixes the process must not read (enforced by exec_guard.py in every mode). */
  forbidden: string[];
  /** Kills the process tree when aborted (e.g. the Temporal activity's cancellation signal). */
  signal?: AbortSignal;
  /** Called every 5 s while the process runs (e.g. an activity heartbeat). */
  onAlive?: () => void;
}

export interface SandboxRun {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** True when the memory watchdog killed the process tree. */
  memoryExceeded: boolean;
  /** True when `signal` aborted the run. */
  cancelled: boolean;
  /** The last 1 MiB of stdout. */
  stdout: string;
  /** The last 64 KiB of stderr. */
  stderr: string;
  durationMs: number;
  isolation: IsolationMode;
}

const STDOUT_CAP = 1 << 20;
const STDERR_CAP = 64 << 10;
const KILL_GRACE_MS = 2000;

let cachedMode: IsolationMode | undefined;

/** The isolation this machine allows (probed once): see the module comment. */
export function isolationMode(): IsolationMode {
  const forced = process.env.LOCKIN_ISOLATION;
  if (forced === 'bwrap' || forced === 'unshare-net+checked' || forced === 'checked-only') return forced;
  if (cachedMode) return cachedMode;
  const ok = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore', timeout: 10000 }).status === 0;
  if (ok('bwrap', ['--unshare-all', '--die-with-parent', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--proc', '/proc', 'true'])) cachedMode = 'bwrap';
  else if (ok('unshare', ['-n', 'sh', '-c', 'ip link set lo up'])) cachedMode = 'unshare-net+checked';
  else cachedMode = 'checked-only';
  return cachedMode;
}

/** The base interpreter's prefix behind the venv (pyvenv.cfg `home` is `<prefix>/bin`). */
function basePythonPrefix(venv: string): string | null {
  try {
    const cfg = fs.readFileSync(path.join(venv, 'pyvenv.cfg'), 'utf8');
    const home = /^home\s*=\s*(.+)$/m.exec(cfg)?.[1]?.trim();
    return home ? path.dirname(home) : null;
  } catch {
    return null;
  }
}

/** JAVA_HOME from the environment, else from the `java` on PATH (…/bin/java → …). */
function javaHome(): string | undefined {
  if (process.env.JAVA_HOME) return process.env.JAVA_HOME;
  const r = spawnSync('sh', ['-c', 'readlink -f "$(command -v java)"'], { encoding: 'utf8' });
  const java = r.stdout?.trim();
  return java ? path.dirname(path.dirname(java)) : undefined;
}

/** Files of the sandbox's /etc: a user, localhost and file-only name lookup. */
function writeEtc(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'passwd'), 'lockin:x:1000:1000:lockin candidate:/tmp:/bin/sh\n');
  fs.writeFileSync(path.join(dir, 'group'), 'lockin:x:1000:\n');
  fs.writeFileSync(path.join(dir, 'hosts'), '127.0.0.1 localhost lockin\n::1 localhost\n');
  fs.writeFileSync(path.join(dir, 'nsswitch.conf'), 'passwd: files\ngroup: files\nhosts: files\n');
}

/** bwrap arguments for the read-only runtime (system, Java, Python, lockin's scripts). */
function runtimeBinds(etcDir: string): string[] {
  const a: string[] = ['--ro-bind', '/usr', '/usr'];
  for (const l of ['bin', 'sbin', 'lib', 'lib64', 'lib32']) {
    const p = `/${l}`;
    if (!fs.existsSync(p)) continue;
    if (fs.lstatSync(p).isSymbolicLink()) a.push('--symlink', fs.readlinkSync(p), p);
    else a.push('--ro-bind', p, p);
  }
  for (const e of fs.readdirSync('/etc')) {
    if (e === 'alternatives' || e.startsWith('java')) a.push('--ro-bind', `/etc/${e}`, `/etc/${e}`);
  }
  if (fs.existsSync('/etc/localtime')) a.push('--ro-bind', '/etc/localtime', '/etc/localtime');
  for (const f of ['passwd', 'group', 'hosts', 'nsswitch.conf']) a.push('--ro-bind', path.join(etcDir, f), `/etc/${f}`);
  const venv = path.join(REPO_ROOT, '.venv');
  const base = basePythonPrefix(venv);
  if (base && !base.startsWith('/usr/')) a.push('--ro-bind', base, base);
  a.push('--ro-bind', venv, venv, '--ro-bind', pythonDir(), pythonDir());
  return a;
}

/** Resident memory (KiB) of `root` and all its descendants, from /proc. */
function treeRssKb(root: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(e);
      const ppid = Number(fields[1]);
      rss.set(pid, Number(fields[21]) * 4); // rss in pages (4 KiB)
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      /* the process ended meanwhile */
    }
  }
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const p = stack.pop()!;
    total += rss.get(p) ?? 0;
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

/** A JVM memory string ("4g", "512m", "2048k", bytes) in MiB; 4096 when unreadable. */
export function toMiB(mem: string): number {
  const m = /^(\d+)([kmgt]?)b?$/i.exec(mem.trim());
  if (!m) return 4096;
  const n = Number(m[1]);
  const unit = m[2].toLowerCase();
  if (unit === 'k') return Math.ceil(n / 1024);
  if (unit === 'g') return n * 1024;
  if (unit === 't') return n * 1024 * 1024;
  return unit === 'm' ? n : Math.ceil(n / 1048576);
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  if (!Number.isInteger(pid) || pid <= 1) return; // never signal init or every process
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

/**
 * Runs `spec.command` isolated as described in the module comment.
 * Returns how it ended (exit code or signal, timeout, memory kill, output tails, duration,
 * isolation mode); never throws for anything the process does. Throws only when the sandbox
 * itself cannot be set up (e.g. a mount source is missing: Error naming the mount).
 */
export async function runSandboxed(spec: SandboxSpec): Promise<SandboxRun> {
  const mode = isolationMode();
  for (const [name, m] of Object.entries(spec.mounts)) {
    if (!fs.existsSync(m.source)) throw new Error(`sandbox: mount "${name}" source ${m.source} does not exist`);
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-sbx-'));
  const tmp = path.join(scratch, 'tmp');
  fs.mkdirSync(tmp);
  const at: Record<string, string> = {};
  for (const name of Object.keys(spec.mounts)) at[name] = mode === 'bwrap' ? `/lockin/${name}` : path.resolve(spec.mounts[name].source);
  at.tmp = mode === 'bwrap' ? '/tmp' : tmp;
  const allowed = Object.values(spec.mounts).map((m) => path.resolve(m.source));
  const jh = javaHome();
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin',
    HOME: at.tmp,
    TMPDIR: at.tmp,
    LANG: 'C.UTF-8',
    USER: 'lockin',
    SPARK_LOCAL_IP: '127.0.0.1',
    PYTHONPATH: pythonDir(),
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONUNBUFFERED: '1',
    LOCKIN_FORBIDDEN: JSON.stringify(spec.forbidden.map((p) => path.resolve(p))),
    LOCKIN_ALLOWED: JSON.stringify(mode === 'bwrap' ? [] : allowed),
    ...(jh ? { JAVA_HOME: jh } : {}),
    ...(spec.env ? spec.env(at) : {}),
  };
  const argv = spec.command(at);
  const cwd = at[spec.cwd ?? 'tmp'];
  let cmd: string;
  let args: string[];
  if (mode === 'bwrap') {
    writeEtc(path.join(scratch, 'etc'));
    args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--uid', '1000', '--gid', '1000', '--hostname', 'lockin'];
    // The private /tmp first: a repository (and so its venv) may itself live under /tmp, and a
    // later bind must not be hidden by it.
    args.push('--bind', tmp, '/tmp', ...runtimeBinds(path.join(scratch, 'etc')), '--dev', '/dev', '--proc', '/proc');
    for (const [name, m] of Object.entries(spec.mounts)) args.push(m.writable ? '--bind' : '--ro-bind', path.resolve(m.source), at[name]);
    args.push('--clearenv');
    for (const [k, v] of Object.entries(env)) args.push('--setenv', k, v);
    args.push('--chdir', cwd, '--', ...argv);
    cmd = 'bwrap';
  } else if (mode === 'unshare-net+checked') {
    cmd = 'unshare';
    args = ['-n', 'sh', '-c', 'ip link set lo up && exec "$@"', 'lockin-sandbox', ...argv];
  } else {
    cmd = argv[0];
    args = argv.slice(1);
  }

  const started = Date.now();
  const child = spawn(cmd, args, { cwd: mode === 'bwrap' ? scratch : cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout = (stdout + b.toString()).slice(-STDOUT_CAP)));
  child.stderr.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-STDERR_CAP)));
  let timedOut = false;
  let memoryExceeded = false;
  const pid = child.pid ?? -1;
  const terminate = () => {
    killGroup(pid, 'SIGTERM');
    setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS).unref();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    terminate();
  }, spec.timeoutMs);
  const watchdog = spec.memoryLimitMb
    ? setInterval(() => {
        if (!memoryExceeded && treeRssKb(pid) > spec.memoryLimitMb! * 1024) {
          memoryExceeded = true;
          killGroup(pid, 'SIGKILL');
        }
      }, 500)
    : undefined;
  let cancelled = false;
  const onAbort = () => {
    cancelled = true;
    terminate();
  };
  if (spec.signal?.aborted) onAbort();
  spec.signal?.addEventListener('abort', onAbort);
  const alive = spec.onAlive ? setInterval(spec.onAlive, 5000) : undefined;
  const ended = await new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.on('error', (err) => {
      stderr += `\nsandbox: ${cmd} could not start: ${err.message}`;
      resolve({ code: null, signal: null });
    });
    let closed = false;
    child.on('close', (code, signal) => {
      closed = true;
      resolve({ code, signal });
    });
    // A descendant still holding the pipes open must not keep us waiting.
    child.on('exit', () => setTimeout(() => !closed && killGroup(pid, 'SIGKILL'), 5000).unref());
  });
  clearTimeout(timer);
  if (watchdog) clearInterval(watchdog);
  if (alive) clearInterval(alive);
  spec.signal?.removeEventListener('abort', onAbort);
  killGroup(pid, 'SIGKILL'); // anything left behind in the group
  fs.rmSync(scratch, { recursive: true, force: true });
  return {
    exitCode: ended.code,
    signal: ended.signal,
    timedOut,
    memoryExceeded,
    cancelled,
    stdout,
    stderr,
    durationMs: Date.now() - started,
    isolation: mode,
  };
}
