/**
 * Benchmark (not a test): the wall time of the full replay study on this machine, broken down
 * by the study profile (model, pytest, Spark execution, comparison, store and scoring, Temporal
 * overhead), and the share of it that is harness overhead: everything but Spark, pytest and
 * model time.
 *
 *   node dist/bench/study.js [--scale 1] [--model replay:lockin] [--study-id bench-…] [--tasks all]
 *
 * Uses a fresh study id by default, so nothing is skipped (the database and references are
 * reused when present; their build time is bench/prepare's subject).
 */
import { parseArgs } from 'util';
import { runMainJob } from '../client/mainJob';
import { connectClient } from '../client/temporal';
import { profileStudy } from '../client/profile';
import { parseTasks } from '../client/studyInput';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { scale: { type: 'string', default: '1' }, model: { type: 'string', default: 'replay:lockin' }, 'study-id': { type: 'string' }, tasks: { type: 'string', default: 'all' } },
  });
  const scale = Number(values.scale);
  const studyId = values['study-id'] ?? `bench-sf${scale}-${Date.now()}`;
  const t0 = Date.now();
  const steps = await runMainJob({ scale, model: values.model!, tasks: parseTasks(values.tasks), studyId });
  const wall = (Date.now() - t0) / 1000;
  const { client, connection } = await connectClient();
  try {
    const p = await profileStudy(client, studyId);
    const work = ['model', 'pytest', 'spark execution'];
    const activitySeconds = Object.values(p.total).reduce((a, b) => a + b, 0);
    const workSeconds = work.reduce((a, k) => a + (p.total[k] ?? 0), 0);
    process.stdout.write(`\nbench/study: ${studyId}\n`);
    process.stdout.write(`wall time of the main job: ${wall.toFixed(1)} s (study workflow: ${p.wallSeconds.toFixed(1)} s)\n`);
    const names: Record<number, string> = { 1: 'Temporal server and worker', 2: 'database and references', 3: 'controls and SQL re-execution', 4: 'the study', 5: 'mutation analysis' };
    for (const [n, sec] of Object.entries(steps)) process.stdout.write(`  step ${n} ${(names[Number(n)] ?? '').padEnd(30)} ${sec.toFixed(1)} s\n`);
    process.stdout.write('the study workflow, activity time by kind:\n');
    for (const [k, v] of Object.entries(p.total).sort((a, b) => b[1] - a[1])) process.stdout.write(`  ${k.padEnd(32)} ${v.toFixed(1)} s (${((100 * v) / activitySeconds).toFixed(1)}% of activity time)\n`);
    process.stdout.write(`harness overhead (everything but Spark, pytest and model): ${(activitySeconds - workSeconds).toFixed(1)} s = ${((100 * (activitySeconds - workSeconds)) / activitySeconds).toFixed(1)}% of activity time\n`);
  } finally {
    await connection.close();
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
