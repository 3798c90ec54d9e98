/**
 * `lockin study run|status|resume|history|replay-check|profile|main`.
 */
import { CONDITIONS } from '../../protocol/conditions';
import { mainJobProgressQuery, progressQuery } from '../../protocol/queries';
import * as fs from 'fs';
import * as path from 'path';
import { referencesDir, referencePaths } from '../../activities/common/paths';
import { studyDir } from '../../activities/common/layout';
import { Command } from 'commander';
import * as os from 'os';
import { Worker } from '@temporalio/worker';
import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils';
import { newTable, wrapText } from '../table';
import { addGenerationOptions, assertCorpusValid, buildStudyInput, generationSettings, type GenerationOpts, DEFAULT_TASK_CONCURRENCY, defaultModel, parseConditions, parseModels, parseSamples, parseScale, parseTaskConcurrency, parseTasks, scaleDefault } from '../studyInput';
import { isLocalSpec, isReplaySpec, parseModelSpec } from '../../protocol/model';
import { resolveLocalModel } from '../../activities/common/localModels';
import { mainJobWorkflowId, modelStudyId } from '../../protocol/layout';
import type { StudyInput } from '../../protocol/inputs';
import { interruptedLine, readInterrupted } from '../interrupted';
import { loadInput, printSummary, reportFailures, runCorpusCheck, runStudyWorkflow, studyWorkflowId, whileServerAway } from '../studyRunner';
import { WorkflowNotFoundError } from '@temporalio/client';
import { connectClient } from '../temporal';
import { serverStatus } from '../../infra/devServer';
import { profileStudy } from '../profile';
import { JOB_COUNT_COLUMNS, jobCountRows, jobWorkLines, sparkJobLines, studyJobWork, suiteJobLines, suiteSparkJobs } from '../jobWork';
import { installQuietRuntime, workflowBundle } from '../../worker/createWorkers';
import { mainJobStatusLines, runMainJob } from '../mainJob';
import { runMutationAnalysis } from '../mutation';
import type { StudyFailure, StudyProgress } from '../../protocol/inputs';
import { failureLines, failureWorkflowId, innermostMessage, readStudyFailures, studyProgressLine } from '../studyStatus';
import { readStudyBasics } from '../../activities/results';
import { toCsv } from '../../activities/common/csv';

interface RunOpts extends GenerationOpts {
  tasks?: string;
  conditions?: string;
  model?: string;
  scale?: string;
  studyId?: string;
  replicate?: string;
  samples?: string;
  models?: string;
  concurrency?: string;
  report: boolean;
}

/** How long `study status` waits for a server that does not answer (s: 1 + 2 + 5 + 10). */
const STATUS_RETRY_DELAYS_MS = [1000, 2000, 5000, 10_000];

/**
 * Prints the summary table of a study, or one per model of a model matrix. `finished`: the
 * study has ended, so the denominators are its assigned runs (tasks × conditions, as report.md
 * Table III); otherwise the runs recorded so far.
 */
function printStudySummary(input: StudyInput, finished = true): void {
  const assigned = finished ? { tasks: input.tasks, conditions: input.conditions } : undefined;
  if (!input.models || input.models.length < 2) return printSummary(input.studyId, isReplaySpec(input.model), assigned);
  for (const m of input.models) {
    process.stdout.write(`\nmodel ${m} (study ${modelStudyId(input.studyId, m)})\n`);
    printSummary(modelStudyId(input.studyId, m), isReplaySpec(m), assigned);
  }
}

/** The scale recorded in runs/<id>/study.json (undefined when the file is missing). */
function studyScale(id: string): number | undefined {
  const f = path.join(studyDir(id), 'study.json');
  return fs.existsSync(f) ? (JSON.parse(fs.readFileSync(f, 'utf8')) as { scale: number }).scale : undefined;
}

function defaultStudyId(model: string, scale: number): string {
  const slug = model.replace(/^replay:.*\//, 'replay-').replace(/[^A-Za-z0-9._-]+/g, '-');
  return `study-sf${scale}-${slug}-${new Date().toISOString().slice(0, 10)}`;
}

/** What the profile's rows and columns mean (printed under the table). */
const PROFILE_LEGEND_PARAGRAPHS = [
  'Seconds of activity time, summed over the activities of the study\'s workflows: step 4 of the main job and, when the main job ran the study, its step 3 (controls, SQL re-execution) and step 5 (mutation analysis, labeller check), which carry the study\'s id.',
  'Columns: "shared" = task-level work (the initial generation, the snapshot, the reference evaluation) and steps 3 and 5; "study" = study-level steps; one column per condition for its own calls and runs; rows: the kinds of work. The conditions start from the same snapshot, so their first pytest run and execution are identical: the condition that runs one first carries its time (a warm slot\'s start-up included, when it started one), the others copy it and take no time (one that waited for the identical run still in progress counts its wait, and held a Spark slot meanwhile). "smoke" = the smoke check (non-evaluative: does solve() return a DataFrame Spark can analyse; nothing collected); "variants\' jobs" = executions on the variant databases (lockin data variants).',
  'temporal overhead (queue wait) = from scheduling to start of each activity: Temporal\'s dispatch plus the wait for the worker to take it (mostly for a Spark job to end: a worker runs as many at once as "Spark jobs at once" in lockin doctor).',
  '"wall time of N job(s)" (jobs run since the jobs recorded it) = where the jobs\' own wall time went: their processes (sandbox, Python start-up and imports, attaching to the slot\'s JVM or starting one, and the work; a suite job\'s second process runs within its first\'s time), the slots\' resets and checks after them, and waiting for, starting and filling a slot. A one-process job\'s process time minus its work inside is its start-up and harness.',
];
/** The notes under `study profile`'s figures, wrapped for a 100-column terminal. */
const PROFILE_LEGEND = `${PROFILE_LEGEND_PARAGRAPHS.map((p) => wrapText(p)).join('\n')}\n`;

/** Defines the options, arguments, sub-commands and actions of `lockin study` on its command (client/cli.ts names and describes it). */
export function define(cmd: Command): void {
  const study = cmd;

  study
    .command('run')
    .description('run a study: tasks × conditions, evaluated against the references')
    .option('--tasks <ids>', 'comma-separated task ids, or "all"', 'all')
    .option('--conditions <ids>', `comma-separated, of ${CONDITIONS.join(',')}; "all" (the default) for the four, "paper" for the paper's three`)
    .option('--model <spec>', 'anthropic:<model-id> | openai:<model-id> | local[:<gguf-path-or-name>] | claude-code:<model-id> | replay:<dir> (default: anthropic with ANTHROPIC_API_KEY, else replay:lockin)')
    .option('--models <specs>', 'a model matrix: comma-separated specs, one sub-study per model and a combined report with a between-model table')
    .option('--scale <S>', 'TPC-DS scale factor of the database (default: LOCKIN_SCALE, else 1)')
    .option('--study-id <id>', 'study id (default derived from model and scale)')
    .option('--replicate <ids>', 'targeted replication (Table VII): fresh initial generations for these tasks')
    .option('--samples <K>', 'independent generations per task, each with its own snapshot and condition branches (default 1)')
    .option('--concurrency <n>', `tasks in flight at once (default ${DEFAULT_TASK_CONCURRENCY}; Spark jobs are bounded by the workers' Spark slots)`)
    .option('--no-report', 'skip the report at the end');
  addGenerationOptions(study.commands[study.commands.length - 1])
    .action(async (o: RunOpts) => {
      const samples = parseSamples(o.samples);
      if (o.models && o.model) throw new Error('--model and --models: give one of them');
      const models = o.models ? parseModels(o.models, parseModelSpec) : undefined;
      const model = models?.[0] ?? o.model ?? defaultModel();
      // A local model's file is checked before anything starts (the error names the path looked at).
      for (const m of models ?? [model]) if (isLocalSpec(m)) resolveLocalModel(parseModelSpec(m).model);
      const scale = o.scale !== undefined ? parseScale(o.scale) : parseScale(scaleDefault().value, scaleDefault().source);
      const input = buildStudyInput({
        studyId: o.studyId ?? defaultStudyId(models && models.length > 1 ? `${models.length}-models` : model, scale),
        tasks: parseTasks(o.tasks),
        conditions: parseConditions(o.conditions),
        model,
        scale,
        ...(o.concurrency !== undefined ? { taskConcurrency: parseTaskConcurrency(o.concurrency) } : {}),
        replicate: o.replicate ? { tasks: parseTasks(o.replicate), label: 'r1' } : undefined,
        ...(samples > 1 ? { samples } : {}),
        ...(models && models.length > 1 ? { models } : {}),
        ...generationSettings(o, models ?? [model]),
        report: o.report,
      });
      const noRef = [...input.tasks, ...(input.replicate?.tasks ?? [])].filter((q) => !fs.existsSync(referencePaths(referencesDir(scale), q).data));
      if (noRef.length)
        throw new Error(`no reference at scale ${scale} for ${[...new Set(noRef)].join(', ')} (looked in ${referencesDir(scale)}): run \`lockin data prepare --scale ${scale}\` first; a reference that fails to build there (q12 at SF=0.01 divides by zero under ANSI) cannot be evaluated at that scale`);
      await assertCorpusValid(scale, [...input.tasks, ...(input.replicate?.tasks ?? [])], runCorpusCheck);
      process.stderr.write(`[lockin] study ${input.studyId}: ${input.tasks.length} task(s) × ${samples} sample(s) × ${input.conditions.length} condition(s), ${input.models ? `models ${input.models.join(', ')}` : `model ${model}`}${(input.models ?? [model]).some(isReplaySpec) ? ' (REPLAYED replies, no live model)' : ''}, scale ${scale}\n`);
      const res = await runStudyWorkflow(input);
      printStudySummary(input);
      if (res.reportDir) process.stdout.write(`report: ${res.reportDir}/report.md\n`);
      reportFailures(res, input.studyId);
    });

  study
    .command('status <id>')
    .description('the state of a study: workflow status, progress, records')
    .action(async (given: string) => {
      // A status request starts the embedded server when none runs (its history is on disk): say so, it keeps running.
      const wasRunning = Boolean(process.env.TEMPORAL_ADDRESS) || (await serverStatus()) !== null;
      const { client, connection } = await connectClient();
      if (!wasRunning) process.stderr.write('[lockin] no Temporal server was running: started the embedded one, which keeps running (`npx lockin server stop` stops it)\n');
      try {
        // The main job's workflow id (main-<id>, as `npm run study` prints it) names its study too.
        const bare = given.startsWith('main-') ? given.slice('main-'.length) : null;
        const id = bare && (await client.workflow.getHandle(mainJobWorkflowId(bare)).describe().then(() => true, () => false)) ? bare : given;
        const handle = client.workflow.getHandle(studyWorkflowId(id));
        // A server that was just restarted may take a moment to answer: ask again for a while.
        const d = await whileServerAway(
          () => handle.describe(),
          (cause) => new Error(`the Temporal server is not answering (${cause}); start it with \`npx lockin server start\` and ask again`),
          STATUS_RETRY_DELAYS_MS,
        ).catch((e: unknown) => {
          if (e instanceof WorkflowNotFoundError) return null;
          throw e;
        });
        // The main job of this study (`npm run study`, `lockin study main`), when there is one.
        const mainHandle = client.workflow.getHandle(mainJobWorkflowId(id));
        const main = await mainHandle.describe().catch(() => null);
        if (main) {
          const p = main.status.name === 'RUNNING' ? await mainHandle.query(mainJobProgressQuery).catch(() => null) : null;
          for (const line of mainJobStatusLines(id, main.status.name, main.startTime, p, main.status.name === 'RUNNING' ? interruptedLine(readInterrupted(studyDir(id)), os.hostname()) : null)) process.stdout.write(`${line}\n`);
        }
        if (!d) {
          if (main) return;
          throw new Error(`no study named "${id}" on this Temporal server (workflows study-${id} and main-${id} not found; give the study id, e.g. main-sf1-replay-lockin, or its main job's workflow id, main-main-sf1-replay-lockin)`);
        }
        const running = d.status.name === 'RUNNING';
        const stopped = running ? interruptedLine(readInterrupted(studyDir(id)), os.hostname()) : null;
        process.stdout.write(`study ${id}: ${stopped ? 'INTERRUPTED' : d.status.name} (started ${d.startTime.toISOString()})\n`);
        if (stopped) process.stdout.write(`  ${stopped}\n`);
        if (running) {
          const p = await handle.query(progressQuery).catch((e: Error) => e);
          if (p instanceof Error) process.stdout.write(`  progress not available (${p.message.split('\n')[0]}): is a worker running? (\`npx lockin study resume ${id}\` runs one)\n`);
          else {
            process.stdout.write(`${studyProgressLine(p)}\n`);
            // While the study runs, the cause of a failed task run is in its own (ended) workflow.
            const failures: StudyFailure[] = [];
            for (const key of p.tasksFailed) {
              const wf = failureWorkflowId(studyWorkflowId(id), key);
              const h = wf ? client.workflow.getHandle(wf) : null;
              const ended = h ? await h.describe().then((x) => x.status.name !== 'RUNNING', () => false) : false;
              const error = h && ended ? await h.result().then(() => 'ended without an error (see the Temporal UI)', (e: unknown) => innermostMessage(e)) : 'cause not available yet (see the Temporal UI)';
              failures.push({ task: key, error });
            }
            for (const line of failureLines(failures)) process.stdout.write(`${line}\n`);
          }
        } else {
          // An ended study still names its failed runs and their causes (failures.json, else the workflow result).
          const failures = readStudyFailures(studyDir(id)) ?? (d.status.name === 'COMPLETED' ? await handle.result().then((r: { failed?: StudyFailure[] }) => r.failed ?? null, () => null) : null);
          for (const line of failureLines(failures ?? [])) process.stdout.write(`${line}\n`);
        }
        printStudySummary(loadInput(id), !running);
      } finally {
        await connection.close();
      }
    });

  study
    .command('resume <id>')
    .description('resume a failed, terminated or interrupted study (finished work and paid model calls are reused)')
    .action(async (id: string) => {
      const input = loadInput(id);
      const res = await runStudyWorkflow(input);
      printStudySummary(input);
      if (res.reportDir) process.stdout.write(`report: ${res.reportDir}/report.md\n`);
      reportFailures(res, id);
    });

  study
    .command('history <id>')
    .description('export a workflow history as JSON (the study, or --workflow <workflowId> for a task or condition)')
    .requiredOption('--export <file>', 'where to write the history JSON')
    .option('--workflow <workflowId>', 'a task or condition workflow id, e.g. study-<id>/q4/test-guided')
    .action(async (id: string, o: { export: string; workflow?: string }) => {
      const { client, connection } = await connectClient();
      try {
        const history = await client.workflow.getHandle(o.workflow ?? studyWorkflowId(id)).fetchHistory();
        fs.writeFileSync(o.export, historyToJSON(history));
        process.stdout.write(`wrote ${history.events?.length ?? 0} events to ${o.export}\n`);
      } finally {
        await connection.close();
      }
    });

  study
    .command('replay-check <file>')
    .description('replay an exported history against the current workflow code (fails on a determinism error)')
    .action(async (file: string) => {
      installQuietRuntime();
      if (!fs.existsSync(file)) throw new Error(`${file}: no such file (export one with \`lockin study history <id> --export FILE\`)`);
      const history = historyFromJSON(JSON.parse(fs.readFileSync(file, 'utf8')));
      await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history);
      process.stdout.write(`replay OK: ${file} is deterministic under the current workflow code\n`);
    });

  study
    .command('profile <id>')
    .description('where the time went, from the workflow histories')
    .option('--csv <file>', 'also write the seconds as CSV, one row per scope and kind of work (columns scope, kind, seconds), for pandas or DuckDB')
    .option('--jobs-csv <file>', 'also write the Spark jobs as CSV, one row per group (activities, labels, mutation suites): jobs, cold and warm jobs, slot start-ups, restarts, copied runs, programs and their work seconds')
    .action(async (id: string, opts: { csv?: string; jobsCsv?: string }) => {
      const { client, connection } = await connectClient();
      try {
        const p = await profileStudy(client, id);
        const cats = Object.keys(p.total).sort();
        const scopes = Object.keys(p.byCondition);
        // Kinds of work down, scopes across: the scopes are few and short, the kinds many and long.
        const t = newTable({ head: ['seconds', ...scopes, 'total'] });
        for (const c of cats) t.push([c, ...scopes.map((sc) => (p.byCondition[sc][c] ?? 0).toFixed(1)), p.total[c].toFixed(1)]);
        if (opts.csv) {
          const rows = [...scopes.flatMap((sc) => cats.map((c) => ({ scope: sc, kind: c, seconds: Number((p.byCondition[sc][c] ?? 0).toFixed(3)) }))), ...cats.map((c) => ({ scope: 'total', kind: c, seconds: Number(p.total[c].toFixed(3)) }))];
          fs.writeFileSync(opts.csv, toCsv(['scope', 'kind', 'seconds'], rows));
          process.stdout.write(`seconds by scope and kind written to ${opts.csv} (${rows.length} rows)\n`);
        }
        const j = p.jvm;
        let mode: string;
        try {
          const b = readStudyBasics(id);
          mode = `${b.sparkMode} (study.json sparkMode${b.sparkMode === 'warm' ? '; a job that could not run warm ran cold: its spark record says why' : ''}); JIT of the job JVMs: ${b.sparkJit} (study.json sparkJit; each job's spark record says its own)`;
        } catch {
          mode = 'unknown (no readable study.json)';
        }
        process.stdout.write(`Spark mode of the study: ${mode}\n`);
        process.stdout.write(`${t.toString()}\nstep 4 (the study workflow) wall time: ${p.wallSeconds.toFixed(1)} s (activity seconds can exceed it: activities run in parallel; the main job prints every step's time)\n`);
        process.stdout.write(`JVM start-ups of the pytest, smoke and execution activities (not the variants' jobs; the bench counts every job): ${j.coldJobs + j.warmStarts} (${j.coldJobs} cold jobs; ${j.warmJobs} warm jobs in slots started ${j.warmStarts} times, ${j.slotRestarts} restarted after a job; ${j.reusedJobs} copied from an identical run, no job)\n`);
        const under = sparkJobLines('slots restarted', { jobs: j.warmJobs, cold: j.coldJobs, warm: j.warmJobs, slotStarts: j.warmStarts, restarts: j.restartReasons, seconds: j.seconds }).slice(1);
        if (under.length) process.stdout.write(`${under.join('\n')}\n`);
        process.stdout.write(`${suiteJobLines(studyDir(id)).join('\n')}\n`);
        const work = studyJobWork(studyDir(id));
        process.stdout.write(`${jobWorkLines(work, p.wallSeconds).join('\n')}\n${PROFILE_LEGEND}`);
        if (opts.jobsCsv) {
          const rows = jobCountRows(j, suiteSparkJobs(studyDir(id)), work);
          fs.writeFileSync(opts.jobsCsv, toCsv(JOB_COUNT_COLUMNS, rows));
          process.stdout.write(`Spark jobs by group written to ${opts.jobsCsv} (${rows.length} rows)\n`);
        }
      } finally {
        await connection.close();
      }
    });

  study
    .command('mutation <id>')
    .description('test-suite validity and mutation analysis: every frozen suite against gold and its mutants; writes runs/<id>/mutation.json and rewrites the report')
    .option('--equivalence-scale <S>', 'database scale of the equivalence check (mutants that agree with the reference there are dropped)', '0.01')
    .option('--confirm-scale <S>', "re-check the mutants equivalent at the equivalence scale on this scale's database (default: the study's scale; \"none\" to skip)")
    .option('--max-per-operator <n>', 'mutation sites per operator and task', '2')
    .option('--tasks <ids>', 'comma-separated task ids (default: every task with a record)')
    .option('--no-report', 'do not rewrite the report')
    .action(async (id: string, opts: { equivalenceScale: string; confirmScale?: string; maxPerOperator: string; tasks?: string; report: boolean }) => {
      const res = await runMutationAnalysis(id, {
        equivalenceScale: Number(opts.equivalenceScale),
        confirmScale: opts.confirmScale === 'none' ? undefined : opts.confirmScale !== undefined ? Number(opts.confirmScale) : studyScale(id),
        maxPerOperator: Number(opts.maxPerOperator),
        tasks: opts.tasks ? opts.tasks.split(',').map((t) => t.trim()).filter(Boolean) : undefined,
        report: opts.report,
      });
      process.stdout.write(`${res}\n`);
    });

  study
    .command('main')
    .description('the main job (npm run study): database, references, controls, SQL reproduction, the 30-task study and its report')
    .option('--scale <S>', 'TPC-DS scale factor (default: LOCKIN_SCALE, else 1)')
    .option('--model <spec>', 'model spec (default: anthropic with ANTHROPIC_API_KEY, else replay:lockin)')
    .option('--tasks <ids>', 'task ids or "all"', 'all')
    .option('--study-id <id>', 'study id (default: main-sf<S>-<model>, with the tasks appended for a subset of the 30)')
    .option('--no-mutation', 'leave out the mutation analysis (step 5; run it later with `lockin study mutation <id>`)');
  addGenerationOptions(study.commands[study.commands.length - 1])
    .action(async (o: { scale?: string; model?: string; tasks: string; studyId?: string; mutation: boolean } & GenerationOpts) => {
      const scale = o.scale !== undefined ? parseScale(o.scale) : parseScale(scaleDefault().value, scaleDefault().source);
      const model = o.model ?? defaultModel();
      await runMainJob({ scale, model, tasks: parseTasks(o.tasks), studyId: o.studyId, skipMutation: !o.mutation, params: generationSettings(o, [model]).params });
    });
}
