/**
 * The main job behind `npm run study`: one command, real inputs, a report at the end.
 *   1. the embedded Temporal server and an in-process worker;
 *   2. prepareDatabase: the SF=S database and the 33 references, and the SF=0.01 database the
 *      mutation analysis's equivalence check runs on (skipped when already there);
 *   3. the evaluator controls (Table II) and the SQL re-execution (Table V), into the study folder;
 *   4. runStudy: the tasks × 4 conditions (the paper's three and Contract-First), then the report;
 *   5. test-suite validity and mutation analysis (mutation.json), and the report rewritten;
 *   6. the summary table, the report path and the Temporal UI address.
 * Running it again resumes an interrupted study and redoes nothing that finished.
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { ControlCounts } from '../protocol/activities';
import type { MainJobProgress, MainJobStep, MutationProgress } from '../protocol/inputs';
import { mainJobProgressQuery, mutationProgressQuery } from '../protocol/queries';
import { controlsLine, mainJob } from '../workflows/mainJob';
import { showProgress } from './progress';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { DEFAULT_SPARK_SETTINGS } from '../protocol/settings';
import { studyDir } from '../activities/common/layout';
import { STUDY_TASKS } from '../protocol/corpus';
import { buildStudyInput } from './studyInput';
import { resolveSparkMode } from '../activities/common/sparkMode';
import { setProgressDisplay } from '../activities/common/progressDisplay';
import { createDataProgress } from './dataProgress';
import { printSummary, reportFailures, saveInput, studyUiUrl } from './studyRunner';
import { runningActivityLines, runOrAttach, withClientAndWorker } from './temporal';
import { mainJobWorkflowId } from '../protocol/layout';
import { sparkJitFromEnv } from '../activities/common/sparkJit';
import { isReplaySpec, type ModelParams } from '../protocol/model';
import { restoreTerminal } from './terminal';
import { clearInterrupted, markInterrupted } from './interrupted';
import { WorkflowFailedError } from '@temporalio/client';
import * as os from 'os';
import { defaultModel } from './studyInput';

export interface MainJobOptions {
  scale: number;
  model: string;
  tasks: string[];
  studyId?: string;
  /** Leave out step 5 (the mutation analysis). */
  skipMutation?: boolean;
  /** The model's generation settings (client/studyInput.ts generationSettings; absent: the paper's). */
  params?: ModelParams;
}

/** The database scale of the mutation analysis's equivalence check (activities/mutation/study.ts). */
export const EQUIVALENCE_SCALE = 0.01;

/** Seconds per step of the last main job (steps 1–6 by number), for bench/study. */
const stepSeconds: Record<number, number> = {};
let currentStep = 0;

function step(n: number, text: string): number {
  currentStep = n;
  process.stderr.write(`[lockin] step ${n}/6: ${text}\n`);
  return Date.now();
}

function done(t0: number): void {
  stepSeconds[currentStep] = (Date.now() - t0) / 1000;
  process.stderr.write(`[lockin]   done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}

/**
 * The main job's default study id: `main-sf<scale>-<model>` for the study's 30 tasks (in any
 * order), and for a subset the same with its tasks appended by query number (q3 < q14a < q98):
 * `-q3-q98` for up to four, else `-<n>tasks-<first 8 hex of the sha256 of their ids>`. So a run
 * on some tasks never resumes, or is refused as, a study of others, and the same command always
 * names the same study (to resume it). Inputs: scale (e.g. 0.01), model spec (characters outside
 * [A-Za-z0-9._-] become "-"), task ids (valid ids, as parseTasks returns them). Pure.
 */
export function mainStudyId(scale: number, model: string, tasks: readonly string[]): string {
  const base = `main-sf${scale}-${model.replace(/[^A-Za-z0-9._-]+/g, '-')}`;
  const chosen = new Set(tasks);
  if (chosen.size === STUDY_TASKS.length && STUDY_TASKS.every((t) => chosen.has(t))) return base;
  // By query number, then suffix: q3 < q14a < q14b < q98.
  const all = [...chosen].sort((a, b) => Number(a.replace(/\D/g, '')) - Number(b.replace(/\D/g, '')) || a.localeCompare(b));
  if (all.length <= 4) return `${base}-${all.join('-')}`;
  return `${base}-${all.length}tasks-${crypto.createHash('sha256').update(all.join(',')).digest('hex').slice(0, 8)}`;
}

/**
 * The command that resumes the main job of `o` (printed whole when Ctrl-C interrupts it): `npx
 * lockin study main` with the options that make the same study id and input, each only when it
 * differs from the default: `--scale` always (the default may come from LOCKIN_SCALE), `--tasks`
 * for a subset of the 30, `--model` when it is not `defaultModelSpec` (the environment's),
 * `--study-id` when one was given, `--no-mutation` when step 5 was left out. Pure.
 * Example: {scale: 0.01, tasks: [q3, q98], model: replay:lockin} → "npx lockin study main --scale 0.01 --tasks q3,q98".
 */
export function mainResumeCommand(o: MainJobOptions, defaultModelSpec: string, studyId: string): string {
  const all = o.tasks.length === STUDY_TASKS.length && STUDY_TASKS.every((t) => o.tasks.includes(t));
  const parts = ['npx lockin study main', `--scale ${o.scale}`];
  if (!all) parts.push(`--tasks ${o.tasks.join(',')}`);
  if (o.model !== defaultModelSpec) parts.push(`--model ${o.model}`);
  if (o.studyId) parts.push(`--study-id ${studyId}`);
  if (o.skipMutation) parts.push('--no-mutation');
  return parts.join(' ');
}

/** The counts of the evaluator controls' report (Table II). */
export type { ControlCounts };

/** One line on the evaluator controls (Table II): see workflows/mainJob.ts. */
export { controlsLine };


/**
 * The once-a-minute line of step 5 while no task finishes: tasks done of total and the tasks being
 * analysed; before the first task, that the suites are being listed; after the last, that the
 * labellers are being measured on known truth (workflows/mutation.ts queues those checks behind the
 * tasks), with how many tasks' checks ended and which run now; `now`, what the running activities
 * last reported (their heartbeats' progress lines: which suite of a task, which program of a
 * labeller check). `stepMs` is the time since this process saw step 5 start. Pure.
 */
export function mutationStillLine(m: MutationProgress, stepMs: number, now: readonly string[] = []): string {
  const s = Math.floor(stepMs / 1000);
  const since = `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  if (m.tasksTotal === 0) return `listing the study's frozen suites and the tasks to analyse (still working, step 5 for ${since})`;
  // The labeller checks queue behind the tasks (workflows/mutation.ts); counted since they were.
  const counted = m.checksDone !== undefined || !!m.checking?.length;
  const checked = `${m.checksDone ?? 0} of ${m.tasksTotal} task(s) checked${m.checking?.length ? `, checking: ${m.checking.join(', ')}` : ''}`;
  const what =
    m.tasksDone >= m.tasksTotal && !m.running?.length
      ? `all ${m.tasksTotal} task(s) analysed; measuring the labellers on known truth (acceptance tests on gold and the obligation violations)${counted ? `: ${checked}` : ''}`
      : `${m.tasksDone} of ${m.tasksTotal} task(s) analysed${m.running?.length ? `; analysing: ${m.running.join(', ')}` : ''}${counted ? `; labellers on known truth: ${checked}` : ''}`;
  return `${what}${now.length ? `; now: ${now.join('; ')}` : ''} (still working, step 5 for ${since})`;
}

/**
 * Follows a running main job: prints each step as it starts ("step n/6: …"), its report lines and
 * "done in … s"; during step 4 the study's progress bar, during step 5 the mutation analysis's
 * lines. Returns a stop function that settles once no query is in flight.
 */
function watchMainJob(handle: WorkflowHandle<typeof mainJob>, conditions: readonly string[]): () => Promise<void> {
  const client = handle.client;
  // Steps already finished when this process first hears from the job ran before it attached.
  let firstTick = true;
  let lastMutationLine = Date.now();
  let step5Seen: number | null = null;
  const shownLines = new Map<number, number>();
  const finished = new Set<number>();
  let studyBar: (() => Promise<void>) | null = null;
  let mutationShown = 0;
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();
  // The `[data]` lines of this process's worker (steps 2 and 3) wait for the next tick, so that
  // they follow the header of the step they belong to (the watcher learns of a step up to a
  // second after its first activity starts printing).
  const held: string[] = [];
  const display = setProgressDisplay((shown) => held.push(shown));
  // On a terminal the data lines become one bar per phase; the bars pause while a step's own lines print.
  const data = createDataProgress();
  const flushHeld = () => {
    for (const shown of held.splice(0)) data.line(shown);
  };
  // A line of the job's own: the data bars pause (they stay drawn) so it prints below them.
  const say = (text: string) => {
    data.stop();
    process.stderr.write(text);
  };
  const show = (steps: MainJobStep[]) => {
    for (const s of steps) {
      if (!shownLines.has(s.n)) {
        currentStep = s.n;
        say(`[lockin] step ${s.n}/6: ${s.title} (workflow ${s.workflowId})\n`);
        shownLines.set(s.n, 0);
      }
      // The held lines belong to the first step not yet finished when the tick began.
      if (!finished.has(s.n)) flushHeld();
      for (const line of s.lines.slice(shownLines.get(s.n))) say(`[lockin]   ${line}\n`);
      shownLines.set(s.n, s.lines.length);
      if (s.seconds !== undefined && !finished.has(s.n)) {
        finished.add(s.n);
        stepSeconds[s.n] = s.seconds;
        say(`[lockin]   done in ${s.seconds.toFixed(1)} s${firstTick ? ' (recorded by the run this process attached to: not redone)' : ''}\n`);
      }
    }
  };
  const tick = async () => {
    const p = await handle.query(mainJobProgressQuery).catch(() => null);
    if (!p || stopped) return;
    const running = p.steps.find((s) => s.seconds === undefined);
    if (studyBar && running?.n !== 4) {
      await studyBar();
      studyBar = null;
    }
    show(p.steps);
    firstTick = false;
    if (running?.n === 4 && !studyBar) studyBar = showProgress(client.getHandle(running.workflowId), 2000, conditions);
    if (running?.n === 5) {
      step5Seen ??= Date.now();
      const m = await client.getHandle(running.workflowId).query(mutationProgressQuery).catch(() => null);
      for (const line of m?.lines.slice(mutationShown) ?? []) process.stderr.write(`[mutation] ${line}\n`);
      if ((m?.lines.length ?? 0) > mutationShown) lastMutationLine = Date.now();
      mutationShown = Math.max(mutationShown, m?.lines.length ?? 0);
      // A task's mutation analysis takes minutes: say at least once a minute that it is working.
      if (m && Date.now() - lastMutationLine > 60_000) {
        process.stderr.write(`[mutation] ${mutationStillLine(m, Date.now() - step5Seen, await runningActivityLines(client, running.workflowId))}\n`);
        lastMutationLine = Date.now();
      }
    }
  };
  const timer = setInterval(() => {
    inFlight = inFlight.then(tick).catch(() => undefined);
  }, 1000);
  return async () => {
    clearInterval(timer);
    await inFlight;
    // The last steps' lines and times ("done in … s" of step 5), from the finished job.
    await tick().catch(() => undefined);
    stopped = true;
    flushHeld();
    data.end();
    setProgressDisplay(display);
    if (studyBar) await studyBar();
    studyBar = null;
  };
}

/**
 * Runs the main job (steps above) for `o`: starts the mainJob workflow (workflows/mainJob.ts) or
 * attaches to the one already running for this study, and follows it. Returns the seconds each
 * step took (by step number). Errors of the Temporal connection, the database preparation and a
 * corpus problem propagate; failed tasks and a failed mutation analysis are reported and set a
 * non-zero exit code instead.
 */
export async function runMainJob(o: MainJobOptions): Promise<Record<number, number>> {
  const replayed = isReplaySpec(o.model);
  process.stderr.write(`[lockin] model: ${o.model}${replayed ? ' — no ANTHROPIC_API_KEY, so replies are REPLAYED from the corpus, not sampled from a live model; each reply file states its provenance (replay:lockin: authored by the project or generated from the obligations, none recorded from a model), and the report says what share was which: such replies demonstrate the instrument and are no evidence about any model' : ''}\n`);
  const studyId = o.studyId ?? mainStudyId(o.scale, o.model, o.tasks);
  const settings = DEFAULT_SPARK_SETTINGS;
  const input = buildStudyInput({ studyId, tasks: o.tasks, model: o.model, scale: o.scale, settings, ...(o.params ? { params: o.params } : {}) });
  const spark = resolveSparkMode(input.sparkMode);
  const jit = sparkJitFromEnv();
  process.stderr.write(`[lockin] Spark mode: ${spark.mode === 'warm'
    ? 'warm (the default): each kind of Spark job attaches to a long-lived JVM slot (docs/security.md "Warm Spark slots"; LOCKIN_SPARK_MODE=cold starts one JVM per job); a slot\'s restarts and why are in each job\'s `spark` record and in `lockin study profile`'
    : spark.coldBecause ? `cold: warm is the default, but ${spark.coldBecause}` : 'cold: one JVM per Spark job (LOCKIN_SPARK_MODE=cold; without it JVM slots are kept warm, docs/security.md "Warm Spark slots")'}; JIT of the jobs' JVMs: ${jit === 'tiered' ? 'tiered, the JVM\'s default' : 'quick, C1 only (LOCKIN_SPARK_JIT)'}\n`);
  const sdir = studyDir(studyId);
  process.stderr.write(`[lockin] study id: ${studyId} (runs/${studyId}/; the id of \`lockin study status|profile|mutation\` and \`lockin report\`)\n`);
  fs.mkdirSync(sdir, { recursive: true });
  saveInput(input);

  const t: number = step(1, 'Temporal server and worker');
  const res = await withClientAndWorker(async (client, target) => {
    done(t);
    if (target.uiUrl) process.stderr.write(`[lockin]   Temporal UI: ${target.uiUrl}\n`);
    const ui = studyUiUrl(target, studyId);
    if (ui) process.stderr.write(`[lockin]   this study's workflows: ${ui}\n`);
    const onSigint = () => {
      // The progress display hid the cursor: put the terminal back before the last lines.
      restoreTerminal();
      const resume = mainResumeCommand(o, defaultModel(), studyId);
      markInterrupted(sdir, { at: new Date().toISOString(), pid: process.pid, host: os.hostname(), workflowId: mainJobWorkflowId(studyId), resume });
      process.stderr.write(`\n[lockin] interrupted: the main job (workflow ${mainJobWorkflowId(studyId)}) stays on the server and nothing it recorded is lost. The Temporal server keeps running (its UI shows the job; \`npx lockin server stop\` stops it). Resume with:\n  ${resume}\n`);
      process.exit(130);
    };
    process.once('SIGINT', onSigint);
    clearInterrupted(sdir);
    try {
      const out = await runOrAttach(client, mainJob, {
        workflowId: mainJobWorkflowId(studyId),
        studyId,
        args: [{ study: input, outDir: sdir, equivalenceScale: EQUIVALENCE_SCALE, skipMutation: o.skipMutation }],
        watch: (h: WorkflowHandle<typeof mainJob>) => watchMainJob(h, input.conditions),
      }).catch((err: unknown) => {
        // A server that stayed away is not a failure of the job (its message says how to go on).
        if (!(err instanceof WorkflowFailedError)) throw err;
        // Everything recorded stays: a new run of the job skips it.
        throw Object.assign(new Error(`the main job (workflow ${mainJobWorkflowId(studyId)}) failed; what it recorded is kept, and running the same command again starts it anew and skips that work`), { cause: err });
      });
      return { ...out, ui };
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
  });
  if (res.missingReferences.length) saveInput({ ...input, tasks: input.tasks.filter((q) => !res.missingReferences.includes(q)) });
  if (res.mutationError) {
    process.stderr.write(`[lockin]   mutation analysis FAILED: ${res.mutationError}\n[lockin]   rerun it with: lockin study mutation ${studyId}\n`);
    process.exitCode = 1;
  }
  const t6 = step(6, 'summary');
  printSummary(studyId, replayed, { tasks: input.tasks.filter((q) => !res.missingReferences.includes(q)), conditions: input.conditions });
  if (res.reportDir) process.stdout.write(`report: ${path.join(res.reportDir, 'report.md')}\n`);
  if (res.ui) process.stdout.write(`Temporal UI: ${res.ui}\n`);
  reportFailures({ reportDir: res.reportDir, alreadyComplete: false, failed: res.failed }, studyId);
  done(t6);
  return { ...stepSeconds };
}

/**
 * What `lockin study status <id>` prints for the study's main job (workflow `main-<id>`): its
 * status and start, then one line per step started so far (from the `mainJobProgress` query;
 * `progress` null when the job is not running or no worker answers the query).
 * Inputs: the study id; the workflow status name (RUNNING, COMPLETED, FAILED, …); its start time;
 * `interrupted`, the line of a RUNNING job whose CLI Ctrl-C stopped (client/interrupted.ts), shown
 * as INTERRUPTED.
 * Returns: the lines, without newlines, e.g. "  step 3 evaluator checks (checks-x): running".
 */
export function mainJobStatusLines(studyId: string, status: string, startTime: Date, progress: MainJobProgress | null, interrupted: string | null = null): string[] {
  const lines = [`main job of study ${studyId} (workflow ${mainJobWorkflowId(studyId)}): ${interrupted ? 'INTERRUPTED' : status} (started ${startTime.toISOString()})`];
  if (interrupted) lines.push(`  ${interrupted}`);
  else if (status === 'RUNNING' && !progress) lines.push('  steps not available (no worker answered): `npm run study` again runs one and resumes');
  for (const s of progress?.steps ?? []) {
    const state = s.seconds === undefined ? 'running' : `done in ${s.seconds.toFixed(1)} s`;
    lines.push(`  step ${s.n} ${s.title} (${s.workflowId}): ${state}${s.lines.length ? `; ${s.lines[s.lines.length - 1]}` : ''}`);
  }
  return lines;
}

