/** Renders report.md from a loaded study and its analyses (activities/report/writeReport.ts). */
import { BUDGETS, CONDITIONS, type ConditionId } from '../../protocol/conditions';
import type { LoadedStudy } from '../scoring/study';
import type { highScoreWithoutAgreement } from '../scoring/analysis';
import type { ControlRow, ReproduceRow, MutationRow } from './sideFiles';
import * as T from './tables';
import { renderIntervals, type IntervalAnalysis } from './intervals';
import { sampleNotes } from './modelsReport';

const MUTATION_NOTE =
  'Each frozen test_solution.py is run against the gold solution (a suite that fails gold is invalid: it is not run on the mutants and counts in no score) and against mutants of gold made by documented operators (activities/python/mutants.py: join type, price column, aggregate function, filter bound, dropped DISTINCT, alias rename, decimal cast, rollup removal). Each mutant runs on the SF=0.01 database; one that agrees with the reference there runs again on the study\'s database, and only one that agrees on both is dropped as equivalent (exact scales: mutation.json). Mutation score = killed / non-equivalent mutants. Raw data: mutation.csv/.parquet (one row per suite and mutant; status not-run for the mutants of an invalid suite).';

/** Everything report.md shows besides the loaded study itself. */
export interface ReportAnalyses {
  primary: { summary: Parameters<typeof T.tableIII>[0]; paired: Parameters<typeof T.tableIV>[0] };
  controls: ControlRow[] | null;
  reproduce: ReproduceRow[] | null;
  mutation: MutationRow[] | null;
  sensitivity: T.SensitivityResult[];
  cats: Parameters<typeof T.tableFailureCategories>[0];
  mech: Parameters<typeof T.tableVI>[0];
  trajTab: Parameters<typeof T.tableTrajectories>[0];
  highScores: Record<ConditionId, ReturnType<typeof highScoreWithoutAgreement>>;
  cells: Parameters<typeof T.tableVII>[0];
  /** Rates with intervals and paired tests over every sample (intervals.ts). */
  intervals: IntervalAnalysis;
}

/**
 * report.md: a REPLAYED banner when the model was replayed, the study's model and settings,
 * Tables I–VII, failure categories, robustness, usage, trajectories, Figure 1 and its counts,
 * mutation scores and permission deviations. Pure.
 */
export function renderReport(study: LoadedStudy, replayedStudy: boolean, a: ReportAnalyses): string {
  const m = study.manifest;
  const { studyId, model, replayed, settings, tasks: _t, scale, ...rest } = m;
  const allRuns = [...study.runs, ...study.replicates];
  const methods = { judge: allRuns.filter((r) => r.labelMethod === 'judge').length, heuristic: allRuns.filter((r) => r.labelMethod === 'heuristic').length, none: allRuns.filter((r) => r.labelMethod === 'none').length };
  const heuristicLabels = allRuns.flatMap((r) => r.labels).filter((l) => Object.values(l.automated.source).includes('heuristic')).length;
  const deviations = study.runs.flatMap((r) => (r.record?.deviations ?? []).map((d) => [r.taskId, BUDGETS[r.condition].name, d.artifact, d.change, d.allowed ? 'yes' : 'no', d.detail]));
  const missing = study.runs.filter((r) => !r.record).map((r) => `${r.taskId} × ${r.condition}`);
  const out: string[] = [];
  out.push(`# lockin report: ${studyId}`, '');
  if (replayedStudy) out.push(`> **REPLAYED**: the model replies in this study were replayed from a recorded corpus (\`${model}\`), not sampled from a live model. Results describe the replay corpus.`, '');
  out.push('## Study and settings', '');
  out.push(mdKv([
    ['Study id', studyId],
    ['Model', model],
    ['Replayed', replayedStudy ? 'yes' : 'no'],
    ['Scale factor', scale ?? '—'],
    ['Assigned tasks', `${study.tasks.length}: ${study.tasks.join(' ')}`],
    ['Runs missing a record', missing.length ? missing.join(', ') : 'none'],
    ['Automated labels', `${methods.judge} runs by judge, ${methods.heuristic} runs by heuristic fallback, ${methods.none} runs unlabelled; ${heuristicLabels} obligation labels have a heuristic dimension (source: heuristic in labels.csv)`],
    ['Final labels', study.finalLabelsImported ? `${study.finalLabelsImported - study.finalLabelsUnmatched.length} adjudicated labels used (labels/final.csv); the rest default to automated${study.finalLabelsUnmatched.length ? `; ${study.finalLabelsUnmatched.length} match no labelled run and were ignored: ${study.finalLabelsUnmatched.slice(0, 20).map((k) => k.split('|').join(' ')).join(', ')}` : ''}` : 'none imported: final = automated'],
  ]));
  const restShown: Record<string, unknown> = { ...rest };
  if (restShown.inputs && typeof restShown.inputs === 'object') restShown.inputs = `${Object.keys(restShown.inputs as object).length} input files hashed (see study.json)`;
  out.push('', '**Settings** (study.json)', '', '```json', JSON.stringify({ settings: settings ?? null, ...restShown }, null, 2), '```', '');
  out.push('## Table I. Conditions', '', T.tableI(), '');
  out.push('## Table II. Evaluator controls', '', T.tableII(a.controls), '');
  out.push('## Table III. Primary outcomes per condition', '', 'False-pass rate uses all assigned runs as denominator; the conditional false-pass proportion uses test-passing runs. Scores are condition means over all assigned tasks, from final labels (a missing run or a failed execution contributes zero code score).', '', T.tableIII(a.primary.summary), '');
  const maxSamples = Math.max(1, ...a.intervals.models.map((mi) => mi.samples));
  if (maxSamples > 1) out.push(`Tables III–VII and Figure 1 read sample 1 of each task (the paper's one generation per task); the next section covers all ${maxSamples} samples.`, '');
  out.push('## Samples and intervals', '', renderIntervals(a.intervals, sampleNotes(a.intervals)), '');
  out.push('**Failure categories** (primary category, any-category count in parentheses; runs without reference agreement)', '', T.tableFailureCategories(a.cats), '');
  const extras: T.RunExtras[] = study.runs.filter((r) => r.record).map((r) => ({
    condition: r.condition,
    agree: r.record!.comparison?.agree ?? null,
    ladderLevel: r.record!.comparison?.ladderLevel,
    toleranceAgreement: r.record!.comparison?.toleranceAgreement,
    inputTokens: r.record!.usage?.inputTokens ?? 0,
    outputTokens: r.record!.usage?.outputTokens ?? 0,
    cacheReadTokens: r.record!.usage?.cacheReadTokens ?? 0,
    costUsd: r.record!.costUsd ?? 0,
  }));
  out.push('**Robustness** (post-hoc; never changes the primary outcome)', '', T.tableRobustness(extras), '');
  out.push('**Model usage** (the paper recorded no token counts; the shared initial generation is counted in every condition that inherits it)', '', T.tableUsage(extras), '');
  out.push('## Table IV. Paired within-task changes (branch − inherited one-pass, percentage points)', '', 'Quartiles are Tukey hinges (medians of the lower and upper halves; for odd n the median belongs to both halves).', '', T.tableIV(a.primary.paired), '');
  out.push('## Table V. SQL re-execution and sensitivity', '', T.tableVReproduce(a.reproduce, study.tasks), '', T.tableVSensitivity(a.sensitivity), '');
  out.push('## Table VI. Mechanisms of violated obligations in false passes', '', T.tableVI(a.mech), '', 'These totals concern different sets of test-passing runs, not a paired count of defects introduced by revision.', '');
  out.push('## Table VII. Targeted replication', '', 'Cells give passed/total tests; P = suite pass, F = suite failure, E = execution error (candidate execution failed, or pytest errored, failed collection, timed out or crashed).', '', T.tableVII(a.cells), '');
  out.push('## Trajectories (per revision branch and obligation, code label from the one-pass snapshot)', '', 'Counts; in parentheses, how many had their judging assertions changed (test label changed or test_solution.py differs from the snapshot).', '', T.tableTrajectories(a.trajTab), '');
  out.push('## Figure 1. Internal scores against reference agreement', '', '![Figure 1](figure1.svg)', '');
  out.push(T.mdTable(['Condition', 'Runs with plan semantic ratio ≥ 90%', '… lacking reference agreement', 'Runs with test coverage ≥ 90%', '… lacking reference agreement'], CONDITIONS.map((c) => [BUDGETS[c].name, a.highScores[c].planHigh, a.highScores[c].planHighNoAgreement, a.highScores[c].testHigh, a.highScores[c].testHighNoAgreement])), '');
  out.push('## Mutation scores of the frozen suites', '', MUTATION_NOTE, '', T.tableMutation(a.mutation), '');
  if (a.mutation) out.push('![Figure 2. Mutation scores, task by condition (grey: invalid on gold; red frame: false pass)](figure2-mutation.svg)', '');
  if (a.mutation) out.push('Per task (killed/non-equivalent mutants; "invalid on gold": the suite rejects the gold solution):', '', T.tableMutationPerSuite(a.mutation, study.tasks), '', 'Surviving mutants per operator (valid suites):', '', T.tableSurvivors(a.mutation), '');
  out.push('## Permission deviations (intent-to-treat: retained)', '', deviations.length ? T.mdTable(['Task', 'Condition', 'Artifact', 'Change', 'Allowed', 'Detail'], deviations) : '_None recorded._', '');
  out.push('## Exports', '', 'runs.csv/.parquet (one row per run), labels.csv/.parquet (automated and final labels per obligation), scores.csv/.parquet (one row per task × condition), trajectories.csv/.parquet, mutation.csv/.parquet (when the mutation analysis ran), summary.json. See README.md for how to recompute every table cell with pandas.', '');
  return out.join('\n');
}

function mdKv(rows: [string, string | number][]): string {
  return T.mdTable(['Item', 'Value'], rows);
}
