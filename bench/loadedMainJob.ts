/**
 * Benchmark (a script, not a test): the main job on a loaded machine. Starts `--burners`
 * CPU-bound processes (each a busy loop, standing in for other CPU-heavy jobs on the machine),
 * then runs `lockin study main` at a small scale beside them, sampling the 1-minute load average
 * every 5 s, and prints side by side: the job's exit code, its wall time, the load average it ran
 * under (min / mean / max of the samples) and the job's last lines. A job that finishes with exit
 * code 0 ran every workflow to its end (a failed workflow makes `study main` exit 1).
 *
 *   npm run build && node dist/bench/loadedMainJob.js [--burners 8] [--scale 0.01] [--tasks q3,q98]
 *
 * The burners are killed when the job ends, also on Ctrl-C. On two cores, 8 burners and the job
 * itself hold the load average at 10 or more (a load of 10 means ten runnable processes for two
 * cores: each gets a fifth of a core).
 */
import { spawn, type ChildProcess } from 'child_process';
import * as os from 'os';
import * as path from 'path';
import { REPO_ROOT } from '../activities/common/paths';
import { arg } from './abRounds';

function burner(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

/** min, mean and max of a list of numbers, to one decimal ("—" when empty). */
function summary(xs: number[]): string {
  if (!xs.length) return '—';
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return `${Math.min(...xs).toFixed(1)} / ${mean.toFixed(1)} / ${Math.max(...xs).toFixed(1)}`;
}

async function main(): Promise<void> {
  const burners = Number(arg('--burners', '8'));
  const scale = arg('--scale', '0.01');
  const tasks = arg('--tasks', 'q3,q98');
  const studyId = `loaded-${new Date().toISOString().replace(/[-:T.Z]/g, '').slice(0, 14)}`;
  const procs = Array.from({ length: burners }, burner);
  const stop = () => procs.forEach((p) => p.kill('SIGKILL'));
  process.once('SIGINT', () => {
    stop();
    process.exit(130);
  });
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(os.loadavg()[0]), 5000);
  // Let the load average climb before the job starts (it is a 1-minute mean).
  await new Promise((r) => setTimeout(r, 60_000));
  const before = os.loadavg()[0];
  samples.length = 0;
  const started = Date.now();
  const tail: string[] = [];
  const code = await new Promise<number | null>((resolve) => {
    const job = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'lockin'), 'study', 'main', '--scale', scale, '--tasks', tasks, '--study-id', studyId], { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (d: Buffer) => {
      for (const line of d.toString().split('\n').filter(Boolean)) {
        tail.push(line);
        if (tail.length > 25) tail.shift();
      }
    };
    job.stdout!.on('data', keep);
    job.stderr!.on('data', keep);
    job.once('exit', (c) => resolve(c));
  });
  clearInterval(sampler);
  stop();
  const seconds = (Date.now() - started) / 1000;
  console.log(`study ${studyId}: lockin study main --scale ${scale} --tasks ${tasks} beside ${burners} busy-loop processes on ${os.cpus().length} cores`);
  console.log(`exit code ${code}, ${seconds.toFixed(0)} s; 1-minute load average at the start ${before.toFixed(1)}, during the job (min / mean / max of ${samples.length} samples) ${summary(samples)}`);
  console.log('the job\'s last lines:');
  for (const l of tail) console.log(`  ${l}`);
  process.exitCode = code === 0 ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
