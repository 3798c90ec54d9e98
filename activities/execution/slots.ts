/**
 * Warm Spark slots (README "How long it takes"; README "Security" for what a shared JVM leaves open).
 *
 * In `cold` mode (LOCKIN_SPARK_MODE=cold; the default where warm slots are not possible) every Spark job (a pytest run, a candidate execution or smoke
 * check, a suite over gold and its mutants) starts its own JVM inside its own sandbox, exactly as
 * before: runSparkJob is then runSandboxed. In `warm` mode a job runs in a *slot*: one
 * long-lived sandbox (the same bubblewrap policy: read-only runtime, the job kind's /lockin
 * mounts, a private size-limited /tmp, no network but a loopback) whose trusted supervisor
 * (activities/python/spark_slot.py) started ONE JVM with the study's recorded Spark settings and
 * keeps it warm. The job itself is still a fresh process with its own bubblewrap (sandbox.ts,
 * `slot`): same file-system view as a cold run's, same harness channel (fd 3) and output
 * descriptors, same limits; it attaches to the slot's JVM over the loopback
 * (spark_session.attach_session) and works in a SparkSession of its own.
 *
 * Slots are keyed by *profile*: the mount names, which of them are fixed (the study database,
 * bound once) and which are copied in before each job (the staged artifacts: the slot's JVM
 * sees them at the same /lockin paths as the job), the working folder, the environment and the
 * Spark settings, so the JVM's view, working folder and environment (what its Python workers
 * inherit) are those of a cold run of that kind of job. The pool (one per worker process) holds
 * at most LOCKIN_SPARK_SLOTS slots (default common/sparkMode.ts defaultSlotCount: room for each kind of job a study
 * runs concurrently, as memory allows),
 * starts them lazily, evicts the least recently used idle slot of another profile when full,
 * and stops them all when the worker stops (stopAllSlots); a killed worker takes its slots with
 * it (bubblewrap --die-with-parent), and a later worker removes their folders.
 *
 * After every job: the supervisor resets what a job may leave behind and compares the JVM's
 * shared state with its snapshot (spark_slot.py), and the pool looks for processes left in
 * the slot; any problem, a job that timed out, was cancelled or exceeded its memory, a slot
 * that grew past the job's memory limit, or LOCKIN_SLOT_MAX_JOBS jobs (default 40) restarts the
 * slot: the job's SandboxRun.spark says so (`restart`), and what was reset (`resets`). When
 * the slot's JVM died or stopped answering during the job, the job's outcome is discarded and the
 * job runs again cold (`spark.lostSlot`; rerunCold). Each slot runs as a host uid of its own
 * (sandbox.ts slotHostUid), its jobs too, so slots never share a process limit.
 *
 * Warm mode needs bubblewrap and root (a job enters the slot's namespaces with nsenter);
 * elsewhere a job asked to run warm runs cold, and says why (`spark.coldBecause`).
 */
import { spawn, type ChildProcess } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { pythonDir, venvPython } from '../common/paths';
import type { SparkMode, SparkSettings } from '../../protocol/settings';
import type { SparkRun } from '../../protocol/types';
import { sparkJitFromEnv, type SparkJit } from '../common/sparkJit';
import { dropPrivileges, namespaceArgs } from '../common/isolation';
import { resolveSparkMode, warmSlotLimit } from '../common/sparkMode';
import {
  DEFAULT_PROCESSES, DEFAULT_SCRATCH_MB, SCRATCH_PREFIX, javaHome, killGroup, ownedTempDir, prlimit,
  runSandboxed, runtimeBinds, slotHostUid, treeRssKb, withTraversableParents, writeEtc, type SandboxRun, type SandboxSpec, type SandboxTalk,
} from './sandbox';

/** What a Spark job asks of runSparkJob besides its sandbox: the mode and the settings its JVM runs with. */
export interface SparkJob {
  /** Requested mode; undefined: LOCKIN_SPARK_MODE, else warm (common/sparkMode.ts sparkModeFromEnv). */
  mode?: SparkMode;
  settings: SparkSettings;
  /** Mount names bound once into the slot (large, shared folders: the study database). */
  fixed?: string[];
}

/** A SandboxRun with how Spark ran it. */
export type SparkSandboxRun = SandboxRun & { spark: SparkRun };

/** The profile of a slot: what its JVM sees and inherits (see the module comment). */
interface Profile {
  refill: string[];
  fixed: Record<string, string>;
  cwd: string;
  env: Record<string, string>;
  settings: SparkSettings;
  scratchMb: number;
  processes: number;
  /** The JIT of the slot's JVM (LOCKIN_SPARK_JIT, activities/common/sparkJit.ts). */
  jit: SparkJit;
}

interface CheckReply {
  clean: boolean;
  problems: string[];
  resets: string[];
  /** The JVM exited or does not answer, or the slot ended or did not answer its check: the job may have seen it go. */
  jvmLost: boolean;
}

/** Messages of the supervisor, one JSON object per line on the channel. */
type SlotMessage = { event: 'ready'; port: number; secret: string; ms: number } | ({ event: 'checked'; nonce: string; ms: number } & Omit<CheckReply, 'jvmLost'> & { jvmLost?: boolean }) | { event: 'error'; reason: string };

let slotCounter = 0;
/** Host uids of the slots not yet stopped (slotHostUid skips them). */
const slotUids = new Set<number>();

/** One warm slot: its sandbox, supervisor and JVM. */
class Slot {
  readonly id = `slot-${process.pid}-${++slotCounter}`;
  readonly dir: string;
  /** The host uid of the slot's supervisor, JVM and jobs (sandbox.ts slotHostUid). */
  readonly uid: number;
  child?: ChildProcess;
  nsPid = -1;
  port = 0;
  secret = '';
  baselineKb = 0;
  jobs = 0;
  busy = false;
  lastUsed = Date.now();
  private lines: SlotMessage[] = [];
  private waiters: (() => void)[] = [];
  private buffer = '';
  private stderr = '';
  exited = false;

  constructor(readonly key: string, readonly profile: Profile) {
    this.uid = slotHostUid(slotUids);
    slotUids.add(this.uid);
    this.dir = ownedTempDir(SCRATCH_PREFIX);
    fs.chmodSync(this.dir, 0o755);
    for (const name of profile.refill) fs.mkdirSync(this.mountDir(name), { recursive: true, mode: 0o755 });
  }

  /** The host folder bound at /lockin/<name> (a refilled mount). */
  mountDir(name: string): string {
    return path.join(this.dir, 'm', name);
  }

  /** Starts the sandbox and waits for the supervisor's ready message. @throws Error with the supervisor's reason or stderr tail. */
  async start(timeoutMs = 10 * 60_000): Promise<void> {
    const p = this.profile;
    writeEtc(path.join(this.dir, 'etc'), this.uid);
    const at: Record<string, string> = { tmp: '/tmp' };
    for (const name of [...p.refill, ...Object.keys(p.fixed)]) at[name] = `/lockin/${name}`;
    const fsArgs = ['--perms', '1777', '--size', String(p.scratchMb * 1048576), '--tmpfs', '/tmp', ...runtimeBinds(path.join(this.dir, 'etc')), '--dev', '/dev', '--proc', '/proc'];
    for (const name of p.refill) fsArgs.push('--ro-bind', this.mountDir(name), at[name]);
    for (const [name, src] of Object.entries(p.fixed)) fsArgs.push('--ro-bind', path.resolve(src), at[name]);
    const jh = javaHome();
    const env: Record<string, string> = {
      PATH: '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin', HOME: '/tmp', TMPDIR: '/tmp', LANG: 'C.UTF-8', USER: 'lockin', SPARK_LOCAL_IP: '127.0.0.1',
      PYTHONPATH: pythonDir(), PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1', LOCKIN_FORBIDDEN: '[]', LOCKIN_ALLOWED: '[]',
      ...(jh ? { JAVA_HOME: jh } : {}), ...p.env, LOCKIN_CHANNEL_FD: '3', LOCKIN_SLOT_PRIVATE_TMP: '1', LOCKIN_SPARK_JIT: p.jit,
    };
    let args = [...namespaceArgs(), ...withTraversableParents(fsArgs), '--clearenv'];
    for (const [k, v] of Object.entries(env)) args.push('--setenv', k, v);
    const db = p.fixed.db ? ['--db', at.db] : [];
    args.push('--chdir', at[p.cwd] ?? '/tmp', '--', ...dropPrivileges(this.uid), venvPython(), path.join(pythonDir(), 'spark_slot.py'), '--settings', JSON.stringify(p.settings), '--scratch-mb', String(p.scratchMb), ...db);
    let cmd = 'bwrap';
    const limiter = prlimit();
    if (limiter) {
      args = [`--fsize=${p.scratchMb * 1048576}`, `--nproc=${p.processes}`, '--', cmd, ...args];
      cmd = limiter;
    }
    const child = spawn(cmd, args, { cwd: '/', env, detached: true, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
    this.child = child;
    slotStarts += 1;
    child.stdout!.on('data', () => undefined);
    child.stderr!.on('data', (b: Buffer) => (this.stderr = (this.stderr + b.toString()).slice(-16384)));
    const channel = child.stdio[3] as NodeJS.ReadableStream;
    channel.on('data', (b: Buffer) => this.onData(b.toString()));
    channel.on('error', () => undefined);
    child.stdin!.on('error', () => undefined);
    child.on('exit', () => {
      this.exited = true;
      this.wake();
    });
    for (const s of [child.stdout, child.stderr, channel, child.stdin] as unknown as { unref?: () => void }[]) s?.unref?.();
    child.unref();
    const ready = await this.next((m) => m.event === 'ready' || m.event === 'error', timeoutMs);
    if (!ready || ready.event !== 'ready') {
      this.stop();
      const why = ready?.event === 'error' ? ready.reason : this.exited ? 'the slot ended before it was ready' : `no ready message within ${Math.round(timeoutMs / 1000)} s`;
      throw new Error(`warm Spark slot did not start: ${why}\n${this.stderr.split('\n').slice(-15).join('\n')}`);
    }
    this.port = ready.port;
    this.secret = ready.secret;
    this.nsPid = findSupervisor(child.pid ?? -1);
    if (this.nsPid < 0) {
      this.stop();
      throw new Error('warm Spark slot did not start: its supervisor process was not found');
    }
    this.baselineKb = this.rssKb();
  }

  rssKb(): number {
    return this.child?.pid ? treeRssKb(this.child.pid) : 0;
  }

  private onData(text: string): void {
    this.buffer += text;
    let i: number;
    while ((i = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, i);
      this.buffer = this.buffer.slice(i + 1);
      try {
        this.lines.push(JSON.parse(line) as SlotMessage);
      } catch {
        /* not a message */
      }
    }
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** The next message satisfying `pred` (earlier others are dropped), or null on time-out or exit. */
  private async next(pred: (m: SlotMessage) => boolean, timeoutMs: number): Promise<SlotMessage | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.lines.length) {
        const m = this.lines.shift()!;
        if (pred(m)) return m;
      }
      if (this.exited || Date.now() >= deadline) return null;
      await new Promise<void>((resolve) => {
        // A ref'd timer: it keeps the process alive while lockin waits for the slot (its pipes are unref'd).
        const t = setTimeout(resolve, Math.max(10, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Asks the supervisor to reset and check (see spark_slot.py); a slot that does not answer is not clean. */
  async check(timeoutMs = 120_000): Promise<CheckReply> {
    if (this.exited) return { clean: false, problems: ['the slot ended'], resets: [], jvmLost: true };
    const nonce = crypto.randomBytes(12).toString('hex');
    this.child!.stdin!.write(`${JSON.stringify({ op: 'check', nonce })}\n`);
    const m = await this.next((x) => x.event === 'checked' && x.nonce === nonce, timeoutMs);
    if (!m || m.event !== 'checked') return { clean: false, problems: [this.exited ? 'the slot ended' : `the slot did not answer its check within ${timeoutMs / 1000} s`], resets: [], jvmLost: true };
    return { clean: m.clean, problems: m.problems, resets: m.resets, jvmLost: m.jvmLost === true };
  }

  /** Copies the job's staged folders into the slot's refilled mounts (regular files and folders only). */
  refill(mounts: Record<string, { source: string }>): void {
    for (const name of this.profile.refill) {
      const dir = this.mountDir(name);
      for (const e of fs.readdirSync(dir)) fs.rmSync(path.join(dir, e), { recursive: true, force: true });
      copyTree(mounts[name].source, dir);
    }
  }

  /** Resolves when the slot's sandbox has ended (at most `timeoutMs`). */
  async ended(timeoutMs = 10_000): Promise<void> {
    const pid = this.child?.pid;
    const deadline = Date.now() + timeoutMs;
    while (pid && Date.now() < deadline && (descendants(pid).length > 0 || alive(pid))) await new Promise((r) => setTimeout(r, 50));
  }

  stop(): void {
    if (this.child?.pid && !this.exited) {
      try {
        this.child.stdin?.write('{"op":"stop"}\n');
      } catch {
        /* gone */
      }
      killGroup(this.child.pid, 'SIGKILL');
    }
    this.exited = true;
    slotUids.delete(this.uid);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Copies the regular files and folders of `from` into `to` (symlinks and others skipped), readable by the sandbox's user. */
function copyTree(from: string, to: string): void {
  for (const e of fs.readdirSync(from)) {
    const src = path.join(from, e);
    const dst = path.join(to, e);
    const st = fs.lstatSync(src);
    if (st.isDirectory()) {
      fs.mkdirSync(dst, { mode: 0o755 });
      copyTree(src, dst);
    } else if (st.isFile()) {
      fs.copyFileSync(src, dst);
      fs.chmodSync(dst, 0o644);
    }
  }
}

/** The process table: pid → [ppid, command line, state]. */
function processTable(): Map<number, [number, string, string]> {
  const out = new Map<number, [number, string, string]>();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(e), [Number(ppid), fs.readFileSync(`/proc/${e}/cmdline`, 'utf8').replace(/\0/g, ' ').trim(), state]);
    } catch {
      /* ended meanwhile */
    }
  }
  return out;
}

/** Live descendants of `root` with their command lines (zombies are dead: a Spark launcher's leftover one is not a process that runs). */
function descendants(root: number, table = processTable()): [number, string][] {
  const kids = new Map<number, number[]>();
  for (const [pid, [ppid]] of table) kids.set(ppid, [...(kids.get(ppid) ?? []), pid]);
  const out: [number, string][] = [];
  const stack = [root];
  while (stack.length) for (const c of kids.get(stack.pop()!) ?? []) {
    const [, cmd, state] = table.get(c)!;
    if (state !== 'Z') out.push([c, cmd]);
    stack.push(c);
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function findSupervisor(root: number): number {
  return descendants(root).find(([, cmd]) => cmd.includes('spark_slot.py'))?.[0] ?? -1;
}

/**
 * Whether a process's command line is a Python worker daemon of the slot's JVM: lockin's
 * (`-m spark_worker_daemon`, spark_session.py WORKER_DAEMON) or PySpark's own (`-m pyspark.daemon`,
 * a JVM built without it). The reset stops the daemons; one still on its way out is waited for,
 * not counted as left running (when only PySpark's name was known, lockin's daemon, still
 * exiting, restarted the slot: 2 of 13 warm jobs in a three-task SF=1 bench).
 */
export function isWorkerDaemon(cmd: string): boolean {
  return /(^|\s)-m (spark_worker_daemon|pyspark\.daemon)(\s|$)/.test(cmd);
}

/**
 * Processes in the slot that are neither its bubblewrap, its supervisor, its JVM nor Python
 * workers on their way out: killed, and named (a problem: the slot is restarted).
 */
async function strayProcesses(slot: Slot): Promise<string[]> {
  if (!slot.child?.pid) return [];
  const expected = (cmd: string) => cmd.startsWith('bwrap ') || cmd.startsWith('prlimit ') || cmd.includes('spark_slot.py') || /\/java /.test(`${cmd} `) || cmd.includes('setpriv ');
  // A daemon, or a process whose command line is already gone (an exiting worker, pid only).
  const daemon = (cmd: string) => isWorkerDaemon(cmd) || cmd.trim() === '';
  let found = descendants(slot.child.pid).filter(([, cmd]) => !expected(cmd));
  // Python workers were stopped by the reset: give them a moment to leave.
  for (let i = 0; i < 30 && found.some(([, cmd]) => daemon(cmd)); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    found = descendants(slot.child.pid).filter(([, cmd]) => !expected(cmd));
  }
  for (const [pid] of found) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  return found.map(([pid, cmd]) => `a process was left running in the slot: ${cmd.slice(0, 200) || `pid ${pid}`}`);
}

let slotStarts = 0;

/** How many JVMs runSparkJob started in this process: slots started, and cold jobs. */
export function jvmStartCounts(): { slots: number; cold: number } {
  return { slots: slotStarts, cold: coldStarts };
}
let coldStarts = 0;

function maxJobs(): number {
  const n = Number(process.env.LOCKIN_SLOT_MAX_JOBS ?? 40);
  return Number.isInteger(n) && n > 0 ? n : 40;
}

/** The worker's slots. */
class SlotPool {
  private slots: Slot[] = [];
  private waiting: (() => void)[] = [];
  private starting = 0;

  /** A free slot of `key`, started when there is none (evicting an idle slot of another profile when full). */
  async acquire(key: string, profile: Profile): Promise<{ slot: Slot; started: boolean }> {
    for (;;) {
      this.slots = this.slots.filter((s) => !s.exited);
      const idle = this.slots.find((s) => !s.busy && s.key === key);
      if (idle) {
        idle.busy = true;
        return { slot: idle, started: false };
      }
      if (this.slots.length + this.starting >= warmSlotLimit()) {
        const victim = this.slots.filter((s) => !s.busy).sort((a, b) => a.lastUsed - b.lastUsed)[0];
        if (victim) {
          victim.stop();
          continue;
        }
        await new Promise<void>((resolve) => this.waiting.push(resolve));
        continue;
      }
      const slot = new Slot(key, profile);
      slot.busy = true;
      this.starting += 1;
      try {
        await slot.start();
      } catch (err) {
        slot.stop();
        throw err;
      } finally {
        this.starting -= 1;
      }
      this.slots.push(slot);
      return { slot, started: true };
    }
  }

  release(slot: Slot, restart: boolean): void {
    slot.busy = false;
    slot.lastUsed = Date.now();
    if (restart) {
      slot.stop();
      this.slots = this.slots.filter((s) => s !== slot);
    }
    const w = this.waiting;
    this.waiting = [];
    for (const f of w) f();
  }

  /** Stops every slot; resolves when their processes are gone. */
  async stopAll(): Promise<void> {
    const slots = this.slots;
    this.slots = [];
    for (const s of slots) s.stop();
    await Promise.all(slots.map((s) => s.ended()));
  }

  /** The live slots (for tests and doctor). */
  live(): { id: string; key: string; busy: boolean; jobs: number }[] {
    return this.slots.filter((s) => !s.exited).map((s) => ({ id: s.id, key: s.key, busy: s.busy, jobs: s.jobs }));
  }
}

const pool = new SlotPool();
process.once('exit', () => void pool.stopAll());

/** Stops every warm slot of this process (the worker's shutdown; tests' afterAll); resolves when their processes are gone. */
export function stopAllSlots(): Promise<void> {
  return pool.stopAll();
}

/** The live slots of this process. */
export function liveSlots(): { id: string; key: string; busy: boolean; jobs: number }[] {
  return pool.live();
}

/**
 * Runs `spec` as a Spark job: in cold mode exactly runSandboxed(spec); in warm mode as a job of
 * a slot of its profile (see the module comment), then resets and checks the slot, restarting
 * it when needed. When a slot cannot start, the job runs cold and says why; when the slot's JVM
 * was lost during the job (and the job was not cancelled), the job runs again cold (rerunCold).
 * Returns the SandboxRun with `spark` (mode, slot, job number, whether this job started the
 * JVM, what was reset, why the slot was restarted; `lostSlot` for a rerun; `ms`, where its wall
 * time went: the slot, the job's process, the check after it, SparkRun.ms). Throws what
 * runSandboxed throws.
 */
export async function runSparkJob(spec: SandboxSpec, job: SparkJob): Promise<SparkSandboxRun> {
  const { mode, coldBecause } = resolveSparkMode(job.mode);
  if (mode === 'cold') {
    coldStarts += 1;
    const run = await runSandboxed(spec);
    return { ...run, spark: { mode: 'cold', jit: sparkJitFromEnv(), jvmStarted: true, ...(coldBecause ? { coldBecause } : {}), ms: { slot: 0, process: run.durationMs, check: 0 } } };
  }
  const started0 = Date.now();
  const fixed = new Set(job.fixed ?? []);
  const at: Record<string, string> = { tmp: '/tmp' };
  for (const name of Object.keys(spec.mounts)) at[name] = `/lockin/${name}`;
  const profile: Profile = {
    refill: Object.keys(spec.mounts).filter((n) => !fixed.has(n)).sort(),
    fixed: Object.fromEntries(Object.entries(spec.mounts).filter(([n]) => fixed.has(n)).map(([n, m]) => [n, path.resolve(m.source)])),
    cwd: spec.cwd ?? 'tmp',
    env: spec.env ? spec.env(at, {}) : {},
    settings: job.settings,
    scratchMb: spec.scratchMb ?? DEFAULT_SCRATCH_MB,
    processes: spec.processes ?? DEFAULT_PROCESSES,
    jit: sparkJitFromEnv(),
  };
  const key = crypto.createHash('sha256').update(JSON.stringify(profile)).digest('hex').slice(0, 16);
  let acquired: { slot: Slot; started: boolean };
  try {
    acquired = await pool.acquire(key, profile);
  } catch (err) {
    coldStarts += 1;
    const run = await runSandboxed(spec);
    return { ...run, spark: { mode: 'cold', jit: sparkJitFromEnv(), jvmStarted: true, coldBecause: (err as Error).message.split('\n')[0], ms: { slot: Date.now() - started0 - run.durationMs, process: run.durationMs, check: 0 } } };
  }
  const { slot, started } = acquired;
  let restart: string | undefined;
  let resets: string[] = [];
  let lost: Parameters<typeof rerunCold>[1];
  try {
    slot.refill(spec.mounts);
    slot.jobs += 1;
    const slotMs = Date.now() - started0;
    const run = await runSandboxed({
      ...spec,
      mounts: Object.fromEntries(Object.keys(spec.mounts).map((n) => [n, { source: fixed.has(n) ? profile.fixed[n] : slot.mountDir(n) }])),
      slot: { nsPid: slot.nsPid, uid: slot.uid, env: { PYSPARK_GATEWAY_PORT: String(slot.port), PYSPARK_GATEWAY_SECRET: slot.secret, LOCKIN_SPARK_WARM: '1' }, rssKb: () => slot.rssKb(), baselineKb: slot.baselineKb },
      // A conversation (a suite job's zygote) may ask for the slot's reset and check between its variants.
      // Its check also kills and names what is left running in the slot (a process the JVM
      // started for a script), as after a job, so nothing outlives the variant it ran beside.
      stdin: typeof spec.stdin === 'function' ? ((talk: SandboxTalk) => (spec.stdin as (t: SandboxTalk) => void)({ ...talk, checkSlot: () => checkBetween(slot) })) : spec.stdin,
    });
    const problems: string[] = [];
    if (run.timedOut) problems.push('the job timed out');
    if (run.cancelled) problems.push('the job was cancelled');
    if (run.memoryExceeded) problems.push('the job exceeded its memory limit');
    const checkStarted = Date.now();
    const checked = await slot.check();
    resets = checked.resets;
    problems.push(...checked.problems, ...(await strayProcesses(slot)));
    const ms = { slot: slotMs, process: run.durationMs, check: Date.now() - checkStarted };
    if (spec.memoryLimitMb && slot.rssKb() > spec.memoryLimitMb * 1024) problems.push(`the slot holds ${Math.round(slot.rssKb() / 1024)} MiB (more than the job's limit of ${spec.memoryLimitMb} MiB)`);
    if (!problems.length && slot.jobs >= maxJobs()) problems.push(`recycled after ${slot.jobs} jobs (LOCKIN_SLOT_MAX_JOBS)`);
    if (problems.length) restart = problems.join('; ');
    if (checked.jvmLost && !run.cancelled) lost = { slot: slot.id, job: slot.jobs, reason: restart ?? checked.problems.join('; '), outputs: run.outputs, ms };
    else return { ...run, spark: { mode: 'warm', jit: profile.jit, slot: slot.id, job: slot.jobs, jvmStarted: started, ...(resets.length ? { resets } : {}), ...(restart ? { restart } : {}), ms } };
  } catch (err) {
    restart = `lockin's side failed: ${(err as Error).message.split('\n')[0]}`;
    throw err;
  } finally {
    pool.release(slot, restart !== undefined);
  }
  return rerunCold(spec, lost);
}

/** The slot's reset and check between the variants of one job (SandboxTalk.checkSlot), stray processes killed and counted as problems. */
async function checkBetween(slot: Slot): Promise<CheckReply> {
  const c = await slot.check();
  const strays = await strayProcesses(slot);
  return strays.length ? { ...c, clean: false, problems: [...c.problems, ...strays] } : c;
}

/**
 * The job again, cold, after its warm slot's JVM was lost while it ran (CheckReply.jvmLost): what
 * the job saw of a dying JVM is not its outcome (a suite's later variants failed in 0.2 s each
 * and would have counted as kills; the warm Spark slots' SF=1 bench), so the warm run's accepted outputs
 * are removed and the job runs once more in a sandbox and JVM of its own, exactly as in cold mode.
 * Returns that run, its `spark.lostSlot` naming the slot, the job number and the reason.
 */
async function rerunCold(spec: SandboxSpec, lost: { slot: string; job: number; reason: string; outputs: SandboxRun['outputs']; ms: NonNullable<SparkRun['ms']> }): Promise<SparkSandboxRun> {
  for (const o of Object.values(lost.outputs)) if ('file' in o) fs.rmSync(o.file, { force: true });
  coldStarts += 1;
  const run = await runSandboxed(spec);
  const ms = { slot: lost.ms.slot, process: lost.ms.process + run.durationMs, check: lost.ms.check };
  return { ...run, spark: { mode: 'cold', jit: sparkJitFromEnv(), jvmStarted: true, coldBecause: 'the warm slot\'s JVM was lost during the job, which ran again cold', lostSlot: { slot: lost.slot, job: lost.job, reason: lost.reason }, ms } };
}
