/** The study's live progress line, fed by polling the workflow's `progress` query. */
import { SingleBar, Presets } from 'cli-progress';
import type { WorkflowHandle } from '@temporalio/client';
import type { StudyProgress } from '../protocol/inputs';
import { callsQuery, phaseQuery, progressQuery } from '../protocol/queries';
import { conditionWorkflowId, studyWorkflowId, taskWorkflowId } from '../protocol/layout';
import { CONDITIONS, type ConditionId } from '../protocol/conditions';

/**
 * Live calls and phases of the running tasks: "q70 1·2·4 [waiting·calls·calls]" = calls used so
 * far by Frozen One-Pass · Test-Guided · PlanAudit (each including the shared initial generation,
 * as the budgets count; "-" for a condition not started yet), then what each is doing
 * (workflows/conditions/lifecycle.ts CONDITION_PHASES: calls, waiting, execute, labels, compare,
 * variants, record, done; "-" when unknown). Asks each condition workflow's `calls` and `phase` queries.
 */
async function liveCalls(handle: WorkflowHandle, running: string[], conditions: readonly string[]): Promise<string> {
  const client = handle.client;
  const parts = await Promise.all(
    running.map(async (task) => {
      const per = await Promise.all(
        conditions.map(async (c) => {
          const h = client.getHandle(conditionWorkflowId(taskWorkflowId(handle.workflowId, task), c as ConditionId));
          const used = await h.query(callsQuery).then((r) => String(r.used)).catch(() => '-');
          const phase = used === '-' ? '-' : await h.query(phaseQuery).catch(() => '-');
          return { used, phase };
        }),
      );
      return liveTaskText(task, per);
    }),
  );
  return parts.join(', ');
}

/** One running task's part of the progress line: "q3 1·1·6·2 [done·labels·calls·waiting]" (the phases left out when none is known). Pure. */
export function liveTaskText(task: string, per: { used: string; phase: string }[]): string {
  const phases = per.map((p) => p.phase);
  return `${task} ${per.map((p) => p.used).join('·')}${phases.some((p) => p !== '-') ? ` [${phases.join('·')}]` : ''}`;
}

function elapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/**
 * Polls `progress` every `intervalMs` and draws a bar (tasks done / total, calls used, running
 * tasks, current step, elapsed). Returns a stop function; its promise settles once no query is
 * in flight any more, so the caller may close the connection after awaiting it (a query still
 * retrying on a closed channel throws from a timer and kills the process). On a non-TTY it
 * prints a line per change. `conditions`: the study's (the live calls show one figure each).
 */
export function showProgress(handle: WorkflowHandle, intervalMs = 2000, conditions: readonly string[] = CONDITIONS): () => Promise<void> {
  const tty = !!process.stderr.isTTY;
  const started = Date.now();
  const bar = new SingleBar(
    { format: `tasks ended {bar} {value}/{total} | calls in finished tasks {calls} | {step} | {label}: {running} | {elapsed}`, hideCursor: true, stream: process.stderr },
    Presets.shades_classic,
  );
  let begun = false;
  let last = '';
  let lastPrinted = 0;
  const tick = async () => {
    let p: StudyProgress;
    try {
      p = await handle.query(progressQuery);
    } catch {
      return;
    }
    // A model matrix runs sub-studies (`<study>--<model>`), not tasks: they have no live calls to show.
    const matrix = p.running.length > 0 && p.running.every((r) => r.startsWith(`${handle.workflowId.replace(/^study-/, '')}--`));
    const live = p.running.length && !matrix ? await liveCalls(handle, p.running, conditions).catch(() => '') : '';
    let running = live || p.running.join(', ') || '-';
    if (matrix) {
      // The matrix counts a model's tasks when its whole sub-study ends: ask each running sub-study instead.
      const subs = await Promise.all(p.running.map((id) => handle.client.getHandle(studyWorkflowId(id)).query(progressQuery).then((q) => ({ id, q })).catch(() => ({ id, q: null }))));
      for (const { q } of subs) if (q) (p.tasksDone += q.tasksDone, p.callsUsed += q.callsUsed);
      running = subs.map(({ id, q }) => (q ? `${id} ${q.tasksDone}/${q.tasksTotal}` : id)).join(', ');
    }
    const runningLabel = matrix ? 'running sub-studies' : `running tasks (calls ${conditions.join('·')} [phases])`;
    const payload = { calls: p.callsUsed, step: p.step, running, label: runningLabel, elapsed: elapsed(Date.now() - started) };
    if (tty) {
      if (!begun) {
        bar.start(p.tasksTotal, p.tasksDone, payload);
        begun = true;
      } else bar.update(p.tasksDone, payload);
    } else {
      // tasksDone counts every task run that ended, failed ones too (findings #13): say "ended", and name the failed.
      const line = `[lockin] ${p.tasksDone}/${p.tasksTotal} tasks ended, ${p.callsUsed} calls in finished tasks, step: ${p.step}${p.running.length ? `; ${runningLabel}: ${running}` : ''}${p.tasksFailed.length ? `, failed ${p.tasksFailed.join(',')}` : ''}`;
      if (line !== last || Date.now() - lastPrinted > 60_000) {
        process.stderr.write(`${line} (${payload.elapsed})\n`);
        lastPrinted = Date.now();
      }
      last = line;
    }
  };
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const run = () => {
    if (stopped) return;
    const p = tick().catch(() => undefined);
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  const timer = setInterval(run, intervalMs);
  run();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await Promise.all([...inFlight]);
    if (begun) bar.stop();
    begun = false;
  };
}
