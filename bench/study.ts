/**
 * Benchmark (not a test): the wall time of the full replay study on this machine, broken down
 * by the study profile (model, pytest, Spark execution, comparison, store and scoring, Temporal
 * overhead), and the share of it that is harness overhead: everything but Spark, pytest and
 * model time.
 *
 *   node dist/bench/study.js [--scale 1] [--model replay:lockin] [--study-id bench-…] [--tasks all]
 *   node dist/bench/study.js --compare-cold [--scale 0.01] [--tasks q3,q98]
 *   node dist/bench/study.js --mode warm [--scale 1] [--tasks q3,q98]     (one half of --compare-cold)
 *   node dist/bench/study.js --compare-studies <cold study id>,<warm study id>
 *
 * Uses a fresh study id by default, so nothing is skipped (the database and references are
 * reused when present; their build time is bench/prepare's subject).
 *
 * `--compare-cold` is the equivalence run of the warm Spark slots: the same replay study twice on the same
 * database, first with LOCKIN_SPARK_MODE=cold, then warm, each with a fresh mutation cache
 * (LOCKIN_MUTANTS_CACHE) and a fresh cache of the labeller check (LOCKIN_OBLIGATIONS_CACHE), and prints side by side the wall time of every main-job step, their
 * ratio, the JVM start-ups of each run, and whether every verdict is identical (bench/verdicts.ts:
 * pytest outcomes by test id, candidate output schemas and row multisets, reference agreement,
 * executable labels, mutation kills, controls, SQL re-execution). Any difference is listed and
 * the run exits 1. `--mode cold|warm` runs one half of it (fresh caches, the JVM start-ups), and
 * `--compare-studies A,B` compares the verdicts of two finished studies the same way, so a long
 * equivalence run can be made in two sittings.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseArgs } from 'util';
import { runMainJob } from '../client/mainJob';
import { connectClient } from '../client/temporal';
import { profileStudy, WORK_CATEGORIES, type Profile } from '../client/profile';
import { parseTasks } from '../client/studyInput';
import { jvmStartCounts } from '../activities/execution/slots';
import { collectVerdicts, verdictDifferences } from './verdicts';
import { jobWorkLines, sparkJobLines, studyJobWork, suiteJobLines } from '../client/jobWork';
import { studyDir } from '../activities/common/layout';
import { studyBasics } from '../activities/mutation/study';

const STEP_NAMES: Record<number, string> = { 1: 'Temporal server and worker', 2: 'database and references', 3: 'controls and SQL re-execution', 4: 'the study', 5: 'mutation analysis', 6: 'summary' };

async function profileOf(studyId: string): Promise<Profile> {
  const { client, connection } = await connectClient();
  try {
    return await profileStudy(client, studyId);
  } finally {
    await connection.close();
  }
}

function printProfile(studyId: string, wall: number, steps: Record<number, number>, p: Profile): void {
  const work: readonly string[] = WORK_CATEGORIES;
  const activitySeconds = Object.values(p.total).reduce((a, b) => a + b, 0);
  const workSeconds = work.reduce((a, k) => a + (p.total[k] ?? 0), 0);
  process.stdout.write(`\nbench/study: ${studyId}\n`);
  process.stdout.write(`wall time of the main job: ${wall.toFixed(1)} s (study workflow: ${p.wallSeconds.toFixed(1)} s)\n`);
  for (const [n, sec] of Object.entries(steps)) process.stdout.write(`  step ${n} ${(STEP_NAMES[Number(n)] ?? '').padEnd(30)} ${sec.toFixed(1)} s\n`);
  process.stdout.write('the study\'s workflows (steps 3, 4 and 5), activity time by kind:\n');
  for (const [k, v] of Object.entries(p.total).sort((a, b) => b[1] - a[1])) process.stdout.write(`  ${k.padEnd(32)} ${v.toFixed(1)} s (${((100 * v) / activitySeconds).toFixed(1)}% of activity time)\n`);
  process.stdout.write(`harness overhead (everything but model, pytest, Spark and labels work): ${(activitySeconds - workSeconds).toFixed(1)} s = ${((100 * (activitySeconds - workSeconds)) / activitySeconds).toFixed(1)}% of activity time\n`);
  const j = p.jvm;
  process.stdout.write(`JVM start-ups of the study's pytest, smoke and execution activities: ${j.coldJobs + j.warmStarts} (${j.coldJobs} cold jobs, ${j.warmJobs} warm jobs, ${j.warmStarts} slot start-ups, ${j.slotRestarts} restarts, ${j.reusedJobs} reused without a job)\n`);
  const reasons = sparkJobLines('', { jobs: j.warmJobs, cold: j.coldJobs, warm: j.warmJobs, slotStarts: j.warmStarts, restarts: j.restartReasons, seconds: j.seconds }).slice(1);
  if (reasons.length) process.stdout.write(`${reasons.join('\n')}\n`);
  process.stdout.write(`${suiteJobLines(studyDir(studyId)).join('\n')}\n`);
  process.stdout.write(`${jobWorkLines(studyJobWork(studyDir(studyId)), p.wallSeconds).join('\n')}\n`);
}

interface ModeRun {
  mode: 'cold' | 'warm';
  studyId: string;
  wall: number;
  steps: Record<number, number>;
  profile: Profile;
  jvm: { slots: number; cold: number };
}

async function runIn(mode: 'cold' | 'warm', scale: number, model: string, tasks: string[], stamp: number): Promise<ModeRun> {
  process.env.LOCKIN_SPARK_MODE = mode;
  process.env.LOCKIN_MUTANTS_CACHE = fs.mkdtempSync(path.join(os.tmpdir(), `lockin-bench-mutants-${mode}-`));
  process.env.LOCKIN_OBLIGATIONS_CACHE = fs.mkdtempSync(path.join(os.tmpdir(), `lockin-bench-obligations-${mode}-`));
  const studyId = `bench-${mode}-sf${scale}-${stamp}`;
  const before = jvmStartCounts();
  const t0 = Date.now();
  const steps = await runMainJob({ scale, model, tasks, studyId });
  const wall = (Date.now() - t0) / 1000;
  const after = jvmStartCounts();
  const profile = await profileOf(studyId);
  printProfile(studyId, wall, steps, profile);
  return { mode, studyId, wall, steps, profile, jvm: { slots: after.slots - before.slots, cold: after.cold - before.cold } };
}

async function compareCold(scale: number, model: string, tasks: string[]): Promise<number> {
  const stamp = Date.now();
  const cold = await runIn('cold', scale, model, tasks, stamp);
  const warm = await runIn('warm', scale, model, tasks, stamp);
  const row = (name: string, c: number, w: number) => `  ${name.padEnd(36)} ${c.toFixed(1).padStart(8)} ${w.toFixed(1).padStart(8)} ${(w > 0 ? c / w : NaN).toFixed(2).padStart(7)}×\n`;
  process.stdout.write(`\nequivalence run (warm Spark slots): ${tasks.length} task(s) at SF=${scale}, ${model}; load average at the end ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
  process.stdout.write(`  ${'step'.padEnd(36)} ${'cold s'.padStart(8)} ${'warm s'.padStart(8)} ${'ratio'.padStart(8)}\n`);
  for (const n of Object.keys(cold.steps).map(Number)) process.stdout.write(row(`step ${n} ${STEP_NAMES[n] ?? ''}`, cold.steps[n], warm.steps[n] ?? 0));
  process.stdout.write(row('main job', cold.wall, warm.wall));
  for (const k of ['pytest', 'spark execution', 'labels (acceptance tests and suites)']) process.stdout.write(row(`step 4 activity time: ${k}`, cold.profile.total[k] ?? 0, warm.profile.total[k] ?? 0));
  process.stdout.write(`  JVM start-ups through runSparkJob (pytest, smoke, execution, suites, step 5's executions of gold and its variants): cold ${cold.jvm.cold}, warm ${warm.jvm.slots} slot start-ups (+${warm.jvm.cold} jobs that ran cold)\n`);
  return compareVerdicts(cold.studyId, warm.studyId);
}

/** The Spark mode study.json records for a study (activities/mutation/study.ts studyBasics), or "mode unknown" without one. */
function studyMode(id: string): string {
  try {
    return `${studyBasics(id).sparkMode} mode`;
  } catch {
    return 'mode unknown';
  }
}

/** Prints whether every verdict of study `a` equals study `b`'s (bench/verdicts.ts); 0 when identical, else 1. */
async function compareVerdicts(coldId: string, warmId: string): Promise<number> {
  const [a, b] = [await collectVerdicts(coldId), await collectVerdicts(warmId)];
  const diffs = verdictDifferences(a, b);
  if (coldId === warmId) process.stdout.write(`note: both ids name the same study (${coldId}): this checks the collection, not two runs\n`);
  process.stdout.write(`verdicts compared: ${Object.keys(a).length} (${coldId}, ${studyMode(coldId)}) and ${Object.keys(b).length} (${warmId}, ${studyMode(warmId)}): ${diffs.length === 0 ? 'every verdict identical' : `${diffs.length} DIFFERENT`}\n`);
  for (const d of diffs) process.stdout.write(`  DIFFERENT ${d}\n`);
  return diffs.length === 0 ? 0 : 1;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string' }, model: { type: 'string', default: 'replay:lockin' }, 'study-id': { type: 'string' }, tasks: { type: 'string', default: 'all' },
      'compare-cold': { type: 'boolean', default: false }, mode: { type: 'string' }, 'compare-studies': { type: 'string' },
    },
  });
  if (values['compare-studies']) {
    const ids = values['compare-studies'].split(',').map((x) => x.trim()).filter(Boolean);
    if (ids.length !== 2) throw new Error('--compare-studies: give two study ids, cold first, separated by a comma');
    process.exitCode = await compareVerdicts(ids[0], ids[1]);
    return;
  }
  if (values.mode !== undefined && values.mode !== 'cold' && values.mode !== 'warm') throw new Error(`--mode: "${values.mode}" is not cold or warm`);
  const compare = values['compare-cold']!;
  const scale = Number(values.scale ?? (compare ? '0.01' : '1'));
  if (compare) {
    process.exitCode = await compareCold(scale, values.model!, parseTasks(values.tasks));
    return;
  }
  if (values.mode) {
    const r = await runIn(values.mode as 'cold' | 'warm', scale, values.model!, parseTasks(values.tasks), Date.now());
    process.stdout.write(`JVM start-ups through runSparkJob (pytest, smoke, execution, suites, step 5's executions of gold and its variants): ${r.mode === 'cold' ? `${r.jvm.cold} cold` : `${r.jvm.slots} slot start-ups (+${r.jvm.cold} jobs that ran cold)`}\n`);
    return;
  }
  const studyId = values['study-id'] ?? `bench-sf${scale}-${Date.now()}`;
  const t0 = Date.now();
  const steps = await runMainJob({ scale, model: values.model!, tasks: parseTasks(values.tasks), studyId });
  printProfile(studyId, (Date.now() - t0) / 1000, steps, await profileOf(studyId));
}

main().catch((e) => {
  // Bad arguments and a study without records are the user's to fix: their message, no stack.
  const err = e as Error & { code?: string };
  const plain = err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || /^--|the study has no run records/.test(err.message);
  process.stderr.write(`${plain ? `bench/study: ${err.message}\nusage: see the comment at the top of bench/study.ts, or README "Tests and benchmarks"` : err.stack}\n`);
  process.exit(1);
});
