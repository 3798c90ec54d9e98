/**
 * The study's live progress, fed by polling the workflow's `progress` query: on a terminal a
 * header line (tasks ended, calls, step, elapsed) and one line per running task, each fitted to
 * the terminal's width (one line holding every task was wider than a 160-column
 * terminal and hid the elapsed time); elsewhere (a file, a pipe, CI) a line per change.
 */
import { MultiBar, type SingleBar } from 'cli-progress';
import type { WorkflowHandle } from '@temporalio/client';
import type { StudyProgress } from '../protocol/inputs';
import { callsQuery, phaseQuery, progressQuery } from '../protocol/queries';
import { conditionWorkflowId, studyWorkflowId, taskWorkflowId } from '../protocol/layout';
import { CONDITIONS, type ConditionId } from '../protocol/conditions';
import { firstThatFits, fitWidth, terminalWidth } from './terminal';

/** One condition of a running task: calls used so far ("-" before it started) and its phase ("-" unknown). */
export interface LiveCondition {
  condition: string;
  used: string;
  phase: string;
}

/** One running task (or, in a model matrix, one running sub-study, with `text` instead of conditions). */
export interface LiveTask {
  task: string;
  conditions: LiveCondition[];
  /** A sub-study's own count ("3/30 tasks ended"), when this is one. */
  text?: string;
}

/**
 * Live calls and phases of the running tasks (workflows/conditions/lifecycle.ts CONDITION_PHASES:
 * calls, waiting, execute, labels, compare, variants, record, done). Asks each condition
 * workflow's `calls` and `phase` queries; a condition that does not answer shows "-".
 */
async function liveTasks(handle: WorkflowHandle, running: string[], conditions: readonly string[]): Promise<LiveTask[]> {
  const client = handle.client;
  return Promise.all(
    running.map(async (task) => ({
      task,
      conditions: await Promise.all(
        conditions.map(async (c) => {
          const h = client.getHandle(conditionWorkflowId(taskWorkflowId(handle.workflowId, task), c as ConditionId));
          const used = await h.query(callsQuery).then((r) => String(r.used)).catch(() => '-');
          const phase = used === '-' ? '-' : await h.query(phaseQuery).catch(() => '-');
          return { condition: c, used, phase };
        }),
      ),
    })),
  );
}

/** One running task in the compact form: "q3 1·1·6·2 [done·labels·calls·waiting]" (the phases left out when none is known). Pure. */
export function liveTaskText(task: string, per: { used: string; phase: string }[]): string {
  const phases = per.map((p) => p.phase);
  return `${task} ${per.map((p) => p.used).join('·')}${phases.some((p) => p !== '-') ? ` [${phases.join('·')}]` : ''}`;
}

/**
 * One running task's line on a terminal of `width` columns, the longest form that fits:
 * "  q3   one-pass 1 call, done │ test-guided 1 call, labels │ plan-audit 6 calls, calls │ …",
 * then without the word "call(s)", then the compact form (liveTaskText), cut with "…" if even
 * that is too wide. A sub-study line is "  <id>  <text>". Pure.
 */
export function taskLine(t: LiveTask, width: number): string {
  if (t.text !== undefined) return fitWidth(`  ${t.task}  ${t.text}`, width);
  const pad = t.task.padEnd(5);
  const part = (c: LiveCondition, words: boolean) => {
    if (c.used === '-') return `${c.condition} not started`;
    const calls = words ? ` ${c.used} call${c.used === '1' ? '' : 's'}` : ` ${c.used}`;
    return `${c.condition}${calls}${c.phase !== '-' ? `, ${c.phase}` : ''}`;
  };
  return firstThatFits(
    [`  ${pad} ${t.conditions.map((c) => part(c, true)).join(' │ ')}`, `  ${pad} ${t.conditions.map((c) => part(c, false)).join(' │ ')}`, `  ${liveTaskText(t.task, t.conditions)}`],
    width,
  );
}

/** "3m05s" from milliseconds. Pure. */
export function elapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/**
 * The header line on a terminal of `width` columns: "tasks ended ██████░░░░ 1/2 | calls in
 * finished tasks 12 | step: running tasks | 3m05s" (failed tasks named at the end). The elapsed
 * time comes before anything that may be cut; the bar shrinks on a narrow terminal. Pure.
 */
export function headerLine(p: Pick<StudyProgress, 'tasksDone' | 'tasksTotal' | 'callsUsed' | 'step' | 'tasksFailed'>, elapsedText: string, width: number): string {
  const barOf = (n: number) => {
    const full = p.tasksTotal > 0 ? Math.round((n * p.tasksDone) / p.tasksTotal) : 0;
    return `${'█'.repeat(full)}${'░'.repeat(n - full)}`;
  };
  const failed = p.tasksFailed.length ? ` | failed: ${p.tasksFailed.join(', ')}` : '';
  const forms = [30, 20, 10].map((n) => `tasks ended ${barOf(n)} ${p.tasksDone}/${p.tasksTotal} | ${elapsedText} | calls in finished tasks ${p.callsUsed} | step: ${p.step}${failed}`);
  forms.push(`${p.tasksDone}/${p.tasksTotal} tasks ended | ${elapsedText} | step: ${p.step}${failed}`);
  return firstThatFits(forms, width);
}

/**
 * The line printed per change when stderr is not a terminal: "[lockin] 1/2 tasks ended, 12 calls
 * in finished tasks, step: running tasks; running (calls one-pass·test-guided·plan-audit·
 * contract-first [phases]): q3 1·1·6·2 [done·labels·calls·waiting], failed q7". Pure.
 */
export function plainLine(p: Pick<StudyProgress, 'tasksDone' | 'tasksTotal' | 'callsUsed' | 'step' | 'tasksFailed'>, running: LiveTask[], conditions: readonly string[]): string {
  // tasksDone counts every task run that ended, failed ones too (findings #13): say "ended", and name the failed.
  const matrix = running.some((t) => t.text !== undefined);
  const label = matrix ? 'running sub-studies' : `running (calls ${conditions.join('·')} [phases])`;
  const list = running.map((t) => (t.text !== undefined ? `${t.task} ${t.text}` : liveTaskText(t.task, t.conditions))).join(', ');
  return `[lockin] ${p.tasksDone}/${p.tasksTotal} tasks ended, ${p.callsUsed} calls in finished tasks, step: ${p.step}${running.length ? `; ${label}: ${list}` : ''}${p.tasksFailed.length ? `, failed ${p.tasksFailed.join(',')}` : ''}`;
}

/**
 * Polls `progress` every `intervalMs` and shows it (above). Returns a stop function; its promise
 * settles once no query is in flight any more, so the caller may close the connection after
 * awaiting it (a query still retrying on a closed channel throws from a timer and kills the
 * process). `conditions`: the study's (each running task shows one figure per condition).
 * The terminal display never turns line wrapping off (cli-progress `linewrap: true` only cuts
 * lines that would still be too wide), so an interrupted run leaves wrapping as it was; the
 * caller's SIGINT handler shows the cursor again (client/terminal.ts restoreTerminal).
 */
export function showProgress(handle: WorkflowHandle, intervalMs = 2000, conditions: readonly string[] = CONDITIONS): () => Promise<void> {
  const tty = !!process.stderr.isTTY;
  const started = Date.now();
  const multi = new MultiBar({ format: '{line}', hideCursor: true, linewrap: true, stream: process.stderr, clearOnComplete: false, stopOnComplete: false, autopadding: false });
  let header: SingleBar | null = null;
  const lines: SingleBar[] = [];
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
    let running: LiveTask[];
    if (matrix) {
      // The matrix counts a model's tasks when its whole sub-study ends: ask each running sub-study instead.
      const subs = await Promise.all(p.running.map((id) => handle.client.getHandle(studyWorkflowId(id)).query(progressQuery).then((q) => ({ id, q })).catch(() => ({ id, q: null }))));
      for (const { q } of subs) if (q) (p.tasksDone += q.tasksDone, p.callsUsed += q.callsUsed);
      running = subs.map(({ id, q }) => ({ task: id, conditions: [], text: q ? `${q.tasksDone}/${q.tasksTotal} tasks ended` : 'starting' }));
    } else running = p.running.length ? await liveTasks(handle, p.running, conditions).catch(() => p.running.map((task) => ({ task, conditions: [] }))) : [];
    const time = elapsed(Date.now() - started);
    if (tty) {
      const width = terminalWidth() - 1;
      const head = headerLine(p, time, width);
      if (!header) header = multi.create(1, 0, { line: head });
      else header.update(0, { line: head });
      // One line per running task; lines beyond the running tasks are removed (MultiBar clears below the last).
      while (lines.length > running.length) multi.remove(lines.pop()!);
      running.forEach((t, i) => {
        const line = taskLine(t, width);
        if (lines[i]) lines[i].update(0, { line });
        else lines.push(multi.create(1, 0, { line }));
      });
      multi.update();
    } else {
      const line = plainLine(p, running, conditions);
      if (line !== last || Date.now() - lastPrinted > 60_000) {
        process.stderr.write(`${line} (${time})\n`);
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
    if (header) multi.stop();
    header = null;
  };
}
