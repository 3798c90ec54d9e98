/**
 * The client side of the test-suite validity and mutation analysis (`lockin study mutation`,
 * and step 5 of the main job): runs activities/mutation/study.ts with progress output, then
 * rewrites the study's report so its mutation tables appear.
 */
import * as path from 'path';
import { InputError } from '../activities/common/errors';
import { analyzeStudyMutation } from '../activities/mutation/study';
import { aggregateByCondition } from '../activities/mutation/score';
import { writeReport } from '../activities/report/writeReport';
import { studyDir } from '../activities/store/layout';
import { BUDGETS, CONDITIONS } from '../protocol/conditions';

/**
 * Analyzes study `id` and (unless report = false) rewrites runs/<id>/report/.
 * Returns a few lines for the terminal: per condition, suites invalid on gold and the pooled
 * mutation score. Throws InputError for a bad option value; analyzeStudyMutation's errors pass through.
 */
export async function runMutationAnalysis(id: string, o: { equivalenceScale?: number; confirmScale?: number; maxPerOperator?: number; tasks?: string[]; report?: boolean }): Promise<string> {
  if (o.equivalenceScale !== undefined && !(o.equivalenceScale > 0)) throw new InputError('must be a positive number', undefined, '--equivalence-scale');
  if (o.confirmScale !== undefined && !(o.confirmScale > 0)) throw new InputError('must be a positive number', undefined, '--confirm-scale');
  if (o.maxPerOperator !== undefined && !(Number.isInteger(o.maxPerOperator) && o.maxPerOperator > 0)) throw new InputError('must be a positive integer', undefined, '--max-per-operator');
  const t0 = Date.now();
  const res = await analyzeStudyMutation({
    studyId: id,
    equivalenceScale: o.equivalenceScale,
    confirmScale: o.confirmScale,
    maxPerOperator: o.maxPerOperator,
    tasks: o.tasks,
    onProgress: (line) => process.stderr.write(`${line}\n`),
  });
  const lines = [`mutation analysis of ${id}: ${res.suites.length} suites, ${((Date.now() - t0) / 1000).toFixed(0)} s; ${path.join(studyDir(id), 'mutation.json')}`];
  const agg = new Map(aggregateByCondition(res.suites).map((a) => [a.condition, a]));
  for (const c of CONDITIONS) {
    const a = agg.get(c);
    if (!a) continue;
    const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);
    lines.push(`  ${BUDGETS[c].name.padEnd(26)} suites ${a.suites}, invalid on gold ${a.invalidSuites}, killed ${a.killed}/${a.total} (pooled ${pct(a.pooledScore)}, mean per suite ${pct(a.meanScore)})`);
  }
  if (o.report !== false) {
    const rep = await writeReport({ studyId: id });
    lines.push(`report rewritten: ${path.join(rep.reportDir, 'report.md')}`);
  }
  return lines.join('\n');
}
