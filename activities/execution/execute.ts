/**
 * Candidate execution (docs/protocol.md §4 "Execution") and the smoke check: a fresh Python
 * process in the sandbox imports the frozen solution.py and calls solve(spark, tables) on the
 * study database (activities/python/exec_candidate.py). Every way the candidate can end is an
 * outcome, never an exception of the activity.
 */
import * as fs from 'fs';
import * as path from 'path';
import { tableFromIPC } from 'apache-arrow';
import { z } from 'zod';
import { databaseDir, pythonDir, venvPython } from '../common/paths';
import { InputError } from '../common/errors';
import { SparkSettingsSchema, type SparkMode, type SparkSettings } from '../../protocol/settings';
import type { ExecutionOutcome, ExecutionStatus, SmokeOutcome } from '../../protocol/types';
import { replaceFile, toMiB } from './sandbox';
import { runSparkJob, type SparkSandboxRun } from './slots';
import { activityHooks, throwIfCancelled } from './activityContext';
import { forbiddenPrefixes, stageArtifacts } from './staging';
import { reuseKey, reuseRun } from './reuse';
import { databaseMounts } from './databases';

/** The result line of exec_candidate.py / smoke.py, on the harness channel (fd 3). */
const ResultLine = z.object({
  status: z.enum(['ok', 'exception', 'out-of-memory', 'forbidden-access', 'missing-solution', 'harness-error']),
  reason: z.string().optional(),
  rows: z.number().int().nonnegative().optional(),
  schema: z.string().optional(),
  forbidden: z.array(z.string()).optional(),
  phasesMs: z.record(z.string(), z.number()).optional(),
});
type ResultLine = z.infer<typeof ResultLine>;

/** lockin itself failed (Spark did not start, the database did not load): retryable. */
export class HarnessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HarnessError';
  }
}

export interface ExecuteCandidateInput {
  /** The condition's frozen artifact folder (holds solution.py). */
  dir: string;
  /** Scale factor of the study database (the paper: 1). */
  scale: number;
  settings: SparkSettings;
  /** Receives output.arrow, schema.json and execution.log. */
  outDir: string;
  /** Wall-clock limit, milliseconds. */
  timeoutMs: number;
  /** Memory limit, MiB, on top of the JVM heap (settings.driverMemory): the candidate's Python
   *  may grow by this much after Spark started (RLIMIT_AS), and the whole process tree may hold
   *  at most driverMemory + memoryMb + 1024 MiB resident (watchdog). */
  memoryMb: number;
  /** Typed database folder; default databaseDir(scale). */
  dbDir?: string;
  /** The study id: an identical execution in the same study is made once (activities/execution/reuse.ts). */
  reuseScope?: string;
  /** cold or warm (activities/execution/slots.ts); default LOCKIN_SPARK_MODE, else warm (sparkModeFromEnv). */
  sparkMode?: SparkMode;
}

export interface SmokeCheckInput {
  dir: string;
  scale: number;
  settings: SparkSettings;
  /** Default 5 minutes. */
  timeoutMs?: number;
  dbDir?: string;
  /** cold or warm (activities/execution/slots.ts); default LOCKIN_SPARK_MODE, else warm (sparkModeFromEnv). */
  sparkMode?: SparkMode;
}

/** What the harness channel said: the result line, and whether candidate code had started. */
export interface ChannelResult {
  result: ResultLine | null;
  /** True when `{"event": "candidate-start"}` came before the result line. */
  afterCandidateStart: boolean;
}

/**
 * Reads exec_candidate.py's channel text: the last line that is a valid result object, and
 * whether the `candidate-start` marker preceded it. Lines that are not JSON or not a result
 * are ignored. Pure.
 */
export function readChannel(text: string): ChannelResult {
  let started = false;
  let out: ChannelResult = { result: null, afterCandidateStart: false };
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      continue;
    }
    if ((obj as { event?: string })?.event === 'candidate-start') {
      started = true;
      continue;
    }
    const parsed = ResultLine.safeParse(obj);
    if (parsed.success) out = { result: parsed.data, afterCandidateStart: started };
  }
  return out;
}

function tail(text: string, n = 15): string {
  return text.trim().split('\n').slice(-n).join('\n');
}

interface SandboxedCandidate {
  run: SparkSandboxRun;
  result: ResultLine | null;
  afterCandidateStart: boolean;
}

async function runCandidateScript(
  mode: 'execute' | 'smoke',
  dir: string,
  dbDir: string,
  scale: number,
  settings: SparkSettings,
  timeoutMs: number,
  memoryMb: number,
  outputs: { arrow: string; schema: string } | undefined,
  sparkMode: SparkMode | undefined,
): Promise<SandboxedCandidate> {
  const staged = stageArtifacts(dir, ['solution.py']);
  const dbs = databaseMounts(dbDir, scale);
  try {
    const run = await runSparkJob({
      mounts: { candidate: { source: staged }, ...dbs.mounts },
      ...(outputs ? { outputs } : {}),
      command: (at, fds) => [
        venvPython(), path.join(pythonDir(), mode === 'execute' ? 'exec_candidate.py' : 'smoke.py'),
        ...(mode === 'execute' ? ['--mode', 'execute', '--arrow-fd', String(fds.arrow), '--schema-fd', String(fds.schema)] : []),
        '--candidate', at.candidate, '--db', dbs.dbPath(at), '--settings', JSON.stringify(settings),
        '--python-memory-mb', String(memoryMb),
      ],
      timeoutMs,
      memoryLimitMb: toMiB(settings.driverMemory) + memoryMb + 1024,
      forbidden: forbiddenPrefixes(),
      ...activityHooks(),
    }, { mode: sparkMode, settings, fixed: dbs.fixed });
    throwIfCancelled(run.cancelled);
    return { run, ...readChannel(run.channel) };
  } finally {
    fs.rmSync(staged, { recursive: true, force: true });
  }
}

/**
 * Maps how the sandboxed process ended to a status + reason (timeouts and kills first).
 * A "harness-error" result is lockin's own failure (HarnessError, retried) only when it came
 * before candidate code started; after that, the candidate could have written it, so it is the
 * candidate's crash (a candidate cannot change its task's fate).
 */
function verdict(c: SandboxedCandidate, timeoutMs: number, memLimitMb: number): { status: ExecutionStatus; reason?: string } {
  const { run, result } = c;
  if (run.timedOut) return { status: 'timeout', reason: `no result within ${Math.round(timeoutMs / 1000)} s; the process tree was killed` };
  if (run.memoryExceeded) return { status: 'out-of-memory', reason: `the process tree exceeded ${memLimitMb} MiB resident memory and was killed` };
  if (!result) {
    const how = run.signal ? `killed by ${run.signal}` : `exit ${run.exitCode}`;
    const oom = /OutOfMemoryError|MemoryError|Cannot allocate memory/.test(run.stderr);
    return { status: oom ? 'out-of-memory' : 'crash', reason: `candidate process ended without a result (${how}): ${tail(run.stderr)}` };
  }
  if (result.status === 'harness-error' && c.afterCandidateStart) {
    return { status: 'crash', reason: `a harness-error result was reported after candidate code had started, so it counts as the candidate's crash: ${result.reason ?? ''}`.trim() };
  }
  if (result.status === 'harness-error') throw new HarnessError(`candidate harness failed: ${result.reason ?? ''}\n${tail(run.stderr)}`);
  return { status: result.status, reason: result.reason };
}

function checkInputs(dir: string, dbDir: string, settings: SparkSettings): SparkSettings {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new InputError('artifact folder does not exist', dir, 'dir');
  if (!fs.existsSync(dbDir)) throw new InputError('database folder does not exist (run `lockin data prepare`)', dbDir, 'dbDir');
  return SparkSettingsSchema.parse(settings);
}

/**
 * Executes the frozen candidate on the study database in the sandbox.
 * Writes `<outDir>/output.arrow` (Arrow IPC file) and `<outDir>/schema.json` (Spark schema
 * JSON) when the candidate succeeds, and `<outDir>/execution.log` (stderr tail) always; stale
 * outputs are removed first. outDir is never visible in the sandbox: the outputs arrive
 * through descriptors the harness opened (sandbox.ts "outputs"), and a refused output (not a
 * regular file with one link) makes the run a crash. Returns the ExecutionOutcome (status ok | exception | timeout |
 * out-of-memory | forbidden-access | crash | missing-solution, with a reason; rows counted
 * from the Arrow file itself; isolation mode). Throws InputError for a missing folder or bad
 * settings, HarnessError (retryable) when lockin's own side failed (Spark, database).
 */
export async function executeCandidate(input: ExecuteCandidateInput): Promise<ExecutionOutcome> {
  const dbDir = path.resolve(input.dbDir ?? databaseDir(input.scale));
  const settings = checkInputs(input.dir, dbDir, input.settings);
  const outDir = path.resolve(input.outDir);
  fs.mkdirSync(outDir, { recursive: true });
  const outputFile = path.join(outDir, 'output.arrow');
  const schemaFile = path.join(outDir, 'schema.json');
  for (const f of [outputFile, schemaFile]) fs.rmSync(f, { force: true });
  const started = Date.now();
  if (!fs.existsSync(path.join(input.dir, 'solution.py'))) {
    return { status: 'missing-solution', reason: `${input.dir}: no solution.py in the frozen artifacts`, isolation: 'none', durationMs: 0 };
  }
  const manifest = path.join(dbDir, 'manifest.json');
  return reuseRun<ExecutionOutcome>({
    scope: input.reuseScope,
    kind: 'execute',
    key: reuseKey([{ file: path.join(input.dir, 'solution.py') }, { file: manifest }, dbDir, JSON.stringify(settings), String(input.timeoutMs), String(input.memoryMb)]),
    outDir,
    files: [['output.arrow', 'output.arrow'], ['schema.json', 'schema.json'], ['execution.log', 'execution.log']],
    run: () => executeOnce(input, dbDir, settings, outDir, outputFile, schemaFile, started),
    reusable: (o) => ['ok', 'exception', 'forbidden-access'].includes(o.status),
    relocate: (o, dir) => (o.status === 'ok' ? { ...o, outputFile: path.join(dir, 'output.arrow'), schemaFile: path.join(dir, 'schema.json') } : o),
  });
}

async function executeOnce(input: ExecuteCandidateInput, dbDir: string, settings: SparkSettings, outDir: string, outputFile: string, schemaFile: string, started: number): Promise<ExecutionOutcome> {
  const memLimit = toMiB(settings.driverMemory) + input.memoryMb + 1024;
  const c = await runCandidateScript('execute', input.dir, dbDir, input.scale, settings, input.timeoutMs, input.memoryMb, { arrow: outputFile, schema: schemaFile }, input.sparkMode);
  replaceFile(path.join(outDir, 'execution.log'), c.run.stderr);
  const base = { isolation: c.run.isolation, limits: c.run.limits, spark: c.run.spark, durationMs: Date.now() - started };
  let v = verdict(c, input.timeoutMs, memLimit);
  const refused = Object.entries(c.run.outputs).flatMap(([name, o]) => ('refused' in o ? [`${name}: ${o.refused}`] : []));
  if (v.status === 'ok' && refused.length) v = { status: 'crash', reason: `candidate reported success but its output was refused (${refused.join('; ')})` };
  if (v.status === 'ok') {
    try {
      const rows = tableFromIPC(fs.readFileSync(outputFile)).numRows;
      if (!fs.existsSync(schemaFile)) throw new Error('schema.json missing');
      return { status: 'ok', outputFile, schemaFile, rows, ...base };
    } catch (err) {
      v = { status: 'crash', reason: `candidate reported success but its output is unusable: ${(err as Error).message}` };
    }
  }
  for (const f of [outputFile, schemaFile]) fs.rmSync(f, { force: true });
  return { status: v.status, ...(v.reason ? { reason: v.reason } : {}), ...base };
}

/**
 * The smoke check (non-evaluative, recorded separately): does solve(spark, tables) return a
 * DataFrame whose schema Spark can analyse? Runs in the same sandbox, collects nothing.
 * Returns { ok, reason? (status and reason when not ok), schema? (Spark simpleString), durationMs }.
 * Throws InputError for bad inputs, HarnessError when lockin's own side failed.
 */
export async function smokeCheck(input: SmokeCheckInput): Promise<SmokeOutcome> {
  const dbDir = path.resolve(input.dbDir ?? databaseDir(input.scale));
  const settings = checkInputs(input.dir, dbDir, input.settings);
  const started = Date.now();
  if (!fs.existsSync(path.join(input.dir, 'solution.py'))) return { ok: false, reason: 'missing-solution: no solution.py', durationMs: 0 };
  const timeoutMs = input.timeoutMs ?? 300000;
  const c = await runCandidateScript('smoke', input.dir, dbDir, input.scale, settings, timeoutMs, 1024, undefined, input.sparkMode);
  const v = verdict(c, timeoutMs, toMiB(settings.driverMemory) + 2048);
  const durationMs = Date.now() - started;
  if (v.status === 'ok') return { ok: true, ...(c.result?.schema ? { schema: c.result.schema } : {}), durationMs, spark: c.run.spark };
  return { ok: false, reason: `${v.status}: ${v.reason ?? ''}`.trim(), durationMs, spark: c.run.spark };
}
