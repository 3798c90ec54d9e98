/** The summary table printed at the end of a study and by `study status`, computed from the run records. */
import { newTable } from './table';
import type { RunRecord } from '../protocol/types';
import { BUDGETS, CONDITIONS } from '../protocol/conditions';

export interface ConditionSummary {
  condition: string;
  /** The denominator: recorded runs, or every assigned run when `assigned` was given. */
  runs: number;
  testPassed: number;
  executed: number;
  referenceAgreement: number;
  falsePasses: number;
  modelCalls: number;
  /** Assigned runs without a record (only when `assigned` was given). */
  missing?: number;
}

/** The runs a finished study was assigned: its tasks × conditions (report.md Table III's denominators). */
export interface AssignedRuns {
  tasks: readonly string[];
  conditions: readonly string[];
}

/**
 * Per condition: runs, test-passing runs, executed runs, reference agreements, false passes and
 * model calls (docs/protocol.md §4–5). Replicate records are excluded (Table VII is separate).
 * Without `assigned` (a running study) the denominators are the records so far. With `assigned`
 * (a finished study) the rows are report.md Table III's: sample 1 of each assigned task, every
 * assigned task in the denominator (a run without a record, e.g. of a failed task, counts as one
 * that neither passed, executed nor matched), `missing` counting those runs; every assigned
 * condition has a row (findings #27).
 */
export function summarize(records: RunRecord[], assigned?: AssignedRuns): ConditionSummary[] {
  return CONDITIONS.map((c) => {
    const rs = records.filter((r) => r.condition === c && !r.replicate && (!assigned || ((r.sample ?? 1) === 1 && assigned.tasks.includes(r.taskId))));
    const base = {
      condition: c,
      runs: rs.length,
      testPassed: rs.filter((r) => r.testPassed).length,
      executed: rs.filter((r) => r.execution?.status === 'ok').length,
      referenceAgreement: rs.filter((r) => r.referenceAgreement).length,
      falsePasses: rs.filter((r) => r.falsePass).length,
      modelCalls: rs.reduce((n, r) => n + r.callsUsed, 0),
    };
    if (!assigned) return base;
    if (!assigned.conditions.includes(c)) return { ...base, runs: 0 };
    const recorded = new Set(rs.map((r) => r.taskId));
    return { ...base, runs: assigned.tasks.length, missing: assigned.tasks.filter((t) => !recorded.has(t)).length };
  }).filter((s) => s.runs > 0);
}

/**
 * Renders the summary as a terminal table; with no run recorded yet (a study in its first
 * tasks), one line saying so instead of a table with no rows. Rows with a `missing` count
 * (a finished study) get a "missing runs" column and a line saying the denominators are every
 * assigned run, as in report.md Table III; rows without one, a line saying they count the runs
 * recorded so far.
 */
export function renderSummary(rows: ConditionSummary[], replayed: boolean): string {
  if (!rows.length) return 'no run recorded yet (a task\'s runs are recorded when its conditions finish)\n';
  const finished = rows.some((r) => r.missing !== undefined);
  const t = newTable({ head: ['condition', 'tests passed', 'executed', 'reference agreement', 'false passes', 'false-pass rate', 'calls', ...(finished ? ['missing runs'] : [])] });
  for (const r of rows) {
    t.push([BUDGETS[r.condition as keyof typeof BUDGETS].name, `${r.testPassed}/${r.runs}`, `${r.executed}/${r.runs}`, `${r.referenceAgreement}/${r.runs}`, `${r.falsePasses}`, r.runs ? `${((100 * r.falsePasses) / r.runs).toFixed(1)}%` : '-', `${r.modelCalls}`, ...(finished ? [`${r.missing ?? 0}`] : [])]);
  }
  const missing = rows.reduce((n, r) => n + (r.missing ?? 0), 0);
  const note = finished
    ? `denominators: every assigned run (sample 1 of each task), as in report.md Table III${missing ? `; ${missing} run(s) have no record and count as neither passed nor matched` : ''}`
    : 'counts the runs recorded so far (a task\'s runs are recorded when its conditions finish)';
  return `${replayed ? 'REPLAYED model replies (no live model was called)\n' : ''}${t.toString()}\n${note}\n`;
}
