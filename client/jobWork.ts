/**
 * The work a study's Spark jobs did inside themselves (warm Spark slots, README "How long it takes": "the ratio to the sum of
 * the pure Spark times"), read from the files the jobs left in `runs/<study>/`: the time of the
 * tests and queries themselves, without the JVM and Python start-up, session set-up, staging,
 * sandboxing and Temporal around them. Wall time over this sum is how far a step is from its
 * physical limit on one core.
 *
 * What counts, per kind of job (each measured by the job's own process):
 *   - pytest: a run of a condition's suite, `tasks/<t>/…/pytest/<label>/junit-*.xml`: the
 *     testsuite's `time` (pytest's own sum over its tests);
 *   - execution: a candidate execution on the study or a variant database, `…/execution.log`:
 *     the `solve` and `output` phases exec_candidate.py logs ("[exec] solve: 114 ms"), i.e. the
 *     candidate's code and Spark computing and collecting its output;
 *   - labels: the executable labels' acceptance tests and suites, `…/executable-labels/<half>/
 *     results.jsonl`: each variant's `ms` (pytest.main on that program in the shared session);
 *   - mutation suites: step 5's suites on gold and mutants, `mutation/<t>/<cond>/results.jsonl`, the same way.
 * A folder holding `reused.json` is a copy of an identical run (activities/execution/reuse.ts):
 * no job ran for it, so it counts nothing. The `.reuse` store itself is not read.
 */
import * as fs from 'fs';
import * as path from 'path';

export const JOB_KINDS = ['pytest', 'execution', 'labels', 'mutation suites'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** Per kind: seconds of work measured inside the jobs, and how many jobs (runs, executions, programs) it covers. */
export type JobWork = Record<JobKind, { seconds: number; jobs: number }>;

/** The testsuite time of a pytest JUnit report, seconds (summed over its testsuite elements); 0 when none. Pure. */
export function junitSeconds(xml: string): number {
  let s = 0;
  for (const m of xml.matchAll(/<testsuite\b[^>]*?\stime="([0-9.]+)"/g)) s += Number(m[1]) || 0;
  return s;
}

/** The candidate's own phases (solve + output) in an execution.log, seconds; null when the log has neither. Pure. */
export function executionSeconds(log: string): number | null {
  const phase: Record<string, number> = {};
  for (const m of log.matchAll(/^\[exec\] (\w+): (\d+) ms$/gm)) phase[m[1]] = Number(m[2]);
  if (phase.solve === undefined && phase.output === undefined) return null;
  return ((phase.solve ?? 0) + (phase.output ?? 0)) / 1000;
}

/** Each variant's `ms` in a suite's results.jsonl, as [programs, seconds] (lines that are not a verdict are skipped). Pure. */
export function suiteSeconds(jsonl: string): { programs: number; seconds: number } {
  let programs = 0;
  let ms = 0;
  for (const line of jsonl.split('\n')) {
    try {
      const r = JSON.parse(line) as { variant?: unknown; ms?: unknown; status?: unknown };
      if (typeof r.variant !== 'string' || r.status === 'not-run') continue;
      programs += 1;
      ms += Number(r.ms) || 0;
    } catch {
      /* not a verdict line */
    }
  }
  return { programs, seconds: ms / 1000 };
}

/**
 * Calls `visit(name, file, parts)` for every file under `<studyDir>/tasks` and `<studyDir>/mutation`
 * (`parts`: the folders from that top folder down), skipping the `.reuse` store and every folder
 * holding `reused.json` (a copy of an identical run: no job ran for it). A missing folder visits nothing.
 */
function forEachJobFile(studyDir: string, visit: (name: string, file: string, parts: string[]) => void): void {
  const walk = (dir: string, parts: string[]) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((e) => e.name === 'reused.json')) return;
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== '.reuse') walk(p, [...parts, e.name]);
      } else visit(e.name, p, parts);
    }
  };
  for (const top of ['tasks', 'mutation']) walk(path.join(studyDir, top), [top]);
}

/** A label suite's folder (`…/executable-labels/…`) or a step-5 suite's (`mutation/…`). */
const isSuiteFolder = (parts: string[]) => parts.includes('executable-labels') || parts[0] === 'mutation';

/**
 * Sums the work inside the jobs of the study whose folder is `studyDir` (runs/<study>).
 * Returns: JobWork (zeros for a kind with no job; a missing folder gives all zeros). Reads files only.
 */
export function studyJobWork(studyDir: string): JobWork {
  const out = Object.fromEntries(JOB_KINDS.map((k) => [k, { seconds: 0, jobs: 0 }])) as JobWork;
  const add = (k: JobKind, seconds: number, jobs: number) => {
    out[k].seconds += seconds;
    out[k].jobs += jobs;
  };
  forEachJobFile(studyDir, (name, file, parts) => {
    if (/^junit-.*\.xml$/.test(name) && parts.includes('pytest')) add('pytest', junitSeconds(fs.readFileSync(file, 'utf8')), 1);
    else if (name === 'execution.log') {
      const s = executionSeconds(fs.readFileSync(file, 'utf8'));
      if (s !== null) add('execution', s, 1);
    } else if (name === 'results.jsonl' && isSuiteFolder(parts)) {
      const r = suiteSeconds(fs.readFileSync(file, 'utf8'));
      add(parts[0] === 'mutation' ? 'mutation suites' : 'labels', r.seconds, r.programs);
    }
  });
  return out;
}

/**
 * Where a set of jobs' wall time went, seconds, summed over the jobs whose SparkRun has `ms`
 * (`timed` of them; records from before it have none): `slot` waiting for, starting and filling
 * warm slots, `process` the jobs' own process trees (sandbox, Python start-up and imports,
 * attaching to or starting the JVM, and the work; a suite job's second process runs inside its
 * first's time), `check` the slots' resets and checks after the jobs (SparkRun.ms).
 */
export interface JobSeconds {
  timed: number;
  slot: number;
  process: number;
  check: number;
}

/** An empty JobSeconds. */
export function noJobSeconds(): JobSeconds {
  return { timed: 0, slot: 0, process: 0, check: 0 };
}

/** Adds one job's SparkRun.ms (milliseconds; absent: nothing added) to `into` (seconds). Pure but for `into`. */
export function addJobSeconds(into: JobSeconds, spark: { ms?: { slot?: number; process?: number; check?: number } } | undefined): void {
  const ms = spark?.ms;
  if (!ms || typeof ms !== 'object') return;
  into.timed += 1;
  into.slot += (Number(ms.slot) || 0) / 1000;
  into.process += (Number(ms.process) || 0) / 1000;
  into.check += (Number(ms.check) || 0) / 1000;
}

/**
 * The line under a set of jobs' counts saying where their wall time went (JobSeconds), or none
 * when no job was timed: "    wall time of N job(s): P s in their processes (p s a job), C s in
 * the slots' checks after them, S s waiting for, starting and filling slots". Pure.
 */
export function jobSecondsLines(js: JobSeconds): string[] {
  if (js.timed === 0) return [];
  return [`    wall time of ${js.timed} job(s): ${js.process.toFixed(1)} s in their processes (${(js.process / js.timed).toFixed(2)} s a job), ${js.check.toFixed(1)} s in the slots' checks after them, ${js.slot.toFixed(1)} s waiting for, starting and filling slots`];
}

/** How Spark ran a set of jobs: counts by mode, warm slots' JVM start-ups, and the restarts with their reasons. */
export interface SparkJobs {
  jobs: number;
  cold: number;
  warm: number;
  /** Warm jobs that started their slot's JVM (the first job of a slot, or the first after a restart). */
  slotStarts: number;
  /** Warm jobs after which the slot was restarted, by reason (the job's `spark.restart`, as recorded; a job rerun cold after its slot's JVM was lost, by lostSlotReason). */
  restarts: Record<string, number>;
  /** Where their wall time went (the jobs with SparkRun.ms). */
  seconds: JobSeconds;
}

/** An empty SparkJobs. */
export function noSparkJobs(): SparkJobs {
  return { jobs: 0, cold: 0, warm: 0, slotStarts: 0, restarts: {}, seconds: noJobSeconds() };
}

/** Adds one job's SparkRun (activities/execution/slots.ts; a record without a mode counts as cold) to `into`. Pure but for `into`. */
export function addSparkJob(into: SparkJobs, spark: { mode?: string; jvmStarted?: boolean; restart?: string; lostSlot?: { reason: string }; ms?: { slot?: number; process?: number; check?: number } } | undefined): void {
  into.jobs += 1;
  addJobSeconds(into.seconds, spark);
  if (spark?.mode === 'warm') {
    into.warm += 1;
    if (spark.jvmStarted) into.slotStarts += 1;
    if (spark.restart) into.restarts[spark.restart] = (into.restarts[spark.restart] ?? 0) + 1;
  } else into.cold += 1;
  if (spark?.lostSlot) {
    const why = lostSlotReason(spark.lostSlot.reason);
    into.restarts[why] = (into.restarts[why] ?? 0) + 1;
  }
}

/** How a slot restart whose JVM was lost during a job is listed among the restart reasons (the job's `spark.lostSlot`). Pure. */
export function lostSlotReason(reason: string): string {
  return `${reason} (the JVM was lost during the job: it ran again cold)`;
}

/**
 * How Spark ran the label and mutation suites of the study whose folder is `studyDir`: their
 * processes are not activities of their own, so this reads the `spark.jsonl` each
 * runSuiteOnVariants call leaves beside its results.jsonl (activities/mutation/suites.ts
 * SUITE_SPARK_FILE; one line per process). Copies of identical runs (reused.json) ran nothing.
 * Returns per kind ('labels', 'mutation suites') a SparkJobs; a missing folder gives zeros; lines
 * that are not JSON are skipped. Reads files only.
 */
export function suiteSparkJobs(studyDir: string): Record<'labels' | 'mutation suites', SparkJobs> {
  const out = { labels: noSparkJobs(), 'mutation suites': noSparkJobs() };
  forEachJobFile(studyDir, (name, file, parts) => {
    if (name !== 'spark.jsonl' || !isSuiteFolder(parts)) return;
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      try {
        const r = JSON.parse(line) as Parameters<typeof addSparkJob>[1];
        if (r && typeof r === 'object') addSparkJob(out[parts[0] === 'mutation' ? 'mutation suites' : 'labels'], r);
      } catch {
        /* not a record */
      }
    }
  });
  return out;
}

/** The jobs after which a slot was restarted, over all reasons. Pure. */
function restartCount(jobs: SparkJobs): number {
  return Object.values(jobs.restarts).reduce((a, b) => a + b, 0);
}

/**
 * One line per set of jobs for `study profile` and the bench: "  <name>: N job(s) (c cold; w
 * warm, s of which started their slot's JVM …; r restarted after a job)", under it where their
 * wall time went (jobSecondsLines, when any job was timed) and each restart reason with its count
 * (at most `maxReasons`, longest first by count; each cut at 200 characters). Pure.
 */
export function sparkJobLines(name: string, jobs: SparkJobs, maxReasons = 5): string[] {
  const restarts = restartCount(jobs);
  const lines = [`  ${name}: ${jobs.jobs} job(s) (${jobs.cold} cold; ${jobs.warm} warm, ${jobs.slotStarts} of which started their slot's JVM and the rest found one running; ${restarts} restarted after a job)`, ...jobSecondsLines(jobs.seconds)];
  const reasons = Object.entries(jobs.restarts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  for (const [why, n] of reasons.slice(0, maxReasons)) lines.push(`    restarted ${n}×: ${why.length > 200 ? `${why.slice(0, 199)}…` : why}`);
  if (reasons.length > maxReasons) lines.push(`    … and ${reasons.length - maxReasons} other reason(s)`);
  return lines;
}

/**
 * The lines `study profile` and the bench print for the label and mutation suites' processes
 * (suiteSparkJobs of `studyDir`): a heading and sparkJobLines per kind. Reads files only.
 */
export function suiteJobLines(studyDir: string): string[] {
  const s = suiteSparkJobs(studyDir);
  return ['Spark processes of the label and mutation suites (runs/<study>/**/spark.jsonl):', ...sparkJobLines('labels', s.labels), ...sparkJobLines('mutation suites', s['mutation suites']), ...notRunAgainLines(studyDir)];
}

/** At most this many names per line of notRunAgainLines. */
const MAX_NAMED = 12;

/** "a, b, c" or "a, b, … and 3 more" (at most MAX_NAMED names). Pure. */
function named(xs: string[]): string {
  return xs.length <= MAX_NAMED ? xs.join(', ') : `${xs.slice(0, MAX_NAMED).join(', ')}, … and ${xs.length - MAX_NAMED} more`;
}

/**
 * Which label and mutation suites ran no job because their runs were taken from an identical run
 * (warm Spark slots; what the job counts above leave out), for `study profile` and the bench:
 *   - labels: every `tasks/<t>/<cond>/executable-labels/<half>` folder holding `reused.json`
 *     (activities/execution/reuse.ts: a run of the same program, acceptance tests or suite, with
 *     the same settings, earlier in the study), named `<t>/<cond> <half>`;
 *   - mutation suites: mutation.json's suites whose `ran` is `cache` (copied from an identical
 *     run: the same suite, gold, mutants, settings and Spark mode, another condition's in this
 *     study or an earlier study's) or `same-suite` (one run shared with an identical suite
 *     analysed at the same time), named `<t>/<cond>`; a mutation.json from before `ran` was
 *     recorded gives no line.
 * Returns the lines (none when nothing was reused); reads files only, and skips a mutation.json
 * that is missing or not JSON.
 */
export function notRunAgainLines(studyDir: string): string[] {
  const lines: string[] = [];
  const labels: string[] = [];
  const tasksDir = path.join(studyDir, 'tasks');
  const list = (d: string) => {
    try {
      return fs.readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    } catch {
      return [];
    }
  };
  for (const t of list(tasksDir))
    for (const c of list(path.join(tasksDir, t)))
      for (const half of list(path.join(tasksDir, t, c, 'executable-labels')))
        if (fs.existsSync(path.join(tasksDir, t, c, 'executable-labels', half, 'reused.json'))) labels.push(`${t}/${c} ${half}`);
  if (labels.length) lines.push(`  labels not run again (copied from an identical run of the study, reused.json): ${labels.length}: ${named(labels)}`);
  let suites: { task?: unknown; condition?: unknown; ran?: unknown }[] = [];
  try {
    const m = JSON.parse(fs.readFileSync(path.join(studyDir, 'mutation.json'), 'utf8')) as { suites?: unknown };
    if (Array.isArray(m.suites)) suites = m.suites as typeof suites;
  } catch {
    /* no mutation.json yet */
  }
  const ran = (how: string) => suites.filter((x) => x.ran === how).map((x) => `${String(x.task)}/${String(x.condition)}`);
  const cache = ran('cache');
  const same = ran('same-suite');
  const recorded = suites.filter((x) => typeof x.ran === 'string').length;
  if (cache.length + same.length)
    lines.push(`  mutation suites not run again: ${cache.length + same.length} of ${recorded} (mutation.json \`ran\`)${cache.length ? `; copied from an identical run (another condition's in this study, or an earlier study's): ${named(cache)}` : ''}${same.length ? `; one run shared with an identical suite: ${named(same)}` : ''}`);
  return lines;
}

const UNIT: Record<JobKind, string> = { pytest: 'pytest run(s)', execution: 'execution(s)', labels: 'program(s) under acceptance tests or a suite', 'mutation suites': 'program(s) under a suite' };

/**
 * The lines `lockin study profile` and the bench print for a study's JobWork, and, given the
 * study workflow's wall time (step 4, seconds), its ratio to step 4's own work (pytest,
 * execution and labels; the mutation suites are step 5's). Pure.
 */
export function jobWorkLines(work: JobWork, step4WallSeconds?: number): string[] {
  const lines = ['work inside the jobs (the tests and queries as each job measured them, without start-up, staging, sandbox or Temporal; in cold mode a suite\'s first test also starts its JVM):'];
  for (const k of JOB_KINDS) lines.push(`  ${k.padEnd(16)} ${work[k].seconds.toFixed(1).padStart(8)} s in ${work[k].jobs} ${UNIT[k]}`);
  const step4 = work.pytest.seconds + work.execution.seconds + work.labels.seconds;
  if (step4WallSeconds !== undefined && step4 > 0) {
    lines.push(`  step 4's jobs worked ${step4.toFixed(1)} s; the study workflow took ${step4WallSeconds.toFixed(1)} s of wall time = ${(step4WallSeconds / step4).toFixed(2)}× their work`);
    lines.push('  (with N Spark jobs at a time the floor is 1/N×, 0.5× on two, and lower still where a suite job runs two variants at once: its work counts each variant\'s time; what is above it is time outside the jobs\' own work; the mutation suites are step 5\'s and not in this ratio)');
  }
  return lines;
}

/** One row of `lockin study profile --jobs-csv`: one group of Spark jobs. */
export type JobCountRow = {
  /** activities (the pytest, smoke and execution activities of step 4), labels or mutation suites. */
  group: string;
  jobs: number;
  cold_jobs: number;
  warm_jobs: number;
  /** Warm jobs that started their slot's JVM. */
  slot_starts: number;
  /** Warm jobs after which the slot was restarted (a lost slot's job rerun cold included). */
  restarts: number;
  /** Activities that copied an identical run's result and ran no job (activities only; 0 for the suites). */
  copied: number;
  /** Programs the jobs measured: pytest runs and executions (activities), programs under acceptance tests or a suite. */
  programs: number;
  /** Seconds of those programs' own work (jobWork: without start-up, staging, sandbox or Temporal). */
  work_seconds: number;
  /** Jobs whose wall time was recorded (SparkRun.ms), and its parts over them, seconds (JobSeconds). */
  timed_jobs: number;
  process_seconds: number;
  check_seconds: number;
  slot_seconds: number;
};

/**
 * The Spark job counts and work of a study as rows for pandas or DuckDB (`lockin study profile
 * --jobs-csv`): the step 4 activities' jobs (from the histories: Profile.jvm), the label and the
 * mutation suites' jobs (suiteSparkJobs) and each group's programs and work seconds (JobWork).
 * Pure; the same figures as the profile's text lines.
 */
export function jobCountRows(
  activities: { coldJobs: number; warmJobs: number; warmStarts: number; slotRestarts: number; reusedJobs: number; seconds?: JobSeconds },
  suites: Record<'labels' | 'mutation suites', SparkJobs>,
  work: JobWork,
): JobCountRow[] {
  const round = (s: number) => Number(s.toFixed(3));
  const timing = (js: JobSeconds = noJobSeconds()) => ({ timed_jobs: js.timed, process_seconds: round(js.process), check_seconds: round(js.check), slot_seconds: round(js.slot) });
  return [
    {
      group: 'activities', jobs: activities.coldJobs + activities.warmJobs, cold_jobs: activities.coldJobs, warm_jobs: activities.warmJobs, slot_starts: activities.warmStarts,
      restarts: activities.slotRestarts, copied: activities.reusedJobs, programs: work.pytest.jobs + work.execution.jobs, work_seconds: round(work.pytest.seconds + work.execution.seconds),
      ...timing(activities.seconds),
    },
    ...(['labels', 'mutation suites'] as const).map((g) => ({
      group: g, jobs: suites[g].jobs, cold_jobs: suites[g].cold, warm_jobs: suites[g].warm, slot_starts: suites[g].slotStarts,
      restarts: restartCount(suites[g]), copied: 0, programs: work[g].jobs, work_seconds: round(work[g].seconds),
      ...timing(suites[g].seconds),
    })),
  ];
}

/** The columns of jobCountRows, in order. */
export const JOB_COUNT_COLUMNS: (keyof JobCountRow)[] = ['group', 'jobs', 'cold_jobs', 'warm_jobs', 'slot_starts', 'restarts', 'copied', 'programs', 'work_seconds', 'timed_jobs', 'process_seconds', 'check_seconds', 'slot_seconds'];
