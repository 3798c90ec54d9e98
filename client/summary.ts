/** The summary table printed at the end of a study, computed from the run records. */
import { newTable } from './table';
import type { RunRecord } from '../protocol/types';
import { BUDGETS, CONDITIONS } from '../protocol/conditions';

export interface ConditionSummary {
  condition: string;
  runs: number;
  testPassed: number;
  executed: number;
  referenceAgreement: number;
  falsePasses: number;
  modelCalls: number;
}

/**
 * Per condition: runs, test-passing runs, executed runs, reference agreements, false passes and
 * model calls (docs/protocol.md §4–5). Replicate records are excluded (Table VII is separate).
 */
export function summarize(records: RunRecord[]): ConditionSummary[] {
  return CONDITIONS.map((c) => {
    const rs = records.filter((r) => r.condition === c && !r.replicate);
    return {
      condition: c,
      runs: rs.length,
      testPassed: rs.filter((r) => r.testPassed).length,
      executed: rs.filter((r) => r.execution?.status === 'ok').length,
      referenceAgreement: rs.filter((r) => r.referenceAgreement).length,
      falsePasses: rs.filter((r) => r.falsePass).length,
      modelCalls: rs.reduce((n, r) => n + r.callsUsed, 0),
    };
  }).filter((s) => s.runs > 0);
}

/**
 * Renders the summary as a terminal table; with no run recorded yet (a study in its first
 * tasks), one line saying so instead of a table with no rows.
 */
export function renderSummary(rows: ConditionSummary[], replayed: boolean): string {
  if (!rows.length) return 'no run recorded yet (a task\'s runs are recorded when its conditions finish)\n';
  const t = newTable({ head: ['condition', 'tests passed', 'executed', 'reference agreement', 'false passes', 'false-pass rate', 'calls'] });
  for (const r of rows) {
    t.push([BUDGETS[r.condition as keyof typeof BUDGETS].name, `${r.testPassed}/${r.runs}`, `${r.executed}/${r.runs}`, `${r.referenceAgreement}/${r.runs}`, `${r.falsePasses}`, r.runs ? `${((100 * r.falsePasses) / r.runs).toFixed(1)}%` : '-', `${r.modelCalls}`]);
  }
  return `${replayed ? 'REPLAYED model replies (no live model was called)\n' : ''}${t.toString()}\n`;
}
