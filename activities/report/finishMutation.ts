/**
 * The last step of the test-suite validity and mutation analysis: mutation.json assembled from
 * the cached per-task work, a summary for the terminal, and the report rewritten.
 */
import * as path from 'path';
import { BUDGETS, CONDITIONS } from '../../protocol/conditions';
import { writeReport } from './writeReport';
import { studyDir } from '../common/layout';
import { aggregateByCondition } from '../mutation/score';
import { analyzeStudyMutation } from '../mutation/study';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

/** Input of finishMutationAnalysis (the analysis's options, as mutationTask had them). */
export type FinishMutationRequest = ActivityInput<'finishMutationAnalysis'>;

/**
 * Activity: writes runs/<id>/mutation.json (analyzeStudyMutation: every part is cached by then,
 * so this reruns nothing that finished), then rewrites the report unless `report` is false.
 * @returns lines for the terminal: per condition, suites, suites invalid on gold, killed/total
 * with the pooled and mean-per-suite mutation scores; the report path.
 */
export async function finishMutationAnalysis(req: FinishMutationRequest): Promise<ActivityOutput<'finishMutationAnalysis'>> {
  const res = await analyzeStudyMutation({ studyId: req.studyId, equivalenceScale: req.equivalenceScale, confirmScale: req.confirmScale, maxPerOperator: req.maxPerOperator, tasks: req.tasks });
  const took = req.seconds === undefined ? '' : `, ${req.seconds.toFixed(0)} s`;
  const lines = [`mutation analysis of ${req.studyId}: ${res.suites.length} suites${took}; ${path.join(studyDir(req.studyId), 'mutation.json')}`];
  const agg = new Map(aggregateByCondition(res.suites).map((a) => [a.condition, a]));
  for (const c of CONDITIONS) {
    const a = agg.get(c);
    if (!a) continue;
    const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);
    lines.push(`  ${BUDGETS[c].name.padEnd(26)} suites ${a.suites}, invalid on gold ${a.invalidSuites}${a.measuredThroughValidTests ? ` (${a.measuredThroughValidTests} measured through their valid tests)` : ''}, killed ${a.killed}/${a.total} (pooled ${pct(a.pooledScore)}, mean per suite ${pct(a.meanScore)})`);
  }
  if (req.report !== false) {
    const rep = await writeReport({ studyId: req.studyId });
    lines.push(`report rewritten: ${path.join(rep.reportDir, 'report.md')}`);
  }
  return lines.join('\n');
}
