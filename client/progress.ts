/** The study's live progress line, fed by polling the workflow's `progress` query. */
import { SingleBar, Presets } from 'cli-progress';
import type { WorkflowHandle } from '@temporalio/client';
import type { StudyProgress } from '../workflows/types';

function elapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/**
 * Polls `progress` every `intervalMs` and draws a bar (tasks done / total, calls used, running
 * tasks, current step, elapsed). Returns a stop function. On a non-TTY it prints a line per change.
 */
export function showProgress(handle: WorkflowHandle, intervalMs = 2000): () => void {
  const tty = !!process.stderr.isTTY;
  const started = Date.now();
  const bar = new SingleBar(
    { format: 'tasks {bar} {value}/{total} | calls in finished tasks {calls} | {step} | running {running} | {elapsed}', hideCursor: true, stream: process.stderr },
    Presets.shades_classic,
  );
  let begun = false;
  let last = '';
  let lastPrinted = 0;
  const tick = async () => {
    let p: StudyProgress;
    try {
      p = await handle.query<StudyProgress>('progress');
    } catch {
      return;
    }
    const payload = { calls: p.callsUsed, step: p.step, running: p.running.join(',') || '-', elapsed: elapsed(Date.now() - started) };
    if (tty) {
      if (!begun) {
        bar.start(p.tasksTotal, p.tasksDone, payload);
        begun = true;
      } else bar.update(p.tasksDone, payload);
    } else {
      const line = `[lockin] ${p.tasksDone}/${p.tasksTotal} tasks, ${p.callsUsed} calls in finished tasks, ${p.step}${p.running.length ? `, running ${p.running.join(',')}` : ''}${p.tasksFailed.length ? `, failed ${p.tasksFailed.join(',')}` : ''}`;
      if (line !== last || Date.now() - lastPrinted > 60_000) {
        process.stderr.write(`${line} (${payload.elapsed})\n`);
        lastPrinted = Date.now();
      }
      last = line;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  void tick();
  return () => {
    clearInterval(timer);
    if (begun) bar.stop();
  };
}
