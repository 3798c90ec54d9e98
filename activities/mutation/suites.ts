/**
 * Runs one frozen test suite against the gold solution and its variants (mutants, obligation
 * violations, column swaps), sandboxed: the measurement behind the test-suite validity, the
 * mutation score, the test labels and the labeller checks. Since the blind variants (docs/verdicts.md
 * "Blindness") the variants are blind: one sandboxed job per attempt runs a trusted zygote
 * (activities/python/suite_zygote.py) that forks ONE CHILD PER VARIANT, each with only its own
 * files under a random folder in /tmp, in a random order drawn per run; the variants are never
 * mounted, and this module writes a variant's files and token to the child only after the
 * previous child ended. Between variants the JVM is reset and compared with its snapshot (cold:
 * by the zygote's own supervisor; warm: the slot's); a difference ends the job and the rest goes
 * on in a new one. Every variant's verdict is decided here (verdict.ts) from its tokened messages,
 * as a pytest run's is. The untrusted text (the suite, or the solutions) passes the reach check
 * first (activities/execution/reach.ts); refused: every variant "refused", never run.
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
import type { SandboxTalk } from '../execution/sandbox';
import * as crypto from 'crypto';
import { pytestVerdict } from '../execution/verdict';
import { reachCheck, refusalsReason } from '../execution/reach';
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
  /** not-run: the suite failed gold (invalid), so it was not run on the mutants after it;
   *  refused: the reach check refused the untrusted text, nothing ran. */
  status: 'completed' | 'timeout' | 'crash' | 'not-run' | 'refused';
  /** Why the run is not a pass although pytest might say so (verdict.ts), or the refusal. */
  notPassedBecause?: string;
  ms: number;
  /** When the suite did not pass: the first failing test and its message (one line), else the reason (from the run's messages, never from a file it wrote). */
  failure?: string;
  /** With `full`: every collected test's outcome and the obligations its markers name. */
  tests?: TestOutcome[];
}

/** One test's outcome in a `full` or `only` run (its collected test, by function name with its parameters). */
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
  /** Jobs at once (each its own sandbox and JVM, taking variants from one queue); default suiteProcesses(mode). Within a job variants run one at a time (docs/verdicts.md "Blindness"). */
  processes?: 1 | 2;
  /** Which text is the candidate's, checked by the reach check before anything runs: the suite
   *  (default: test labels, mutation analysis), the solutions (code labels: lockin's acceptance
   *  tests on the candidate's solution) or none (the labeller checks: lockin's tests on lockin's variants). */
  untrusted?: 'suite' | 'solutions' | 'none';
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
 * Runs the suite on every variant, one at a time, each in a child process of its own with only its
 * files under a random folder name, in a random order (see the module comment). A job that ends
 * early (wall-clock limit, crash, memory) charges the variant it was on (status timeout/crash,
 * passed false: a hang or crash of the suite on a mutant counts as detecting it) and a new job
 * continues with the rest; a job whose JVM check after a variant is not clean ends there and a
 * new job (a new JVM) continues; a variant during which the JVM was lost runs again. Under
 * stopIfGoldFails a suite that fails gold is not run on what comes after gold in the order
 * (status not-run). A variant's `passed` is the pytest verdict's (docs/protocol.md §4: exit 0, no
 * failure, at least one test passed, no veto); with `full` or `only` its tests' outcomes are
 * recorded. Returns one VariantRun per variant, in the given order.
 * Throws InputError for a missing suite or solution file or a bad variant id; Error when the
 * reach check itself cannot run.
 */
export async function runSuiteOnVariants(input: RunSuiteInput): Promise<VariantRun[]> {
  if (!fs.existsSync(input.suiteFile)) throw new InputError('no frozen test suite', input.suiteFile);
  const settings = SparkSettingsSchema.parse(input.settings);
  for (const v of input.variants) {
    if (!ID.test(v.id)) throw new InputError(`bad variant id "${v.id}"`, undefined, 'variants');
    if (!fs.existsSync(v.solutionFile)) throw new InputError('no solution.py for variant', v.solutionFile, v.id);
  }
  for (const name of Object.keys(input.extraFiles ?? {})) {
    if (!ID.test(name) || name === 'solution.py' || name === 'test_solution.py') throw new InputError(`bad extra file name "${name}"`, undefined, 'extraFiles');
  }
  const outDir = path.resolve(input.outDir);
  fs.mkdirSync(outDir, { recursive: true });
  const results = path.join(outDir, 'results.jsonl');
  const sparkLog = path.join(outDir, SUITE_SPARK_FILE);
  fs.rmSync(results, { force: true });
  fs.rmSync(sparkLog, { force: true });
  const log: string[] = [];
  const done = new Map<string, VariantRun>();
  const record = (r: VariantRun) => {
    done.set(r.variant, r);
    fs.appendFileSync(results, `${JSON.stringify(r)}\n`);
  };

  // The reach check (docs/verdicts.md layer 1) on the candidate's text; it also reads the suite's tests.
  const untrusted = input.untrusted ?? 'suite';
  const suiteText = fs.readFileSync(input.suiteFile, 'utf8');
  const checkDir = ownedTempDir('lockin-stage-');
  let expected: { tests?: string[]; maybeTests?: string[] } = {};
  try {
    const suiteCopy = path.join(checkDir, 'test_solution.py');
    fs.writeFileSync(suiteCopy, suiteText);
    const suiteReach = reachCheck([suiteCopy]);
    expected = { tests: suiteReach.tests['test_solution.py'], maybeTests: suiteReach.maybeTests?.['test_solution.py'] };
    let refused = untrusted === 'suite' ? refusalsReason(suiteReach.refusals) : undefined;
    if (untrusted === 'solutions') {
      for (const v of input.variants) {
        const r = reachCheck([v.solutionFile]).refusals.map((x) => ({ ...x, file: 'solution.py' }));
        refused = refusalsReason(r);
        if (refused) break;
      }
    }
    if (refused) {
      log.push(`--- not run: ${refused} ---`);
      for (const v of input.variants) record({ variant: v.id, exitCode: null, passed: false, status: 'refused', ms: 0, notPassedBecause: refused, ...(v.id === 'gold' ? { failure: refused } : {}) });
      replaceFile(path.join(outDir, 'suite.log'), log.join('\n'));
      return input.variants.map((v) => done.get(v.id)!);
    }
  } finally {
    fs.rmSync(checkDir, { recursive: true, force: true });
  }

  const harness = ownedTempDir('lockin-stage-');
  fs.chmodSync(harness, 0o755);
  fs.writeFileSync(path.join(harness, 'pytest.ini'), '[pytest]\naddopts =\njunit_family = xunit2\njunit_logging = no\n', { mode: 0o644 });
  const perVariant = input.perVariantMs ?? 5 * 60_000;
  const stopIfGoldFails = (input.stopIfGoldFails ?? true) && input.variants.some((v) => v.id === 'gold');
  const timeout = input.perTestTimeoutS ?? 60;
  // A random order, drawn per run: gold's place says nothing (docs/verdicts.md "Blindness").
  const order = [...input.variants].map((v) => ({ v, k: crypto.randomBytes(4).readUInt32BE(0) })).sort((a, b) => a.k - b.k).map((x) => x.v);
  log.push(`--- order: ${order.map((v) => v.id).join(',')} ---`);
  const goldStopped = () => stopIfGoldFails && done.get('gold') !== undefined && !done.get('gold')!.passed;
  // Variants taken by a job (running or done there); a variant whose JVM was lost is given back.
  const taken = new Set<string>();
  const untaken = () => order.filter((v) => !done.has(v.id) && !taken.has(v.id));
  let attempts = 0;
  /** One lane: jobs one after another, each taking variants from the shared queue until none is left. */
  const lane = async (laneNo: number): Promise<void> => {
    while (untaken().length && !goldStopped()) {
      attempts += 1;
      const attempt = attempts;
      const rest = untaken();
      let current: { v: SuiteVariant; token: string; text: string; started: number } | undefined;
      let chain = Promise.resolve();
      const ran: string[] = [];
      const run = await runSparkJob({
        mounts: { harness: { source: harness } },
        command: (at) => [venvPython(), path.join(pythonDir(), 'suite_zygote.py'), '--settings', JSON.stringify(settings), '--ini', `${at.harness}/pytest.ini`],
        env: () => ({ LOCKIN_SPARK_SETTINGS: JSON.stringify(settings), PYTHONPATH: pythonDir(), PYTEST_ADDOPTS: '', PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' }),
        timeoutMs: perVariant * rest.length + 90_000,
        memoryLimitMb: toMiB(settings.driverMemory) + 3072,
        forbidden: forbiddenPrefixes(),
        stdin: (talk: SandboxTalk) => {
          let closed = false;
          const close = () => {
            closed = true;
            talk.close(); // the waiting child reads end-of-file and the zygote ends
          };
          // Called on each "waiting" (a child forked, reading its command): the next variant, or the end.
          const next = () => {
            if (closed) return;
            const v = goldStopped() ? undefined : untaken()[0];
            if (!v) return close();
            const token = crypto.randomBytes(32).toString('hex');
            const files: Record<string, string> = { 'solution.py': fs.readFileSync(v.solutionFile, 'utf8'), 'test_solution.py': suiteText, ...(input.extraFiles ?? {}) };
            current = { v, token, text: '', started: Date.now() };
            taken.add(v.id);
            ran.push(v.id);
            talk.send(JSON.stringify({ token, dir: `v${crypto.randomBytes(16).toString('hex')}`, files, only: v.only ?? null, exitFirst: v.only !== undefined || (!input.full && v.id !== 'gold'), timeout }));
          };
          const ended = async (m: { exit: number | null; signal: number | null; ms: number; check: { clean: boolean; problems: string[]; jvmLost: boolean } | null; strays?: string[] }) => {
            const c = current!;
            current = undefined;
            let check = m.check;
            const t0 = Date.now();
            if (talk.checkSlot) check = await talk.checkSlot();
            log.push(`--- ${c.v.id}: ${m.ms} ms in its process, ${Date.now() - t0} ms the slot's check ---`);
            if (check?.jvmLost) {
              log.push(`--- the JVM was lost during ${c.v.id}: it runs again in a new job (${check.problems.join('; ')}) ---`);
              taken.delete(c.v.id);
              ran.splice(ran.indexOf(c.v.id), 1);
              return close();
            }
            const v = pytestVerdict(c.text, { exitCode: m.exit ?? (m.signal !== null ? 128 + m.signal : null), timedOut: false, memoryExceeded: false, signal: m.signal !== null ? signalName(m.signal) : null }, { token: c.token, ...expected });
            // Gold's run (never stopped at its first failure) records every test's outcome: the
            // tests that pass it are what a suite that fails gold is measured through (study.ts validTestsOf).
            record(variantRun(c.v, v, m.ms, input.full || c.v.only !== undefined || c.v.id === 'gold'));
            if (check && !check.clean) {
              log.push(`--- after ${c.v.id} the JVM is not as it started (${check.problems.join('; ')}): the rest goes on in a new job ---`);
              close();
            }
          };
          talk.onLine((line) => {
            let m: { zygote?: string; v?: number; line?: string; nl?: boolean } & Record<string, unknown>;
            try {
              m = JSON.parse(line);
            } catch {
              return;
            }
            if (m.zygote === 'waiting') chain = chain.then(() => next());
            else if (m.zygote === 'ended') chain = chain.then(() => ended(m as never)).catch((err) => {
              log.push(`--- lockin's side failed: ${(err as Error).message} ---`);
              talk.stop();
            });
            else if (typeof m.line === 'string' && current) current.text += `${m.line}${m.nl ? '\n' : ''}`;
          });
        },
        ...activityHooks(),
      }, { mode: input.sparkMode, settings });
      await chain;
      throwIfCancelled(run.cancelled);
      log.push(`--- attempt ${attempt} (lane ${laneNo}) took ${ran.join(',') || 'nothing'} (exit ${run.exitCode}, ${run.timedOut ? 'timed out' : 'ended'}) ---`, run.stderr.split('\n').slice(-60).join('\n'));
      const charged = current as { v: SuiteVariant; started: number } | undefined;
      fs.appendFileSync(sparkLog, `${JSON.stringify({ ...run.spark, order: rest.map((v) => v.id), ran, lane: laneNo, ...(charged ? { charged: charged.v.id } : {}) })}\n`);
      if (charged) {
        // The job ended while this variant ran: it is charged with the end.
        const status = run.timedOut ? 'timeout' : 'crash';
        record({ variant: charged.v.id, exitCode: null, passed: false, status, ms: Date.now() - charged.started, notPassedBecause: run.timedOut ? 'the job ran out of time on it' : run.memoryExceeded ? 'the job was stopped for using too much memory on it' : `the job ended on it (exit ${run.exitCode ?? run.signal})` });
      } else if (!ran.length && untaken().length && !goldStopped()) {
        throw new Error(`the suite job ran no variant (exit ${run.exitCode ?? run.signal}): ${run.stderr.split('\n').slice(-15).join('\n')}`);
      }
    }
  };
  // Jobs at once: each its own sandbox and JVM, so two variants side by side never share a file
  // view or a JVM (two processes on one JVM, as before the blind variants, could read each other's files).
  const lanes = Math.max(1, Math.min(input.processes ?? suiteProcesses(resolveSparkMode(input.sparkMode).mode), Math.floor(order.length / 2)));
  try {
    await Promise.all(Array.from({ length: lanes }, (_, i) => lane(i + 1)));
  } finally {
    fs.rmSync(harness, { recursive: true, force: true });
    replaceFile(path.join(outDir, 'suite.log'), log.join('\n'));
  }
  for (const v of input.variants) if (!done.has(v.id)) record({ variant: v.id, exitCode: null, passed: false, status: 'not-run', ms: 0 });
  return input.variants.map((v) => done.get(v.id)!);
}

/** A variant's row from its verdict: with `tests`, every collected test's outcome (by function name with its parameters) and obligation markers. Pure. */
function variantRun(v: SuiteVariant, verdict: ReturnType<typeof pytestVerdict>, ms: number, tests: boolean): VariantRun {
  const row: VariantRun = { variant: v.id, exitCode: verdict.exitCode, passed: verdict.passed, status: verdict.status, ms, ...(verdict.notPassedBecause ? { notPassedBecause: verdict.notPassedBecause } : {}) };
  if (tests) row.tests = verdict.collected.map((id) => {
    const t = verdict.tests.find((x) => x.id === id);
    return { name: id.split('::').pop()!, obligations: t?.obligations ?? verdict.marks[id] ?? [], outcome: t?.outcome ?? 'error' };
  });
  if (!verdict.passed) {
    const c = verdict.cases.find((x) => x.details.some((d) => d.kind !== 'skipped'));
    const d = c?.details.find((x) => x.kind !== 'skipped');
    row.failure = (c && d ? `${c.id}: ${(d.message || d.text).split('\n').find((l) => l.trim()) ?? d.kind}` : verdict.notPassedBecause ?? `pytest exit ${verdict.exitCode ?? 'none'}`).slice(0, 300);
  }
  return row;
}

/** The name of signal number `n` ("SIGXFSZ"), or "signal <n>" when the platform does not name it. */
function signalName(n: number): string {
  return Object.entries(os.constants.signals).find(([, v]) => v === n)?.[0] ?? `signal ${n}`;
}
