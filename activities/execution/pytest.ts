/**
 * The pytest activity: runs a condition's test_solution.py against its solution.py inside the
 * sandbox and records the test outcome (docs/protocol.md §4 "Test outcome").
 *
 * How the harness stays in charge: only solution.py and test_solution.py are staged into the
 * sandbox; pytest runs with `--noconftest` (no conftest.py is loaded, the model's included),
 * `-c <harness pytest.ini>` (no pytest.ini / pyproject.toml / setup.cfg of the folder is read;
 * `--rootdir` is the staged folder), `-p pytest_harness` (lockin's plugin, from
 * activities/python, provides the session-scoped `spark` fixture from the study's Spark
 * settings) and `-p no:cacheprovider` (nothing written next to the artifacts). `solution` is
 * importable because the staged folder is on PYTHONPATH and is pytest's rootdir.
 */
import * as fs from 'fs';
import * as path from 'path';
import { SparkSettingsSchema, type SparkSettings } from '../../protocol/settings';
import type { PytestCounts, PytestOutcome } from '../../protocol/types';
import { InputError } from '../common/errors';
import { pythonDir, venvPython } from '../common/paths';
import { countCases, formatFailures, parseJunit, suitePassed, type JunitCase } from './junit';
import { runSandboxed, toMiB } from './sandbox';
import { activityHooks, throwIfCancelled } from './activityContext';
import { forbiddenPrefixes, stageArtifacts } from './staging';
import { reuseKey, reuseRun } from './reuse';
import { sha256File } from '../store/hash';

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
}

const ZERO: PytestCounts = { passed: 0, failed: 0, errored: 0, collectionFailed: 0, skipped: 0, total: 0 };

/**
 * Runs pytest on `<dir>/test_solution.py` in the sandbox (activities/execution/sandbox.ts).
 * Writes `<outDir>/junit-<runLabel>.xml` (when pytest produced it), `<outDir>/failures-<runLabel>.md`
 * (always: the revision feedback) and `<outDir>/pytest-<runLabel>.log` (console output).
 * Returns the PytestOutcome: status "completed" when pytest ended by itself with a report,
 * "timeout" when the wall-clock limit killed it, "crash" otherwise (no report, killed, internal
 * error, missing test file); `passed` only for exit 0 with no failed/errored/collection-failed case.
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
    fs.writeFileSync(failuresFile, formatFailures(`pytest was not run: there is no ${suite}.`, []));
    return { passed: false, exitCode: null, counts: ZERO, status: 'crash', failuresFile, durationMs: Date.now() - started };
  }
  if (input.suiteSha256 && sha256File(suiteFile) !== input.suiteSha256) {
    throw new InputError(`the suite is not the frozen one (sha256 ${input.suiteSha256} expected): nothing was run`, suiteFile, 'suiteSha256');
  }

  const perTest = input.perTestTimeoutS ?? Math.max(10, Math.floor(timeoutMs / 2000));
  return reuseRun<PytestOutcome>({
    scope: input.reuseScope,
    kind: 'pytest',
    key: reuseKey([{ file: path.join(dir, 'solution.py') }, { file: suiteFile }, JSON.stringify(settings), String(timeoutMs), String(perTest), String(input.memoryMb ?? 2048)]),
    outDir,
    files: [['junit.xml', `junit-${runLabel}.xml`], ['failures.md', `failures-${runLabel}.md`], ['pytest.log', `pytest-${runLabel}.log`]],
    run: () => pytestOnce(input, suite, settings, outDir, junitFile, failuresFile, logFile, perTest, started),
    reusable: (o) => o.status === 'completed',
    relocate: (o, d) => ({ ...o, failuresFile: path.join(d, `failures-${runLabel}.md`), ...(o.junitFile ? { junitFile: path.join(d, `junit-${runLabel}.xml`) } : {}) }),
  });
}

async function pytestOnce(input: RunPytestInput, suite: string, settings: SparkSettings, outDir: string, junitFile: string, failuresFile: string, logFile: string, perTest: number, started: number): Promise<PytestOutcome> {
  const { dir, timeoutMs, runLabel } = input;
  const staged = stageArtifacts(dir, ['solution.py', suite]);
  const harness = stageArtifacts(dir, []);
  fs.writeFileSync(path.join(harness, 'pytest.ini'), '[pytest]\naddopts =\njunit_family = xunit2\njunit_logging = no\n');
  const memLimit = toMiB(settings.driverMemory) + (input.memoryMb ?? 2048) + 1024;
  let run;
  try {
    run = await runSandboxed({
      mounts: {
        candidate: { source: staged, writable: false },
        harness: { source: harness, writable: false },
        out: { source: outDir, writable: true },
      },
      cwd: 'candidate',
      command: (at) => [
        venvPython(), '-m', 'pytest', suite,
        '-c', `${at.harness}/pytest.ini`, '--rootdir', at.candidate, '--noconftest',
        '-p', 'pytest_harness', '-p', 'no:cacheprovider',
        `--junitxml=${at.out}/junit-${runLabel}.xml`, `--timeout=${perTest}`, '-q', '-rfE', '--color=no',
      ],
      env: (at) => ({
        LOCKIN_SPARK_SETTINGS: JSON.stringify(settings),
        PYTHONPATH: `${at.candidate}:${pythonDir()}`,
        PYTEST_ADDOPTS: '',
      }),
      timeoutMs,
      memoryLimitMb: memLimit,
      forbidden: forbiddenPrefixes(),
      ...activityHooks(),
    });
  } finally {
    fs.rmSync(staged, { recursive: true, force: true });
    fs.rmSync(harness, { recursive: true, force: true });
  }
  throwIfCancelled(run.cancelled);
  fs.writeFileSync(logFile, `${run.stdout}\n--- stderr (tail) ---\n${run.stderr}`);

  let cases: JunitCase[] | null = null;
  let parseError = '';
  if (fs.existsSync(junitFile)) {
    try {
      cases = parseJunit(fs.readFileSync(junitFile, 'utf8'), junitFile);
    } catch (err) {
      parseError = (err as Error).message;
    }
  }
  const counts = cases ? countCases(cases) : ZERO;
  const exitCode = run.timedOut || run.memoryExceeded ? null : run.exitCode;
  // pytest exit codes: 0 ok, 1 tests failed, 2 interrupted (e.g. collection errors), 5 no tests.
  const completed = !run.timedOut && !run.memoryExceeded && cases !== null && exitCode !== null && [0, 1, 2, 5].includes(exitCode);
  const status: PytestOutcome['status'] = run.timedOut ? 'timeout' : completed ? 'completed' : 'crash';
  const passed = status === 'completed' && suitePassed(exitCode, counts);
  const header = summaryLine(status, exitCode, counts, timeoutMs, run.memoryExceeded ? memLimit : 0);
  let text = formatFailures(header, cases ?? []);
  if (status !== 'completed') {
    const tail = `${run.stdout}\n${run.stderr}`.trim().split('\n').slice(-40).join('\n');
    text += `\n## pytest output (last lines)\n\`\`\`\n${tail}${parseError ? `\n${parseError}` : ''}\n\`\`\`\n`;
  }
  fs.writeFileSync(failuresFile, text);
  return {
    passed,
    exitCode,
    counts,
    status,
    failuresFile,
    ...(cases ? { junitFile } : {}),
    durationMs: Date.now() - started,
  };
}

function summaryLine(status: PytestOutcome['status'], exitCode: number | null, c: PytestCounts, timeoutMs: number, memMb: number): string {
  const counts = `${c.passed} passed, ${c.failed} failed, ${c.errored} errors, ${c.collectionFailed} collection errors, ${c.skipped} skipped (of ${c.total})`;
  if (status === 'timeout') return `pytest did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped.`;
  if (memMb) return `pytest was stopped: the run used more than ${memMb} MiB of memory.`;
  if (status === 'crash') return `pytest ended abnormally (exit ${exitCode ?? 'none'}) without a complete report.`;
  return `pytest exit code ${exitCode}: ${counts}.`;
}
