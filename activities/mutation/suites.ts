/**
 * Runs one frozen test suite against the gold solution and its mutants, sandboxed, in one
 * Python process per attempt (activities/python/suite_mutants.py): the measurement behind the
 * test-suite validity and mutation score (issue "Gold solutions and replay corpora").
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pythonDir, venvPython } from '../common/paths';
import { InputError } from '../common/errors';
import { SparkSettingsSchema, type SparkMode, type SparkSettings } from '../../protocol/settings';
import { ownedTempDir, replaceFile, toMiB } from '../execution/sandbox';
import { runSparkJob } from '../execution/slots';
import { resolveSparkMode } from '../common/sparkMode';
import { suiteProcesses } from '../common/sparkConcurrency';
import { sharedStateUse } from './sharedState';
import { activityHooks, throwIfCancelled } from '../execution/activityContext';
import { forbiddenPrefixes } from '../execution/staging';
import { parseJunit } from '../execution/junit';

/**
 * The first failing, erroring or uncollectable test of a JUnit report as one line
 * ("test_solution::test_totals: AssertionError: …", at most 300 characters), or undefined when
 * the file is missing, unreadable or has no failure.
 */
export function firstFailure(junitFile: string): string | undefined {
  try {
    for (const c of parseJunit(fs.readFileSync(junitFile, 'utf8'), junitFile)) {
      const d = c.details.find((x) => x.kind !== 'skipped');
      if (d) return `${c.id}: ${(d.message || d.text).split('\n').find((l) => l.trim()) ?? d.kind}`.slice(0, 300);
    }
  } catch {
    /* no report: the caller says why the run ended instead */
  }
  return undefined;
}

/** A solution the suite is run against: "gold" or a mutant id, and its solution.py. */
export interface SuiteVariant {
  id: string;
  solutionFile: string;
  /** Run only these tests (function names) on this variant, stopping at the first failure; each one's outcome is recorded as with `full`. */
  only?: string[];
}

/** How the suite ended on one variant. */
export interface VariantRun {
  variant: string;
  /** pytest's exit code (0 all passed, 1 a test failed, 2 interrupted/collection error,
   *  5 no tests); null when the run was stopped (timeout) or the process died. */
  exitCode: number | null;
  /** True only for exit code 0. */
  passed: boolean;
  /** not-run: the suite failed gold (invalid), so it was not run on the mutants after it. */
  status: 'completed' | 'timeout' | 'crash' | 'not-run';
  ms: number;
  /** For gold when the suite did not pass: the first failing test and its message (one line). */
  failure?: string;
  /** With `full`: every collected test's outcome and the obligations its markers name. */
  tests?: TestOutcome[];
}

/** One test's outcome in a `full` run (suite_mutants.py --full). */
export interface TestOutcome {
  name: string;
  obligations: string[];
  outcome: 'passed' | 'failed' | 'error' | 'skipped';
}

export interface RunSuiteInput {
  /** The frozen test_solution.py. */
  suiteFile: string;
  /** Run order; ids are letters, digits, dot, dash, underscore. "gold" runs the whole suite,
   *  every other variant stops at its first failing test (-x). */
  variants: SuiteVariant[];
  settings: SparkSettings;
  /** Receives junit-<variant>.xml, results.jsonl, spark.jsonl (SUITE_SPARK_FILE) and suite.log. */
  outDir: string;
  /** Wall-clock allowance per variant, ms (a process gets this × its variants + 90 s). */
  perVariantMs?: number;
  /** pytest-timeout per test, seconds (default 60). */
  perTestTimeoutS?: number;
  /**
   * When gold comes first and the suite does not pass on it, stop there: a suite invalid on gold
   * has no kills that count, so its mutant runs would only cost time. Default true.
   */
  stopIfGoldFails?: boolean;
  /** Run every test on every variant (no -x) and record each test's outcome (acceptance tests). */
  full?: boolean;
  /** Extra files written beside the suite in every variant's folder (name → content), e.g. the
   *  acceptance tests' tables.json. Names are plain file names. */
  extraFiles?: Record<string, string>;
  /** cold or warm (activities/execution/slots.ts); default LOCKIN_SPARK_MODE, else warm (sparkModeFromEnv). */
  sparkMode?: SparkMode;
  /** Variants at once (suite_mutants.py --processes); default suiteProcesses(mode). 1 whatever is asked when a text reaches shared state (sharedState.ts). */
  processes?: 1 | 2;
}

const ID = /^[A-Za-z0-9._-]+$/;

/**
 * `<outDir>/spark.jsonl`: how Spark ran each process of a runSuiteOnVariants call, one JSON line
 * per attempt: the job's SparkRun (mode; warm: slot, job number, whether it started the slot's
 * JVM, what was reset, why the slot was restarted after it) with `order`, the variants the
 * attempt was given, `processes` when it ran two variants at once, and `charged`, the variant
 * charged with the process's early end (absent when it finished them all, and after an attempt
 * of two processes, which charges none). The label and mutation suites are not activities of their own, so
 * `lockin study profile` and the bench count their JVM start-ups and restarts from these files
 * (client/jobWork.ts suiteSparkJobs).
 */
export const SUITE_SPARK_FILE = 'spark.jsonl';

/**
 * Runs the suite on every variant, each in a SparkSession of its own, two at a time when
 * `processes` (default suiteProcesses) is 2 and no text reaches what the sessions of a JVM share
 * (sharedState.ts): gold in the job's first process, the next variant beside it in the second;
 * under stopIfGoldFails a variant finished before gold's verdict counts only once gold passed. A process that ends early (wall-clock limit, crash, memory)
 * charges the variant it was on (status timeout/crash, passed false: a hang or crash of the
 * suite on a mutant counts as detecting it) and a new process continues with the rest; after
 * an early end with two variants running, nothing is charged and the rest runs one at a time.
 * A suite that fails gold (run first) is not run on the rest (status not-run; a variant that ran
 * beside gold, or was running when the attempt ended, included) unless stopIfGoldFails is false.
 * Returns one VariantRun per variant, in the given order.
 * Throws InputError for a missing suite or solution file or a bad variant id.
 */
export async function runSuiteOnVariants(input: RunSuiteInput): Promise<VariantRun[]> {
  if (!fs.existsSync(input.suiteFile)) throw new InputError('no frozen test suite', input.suiteFile);
  const settings = SparkSettingsSchema.parse(input.settings);
  for (const v of input.variants) {
    if (!ID.test(v.id)) throw new InputError(`bad variant id "${v.id}"`, undefined, 'variants');
    if (!fs.existsSync(v.solutionFile)) throw new InputError('no solution.py for variant', v.solutionFile, v.id);
  }
  const outDir = path.resolve(input.outDir);
  fs.mkdirSync(outDir, { recursive: true });
  const results = path.join(outDir, 'results.jsonl');
  const sparkLog = path.join(outDir, SUITE_SPARK_FILE);
  fs.rmSync(results, { force: true });
  fs.rmSync(sparkLog, { force: true });

  // Staged copies the sandbox's unprivileged user can read (0755 folders, 0644 files).
  const staged = ownedTempDir('lockin-stage-');
  const harness = ownedTempDir('lockin-stage-');
  for (const d of [staged, harness]) fs.chmodSync(d, 0o755);
  fs.writeFileSync(path.join(harness, 'pytest.ini'), '[pytest]\naddopts =\njunit_family = xunit2\njunit_logging = no\n', { mode: 0o644 });
  for (const v of input.variants) {
    fs.mkdirSync(path.join(staged, v.id), { mode: 0o755 });
    for (const [from, to] of [[v.solutionFile, 'solution.py'], [input.suiteFile, 'test_solution.py']]) {
      fs.copyFileSync(from, path.join(staged, v.id, to));
      fs.chmodSync(path.join(staged, v.id, to), 0o644);
    }
    for (const [name, content] of Object.entries(input.extraFiles ?? {})) {
      if (!ID.test(name) || name === 'solution.py' || name === 'test_solution.py') throw new InputError(`bad extra file name "${name}"`, undefined, 'extraFiles');
      fs.writeFileSync(path.join(staged, v.id, name), content, { mode: 0o644 });
    }
  }
  const done = new Map<string, VariantRun>();
  const log: string[] = [];
  const perVariant = input.perVariantMs ?? 5 * 60_000;
  const stopIfGoldFails = (input.stopIfGoldFails ?? true) && input.variants[0]?.id === 'gold';
  // Two variants at once (suite_mutants.py --processes 2) when the cores allow it and no text
  // reaches what the sessions of a JVM share (sharedState.ts); after an early end of such an
  // attempt nothing is charged and the rest runs one at a time, where the charge is exact.
  let processes: 1 | 2 = input.processes ?? suiteProcesses(resolveSparkMode(input.sparkMode).mode);
  if (processes > 1) {
    for (const f of [input.suiteFile, ...input.variants.map((v) => v.solutionFile)]) {
      const hit = sharedStateUse(fs.readFileSync(f, 'utf8'));
      if (hit) {
        log.push(`--- one variant at a time: ${path.basename(f)} line ${hit.line} ${hit.what} (${hit.text}) ---`);
        processes = 1;
        break;
      }
    }
  }
  try {
    while (done.size < input.variants.length) {
      const rest = input.variants.filter((v) => !done.has(v.id)).map((v) => v.id);
      const attemptProcesses = rest.length >= 3 ? processes : 1;
      const run = await runSparkJob({
        mounts: { variants: { source: staged }, harness: { source: harness } },
        ...(rest[0] === 'gold' ? { outputs: { goldJunit: path.join(outDir, 'junit-gold.xml') } } : {}),
        command: (at, fds) => [
          venvPython(), path.join(pythonDir(), 'suite_mutants.py'),
          '--variants', at.variants, '--order', rest.join(','), '--ini', `${at.harness}/pytest.ini`,
          ...(fds.goldJunit ? ['--gold-junit-fd', String(fds.goldJunit)] : []), '--settings', JSON.stringify(settings), '--per-test-timeout', String(input.perTestTimeoutS ?? 60),
          ...(stopIfGoldFails ? ['--stop-if-gold-fails'] : []),
          ...(input.full ? ['--full'] : []),
          ...(input.variants.some((v) => v.only) ? ['--only', JSON.stringify(Object.fromEntries(input.variants.filter((v) => v.only).map((v) => [v.id, v.only])))] : []),
          ...(attemptProcesses > 1 ? ['--processes', String(attemptProcesses)] : []),
        ],
        env: () => ({ LOCKIN_SPARK_SETTINGS: JSON.stringify(settings), PYTHONPATH: pythonDir(), PYTEST_ADDOPTS: '' }),
        timeoutMs: perVariant * rest.length + 90_000,
        memoryLimitMb: toMiB(settings.driverMemory) + 3072,
        forbidden: forbiddenPrefixes(),
        ...activityHooks(),
      }, { mode: input.sparkMode, settings });
      throwIfCancelled(run.cancelled);
      log.push(`--- attempt over ${rest.join(',')} (exit ${run.exitCode}, ${run.timedOut ? 'timed out' : 'ended'}) ---`, run.stderr.split('\n').slice(-60).join('\n'));
      const rows = resultLines(run.channel);
      if (rows.length) fs.appendFileSync(results, rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
      for (const r of rows) if (rest.includes(r.variant) && !done.has(r.variant)) done.set(r.variant, r);
      // Gold failed the suite: what has no row yet (the variant a second process was on when the
      // attempt ended) is not run, never run again without gold first.
      if (stopIfGoldFails && done.get('gold')?.passed === false) {
        const notRun = input.variants.filter((v) => !done.has(v.id)).map((v) => ({ variant: v.id, exitCode: null, passed: false, status: 'not-run' as const, ms: 0 }));
        for (const r of notRun) done.set(r.variant, r);
        if (notRun.length) fs.appendFileSync(results, notRun.map((r) => `${JSON.stringify(r)}\n`).join(''));
      }
      const next = rest.find((id) => !done.has(id));
      const parallel = attemptProcesses > 1;
      fs.appendFileSync(sparkLog, `${JSON.stringify({ ...run.spark, order: rest, ...(parallel ? { processes: attemptProcesses } : {}), ...(next !== undefined && !parallel ? { charged: next } : {}) })}\n`);
      if (next === undefined) break;
      if (parallel) {
        // Two variants were running: which one ended the process is not known. The rest runs
        // again one at a time, where an early end is charged to the variant it was on.
        log.push(`--- the attempt with ${attemptProcesses} processes ended early: the rest runs again one variant at a time ---`);
        processes = 1;
        continue;
      }
      // The variant the process was on when it ended is charged with the end.
      const status = run.timedOut ? 'timeout' : 'crash';
      done.set(next, { variant: next, exitCode: null, passed: false, status, ms: run.durationMs });
      fs.appendFileSync(results, `${JSON.stringify({ variant: next, exitCode: null, passed: false, status, ms: run.durationMs })}\n`);
      // Gold itself hung or crashed the process: the suite is invalid, the rest is not run.
      if (next === 'gold' && stopIfGoldFails) {
        for (const v of input.variants) if (!done.has(v.id)) done.set(v.id, { variant: v.id, exitCode: null, passed: false, status: 'not-run', ms: 0 });
      }
    }
  } finally {
    fs.rmSync(staged, { recursive: true, force: true });
    fs.rmSync(harness, { recursive: true, force: true });
    replaceFile(path.join(outDir, 'suite.log'), log.join('\n'));
  }
  const gold = done.get('gold');
  if (gold && !gold.passed) gold.failure = firstFailure(path.join(outDir, 'junit-gold.xml')) ?? (gold.status === 'completed' ? `pytest exit ${gold.exitCode}` : gold.status);
  return input.variants.map((v) => done.get(v.id)!);
}

/** The verdict lines suite_mutants.py wrote on the harness channel (lines that are not one are ignored). */
function resultLines(channel: string): VariantRun[] {
  const out: VariantRun[] = [];
  for (const l of channel.split('\n')) {
    try {
      const r = JSON.parse(l) as { variant?: unknown; exitCode: number | null; passed: boolean; ms: number; status?: VariantRun['status']; tests?: TestOutcome[] };
      if (typeof r?.variant !== 'string') continue;
      out.push({ variant: r.variant, exitCode: typeof r.exitCode === 'number' ? r.exitCode : null, passed: r.passed === true, ms: Number(r.ms) || 0, status: r.status ?? 'completed', ...(Array.isArray(r.tests) ? { tests: r.tests } : {}) });
    } catch {
      /* not a verdict line */
    }
  }
  return out;
}
