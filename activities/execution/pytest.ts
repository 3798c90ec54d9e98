/**
 * The pytest activity: runs a condition's test_solution.py against its solution.py inside the
 * sandbox and records the test outcome (docs/protocol.md §4 "Test outcome").
 *
 * How the harness stays in charge (docs/verdicts.md): both files first pass the reach check
 * (activities/execution/reach.ts; a refused file is never run: "not passed: reaches …"); only
 * solution.py and the suite are staged into the sandbox; the program is lockin's runner
 * (activities/python/verdict_runner.py: reads the run's token on stdin, keeps the channel private,
 * makes itself non-dumpable and installs its runtime guard before any candidate code, then calls
 * pytest with `--noconftest`, `-c <harness pytest.ini>`, `--rootdir` the staged folder, lockin's
 * plugin object (the `spark` fixture) and `-p no:cacheprovider`, and reports after pytest
 * returned); the verdict is decided here (verdict.ts) from the tokened messages, cross-checked
 * with the test functions the reach check read from the suite. `solution` is importable because
 * the staged folder is on PYTHONPATH and is pytest's rootdir.
 */
import * as fs from 'fs';
import * as path from 'path';
import { SparkSettingsSchema, type SparkMode, type SparkSettings } from '../../protocol/settings';
import type { PytestCounts, PytestOutcome } from '../../protocol/types';
import { InputError } from '../common/errors';
import { pythonDir, venvPython } from '../common/paths';
import { formatFailures } from './junit';
import { clipBytes } from '../common/bytes';
import { replaceFile, toMiB } from './sandbox';
import { runSparkJob } from './slots';
import { pytestVerdict } from './verdict';
import { reachCheck, refusalsReason } from './reach';
import * as crypto from 'crypto';
import { activityHooks, throwIfCancelled } from './activityContext';
import { forbiddenPrefixes, stageArtifacts } from './staging';
import { reuseKey, reuseRun } from './reuse';
import { sha256File } from '../common/hash';

export interface RunPytestInput {
  /** The condition's artifact folder (holds solution.py and test_solution.py). */
  dir: string;
  /** The study's recorded Spark settings. */
  settings: SparkSettings;
  /** Wall-clock limit for the whole pytest run, in milliseconds. */
  timeoutMs: number;
  /** Names this run's files, e.g. "initial", "revise-1" (letters, digits, dot, dash, underscore). */
  runLabel: string;
  /** Where the JUnit XML, the failure summary and the log go (default `<dir>/../pytest`). */
  outDir?: string;
  /** Per-test limit (pytest-timeout), seconds; default half the run's limit, at least 10 s. */
  perTestTimeoutS?: number;
  /** Memory beyond the JVM heap, MiB (default 2048): the whole run (pytest + JVM) is killed
   *  when it holds more than driverMemory + memoryMb + 1024 MiB resident. */
  memoryMb?: number;
  /** The study id: an identical completed run in the same study is made once (activities/execution/reuse.ts). */
  reuseScope?: string;
  /** The suite to run (default test_solution.py; Contract-First also runs its frozen contract_test.py). */
  suite?: 'test_solution.py' | 'contract_test.py';
  /** When set, the suite's sha256 must equal it, else nothing runs (the frozen contract suite). */
  suiteSha256?: string;
  /** cold or warm (activities/execution/slots.ts); default LOCKIN_SPARK_MODE, else warm (sparkModeFromEnv). */
  sparkMode?: SparkMode;
  /** false only in the tests of the layers behind the reach check (test/execution/hostile.test.ts): runs a suite the check would refuse. Default true. */
  reachCheck?: boolean;
}

const ZERO: PytestCounts = { passed: 0, failed: 0, errored: 0, collectionFailed: 0, skipped: 0, total: 0 };

/**
 * Runs pytest on `<dir>/test_solution.py` in the sandbox (activities/execution/sandbox.ts).
 * Writes `<outDir>/junit-<runLabel>.xml` (when pytest produced it: a record only, never read
 * for the verdict), `<outDir>/failures-<runLabel>.md` (always: the revision feedback) and
 * `<outDir>/pytest-<runLabel>.log` (console output). outDir is never visible in the sandbox: the
 * JUnit file arrives through a descriptor the harness opened, the rest the harness writes itself.
 * The verdict comes from the harness channel (activities/execution/verdict.ts): status
 * "completed" when pytest ended by itself with the harness's final report, "timeout" when the
 * wall-clock limit killed it, "crash" otherwise (no final report, killed, missing test file);
 * `passed` only for exit 0 with no failed/errored/collection-failed case, at least one passed
 * test and no veto (`notPassedBecause` says which). A run that ran out of time (status
 * "timeout", or a test stopped by pytest-timeout: `timedOutTests`) and did not pass is run once
 * more; the second attempt is the outcome, with the first summarised in `rerunAfterTimeout` and
 * its files kept as `*.attempt-1.*` (docs/protocol.md §4 "Test outcome").
 * Throws InputError only for bad arguments (missing dir, bad settings or run label).
 */
export async function runPytest(input: RunPytestInput): Promise<PytestOutcome> {
  const { dir, timeoutMs, runLabel } = input;
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new InputError('artifact folder does not exist', dir, 'dir');
  if (!/^[A-Za-z0-9._-]+$/.test(runLabel)) throw new InputError(`bad run label "${runLabel}"`, undefined, 'runLabel');
  const settings = SparkSettingsSchema.parse(input.settings);
  const outDir = path.resolve(input.outDir ?? path.join(dir, '..', 'pytest'));
  fs.mkdirSync(outDir, { recursive: true });
  const junitFile = path.join(outDir, `junit-${runLabel}.xml`);
  const failuresFile = path.join(outDir, `failures-${runLabel}.md`);
  const logFile = path.join(outDir, `pytest-${runLabel}.log`);
  fs.rmSync(junitFile, { force: true });
  const started = Date.now();
  const suite = input.suite ?? 'test_solution.py';
  const suiteFile = path.join(dir, suite);

  if (!fs.existsSync(suiteFile)) {
    replaceFile(failuresFile, formatFailures(`pytest was not run: there is no ${suite}.`, []));
    return { passed: false, exitCode: null, counts: ZERO, status: 'crash', failuresFile, durationMs: Date.now() - started };
  }
  if (input.suiteSha256 && sha256File(suiteFile) !== input.suiteSha256) {
    throw new InputError(`the suite is not the frozen one (sha256 ${input.suiteSha256} expected): nothing was run`, suiteFile, 'suiteSha256');
  }

  const perTest = input.perTestTimeoutS ?? Math.max(10, Math.floor(timeoutMs / 2000));
  // The reach check (docs/verdicts.md layer 1): a refused file is never run.
  const reach = reachCheck([suiteFile, path.join(dir, 'solution.py')].filter((f) => fs.existsSync(f)));
  const refused = input.reachCheck === false ? undefined : refusalsReason(reach.refusals);
  if (refused) {
    const why = `not run: ${refused}. lockin runs a suite only when neither it nor solution.py reaches the process, the interpreter's internals or pytest's machinery (docs/verdicts.md)`;
    replaceFile(failuresFile, formatFailures(`pytest was not run: ${refused}.`, []));
    replaceFile(logFile, `${why}\n${reach.refusals.map((r) => `${r.file} line ${r.line}: ${r.what}: ${r.text}`).join('\n')}\n`);
    return { passed: false, exitCode: null, counts: ZERO, status: 'crash', notPassedBecause: refused, failuresFile, durationMs: Date.now() - started };
  }
  const expected = { tests: reach.tests[suite], maybeTests: reach.maybeTests?.[suite] };
  return reuseRun<PytestOutcome>({
    scope: input.reuseScope,
    kind: 'pytest',
    key: reuseKey(['verdict-runner-v2', { file: path.join(dir, 'solution.py') }, { file: suiteFile }, JSON.stringify(settings), String(timeoutMs), String(perTest), String(input.memoryMb ?? 2048)]),
    outDir,
    files: [['junit.xml', `junit-${runLabel}.xml`], ['failures.md', `failures-${runLabel}.md`], ['pytest.log', `pytest-${runLabel}.log`]],
    run: async () => {
      const first = await pytestOnce(input, suite, settings, outDir, junitFile, failuresFile, logFile, perTest, started, expected);
      if (first.passed || !ranOutOfTime(first)) return first;
      // Out of time (the wall clock, or a test's own limit): on a loaded machine that is the
      // machine's doing as often as the candidate's, so pytest runs once more and the second
      // attempt is the outcome; the first attempt's files are kept beside it (§4 "Test outcome").
      for (const f of [junitFile, failuresFile, logFile]) if (fs.existsSync(f)) fs.renameSync(f, firstAttemptFile(f));
      const second = await pytestOnce(input, suite, settings, outDir, junitFile, failuresFile, logFile, perTest, Date.now(), expected);
      return { ...second, rerunAfterTimeout: { status: first.status, counts: first.counts, timedOutTests: first.timedOutTests ?? [], durationMs: first.durationMs } };
    },
    reusable: (o) => o.status === 'completed',
    relocate: (o, d) => ({ ...o, failuresFile: path.join(d, `failures-${runLabel}.md`), ...(o.junitFile ? { junitFile: path.join(d, `junit-${runLabel}.xml`) } : {}) }),
  });
}

async function pytestOnce(input: RunPytestInput, suite: string, settings: SparkSettings, outDir: string, junitFile: string, failuresFile: string, logFile: string, perTest: number, started: number, expected: { tests?: string[]; maybeTests?: string[] }): Promise<PytestOutcome> {
  const { dir, timeoutMs } = input;
  const token = crypto.randomBytes(32).toString('hex');
  const staged = stageArtifacts(dir, ['solution.py', suite]);
  const harness = stageArtifacts(dir, []);
  fs.writeFileSync(path.join(harness, 'pytest.ini'), '[pytest]\naddopts =\njunit_family = xunit2\njunit_logging = no\n', { mode: 0o644 });
  const memLimit = toMiB(settings.driverMemory) + (input.memoryMb ?? 2048) + 1024;
  let run;
  try {
    run = await runSparkJob({
      mounts: { candidate: { source: staged }, harness: { source: harness } },
      outputs: { junit: junitFile },
      cwd: 'candidate',
      command: (at, fds) => [
        venvPython(), path.join(pythonDir(), 'verdict_runner.py'), '--suite', suite,
        '--ini', `${at.harness}/pytest.ini`, '--rootdir', at.candidate, '--junit-fd', String(fds.junit), '--timeout', String(perTest),
      ],
      stdin: `${token}\n`,
      env: (at) => ({
        LOCKIN_SPARK_SETTINGS: JSON.stringify(settings),
        PYTHONPATH: `${at.candidate}:${pythonDir()}`,
        PYTEST_ADDOPTS: '',
        PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1',
      }),
      timeoutMs,
      memoryLimitMb: memLimit,
      forbidden: forbiddenPrefixes(),
      ...activityHooks(),
    }, { mode: input.sparkMode, settings });
  } finally {
    fs.rmSync(staged, { recursive: true, force: true });
    fs.rmSync(harness, { recursive: true, force: true });
  }
  throwIfCancelled(run.cancelled);
  replaceFile(logFile, `${run.stdout}\n--- stderr (tail) ---\n${run.stderr}`);

  const v = pytestVerdict(run.channel, run, { token, ...expected });
  const header = summaryLine(v.status, v.exitCode, v.counts, timeoutMs, run.memoryExceeded ? memLimit : 0) + (v.notPassedBecause ? `\nNot a pass: ${v.notPassedBecause}.` : '');
  let text = formatFailures(header, v.cases);
  if (v.status !== 'completed') {
    const tail = clipBytes(`${run.stdout}\n${run.stderr}`.trim().split('\n').slice(-40).join('\n'), 8192, 'tail');
    text += `\n## pytest output (last lines)\n\`\`\`\n${tail}\n\`\`\`\n`;
  }
  replaceFile(failuresFile, text);
  const junit = run.outputs.junit;
  const timedOutTests = v.cases.filter((c) => c.details.some((d) => PER_TEST_TIMEOUT.test(d.message) || PER_TEST_TIMEOUT.test(d.text))).map((c) => c.id);
  return {
    passed: v.passed,
    exitCode: v.exitCode,
    counts: v.counts,
    status: v.status,
    ...(v.notPassedBecause ? { notPassedBecause: v.notPassedBecause } : {}),
    failuresFile,
    ...(junit && 'file' in junit ? { junitFile } : {}),
    limits: run.limits,
    spark: run.spark,
    durationMs: Date.now() - started,
    ...(timedOutTests.length ? { timedOutTests } : {}),
  };
}

/** pytest-timeout's failure message for a test that ran past its limit. */
const PER_TEST_TIMEOUT = /Timeout \(>[\d.]+s\) from pytest-timeout/;

/** Whether a run ran out of time: the wall clock stopped it, or pytest-timeout stopped a test. Pure. */
export function ranOutOfTime(o: Pick<PytestOutcome, 'status' | 'timedOutTests'>): boolean {
  return o.status === 'timeout' || (o.timedOutTests?.length ?? 0) > 0;
}

/** `<dir>/failures-initial.md` → `<dir>/failures-initial.attempt-1.md`. Pure. */
export function firstAttemptFile(file: string): string {
  const ext = path.extname(file);
  return `${file.slice(0, file.length - ext.length)}.attempt-1${ext}`;
}

function summaryLine(status: PytestOutcome['status'], exitCode: number | null, c: PytestCounts, timeoutMs: number, memMb: number): string {
  const counts = `${c.passed} passed, ${c.failed} failed, ${c.errored} errors, ${c.collectionFailed} collection errors, ${c.skipped} skipped (of ${c.total})`;
  if (status === 'timeout') return `pytest did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped.`;
  if (memMb) return `pytest was stopped: the run used more than ${memMb} MiB of memory.`;
  if (status === 'crash') return `pytest ended abnormally (exit ${exitCode ?? 'none'}) without a complete report.`;
  return `pytest exit code ${exitCode}: ${counts}.`;
}
