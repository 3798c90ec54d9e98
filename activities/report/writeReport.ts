/**
 * The `writeReport` activity: `runs/<id>/report/` with report.md (Tables I–VII, settings, model,
 * replay banner), figure1.svg/png, summary.json, the CSV and Parquet exports and README.md
 * (how to recompute every table cell with pandas).
 */
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { runsRoot } from '../common/paths';
import { runPythonJson } from '../common/python';
import { InputError } from '../common/errors';
import { CONDITIONS, BUDGETS, type ConditionId } from '../../workflows/budgets';
import { loadStudy, type LoadedStudy } from '../scoring/study';
import { scoreRun, summarizeCondition, pairedForBranch, mechanismsFor, trajectoriesFor, highScoreWithoutAgreement, runsOf, type ScoredRun, type ConditionSummary } from '../scoring/analysis';
import { failureCategories, restrictTasks, tabulateTrajectories } from '../scoring/scores';
import { toCsv } from '../scoring/csv';
import { parseControls, parseReproduce, parseMutation } from './sideFiles';
import { runRows, labelRows, scoreRows, trajectoryRows, pfe, type ExportTable } from './exports';
import * as T from './tables';
import { readmeText } from './readme';

export interface WriteReportInput {
  studyId: string;
  /** Folder holding <studyId>/ (default runsRoot()). */
  runsDir?: string;
  /** Folder holding <qid>/obligations.yaml (default tasksRoot()). */
  tasksDir?: string;
  /** Tasks excluded in the sensitivity analysis (the paper: q11). */
  exclude?: string[];
}

export interface WriteReportResult {
  reportDir: string;
  files: string[];
  summary: Record<ConditionId, ConditionSummary>;
}

const BRANCHES = ['test-guided', 'plan-audit'] as const;

function perCondition<V>(f: (c: ConditionId) => V): Record<ConditionId, V> {
  return Object.fromEntries(CONDITIONS.map((c) => [c, f(c)])) as Record<ConditionId, V>;
}

function analyse(scored: ScoredRun[], tasks: string[]) {
  return {
    summary: perCondition((c) => summarizeCondition(scored, c, tasks)),
    paired: Object.fromEntries(BRANCHES.map((b) => [b, pairedForBranch(scored, b, tasks)])) as Partial<Record<ConditionId, ReturnType<typeof pairedForBranch>>>,
  };
}

/**
 * Writes the report of a finished study.
 * Output: the report folder, the files written, and the per-condition summary.
 * @throws InputError for a missing or malformed study folder (see loadStudy);
 *   SubprocessError when the figure or Parquet script fails.
 */
export async function writeReport(input: WriteReportInput): Promise<WriteReportResult> {
  const studyDir = path.join(input.runsDir ?? runsRoot(), input.studyId);
  if (!fs.existsSync(studyDir)) throw new InputError('study folder not found', studyDir);
  const study = await loadStudy(studyDir, { tasksDir: input.tasksDir });
  const reportDir = path.join(studyDir, 'report');
  fs.mkdirSync(reportDir, { recursive: true });
  const studyId = study.manifest.studyId;
  const tasks = study.tasks;
  const scored = study.runs.map(scoreRun);
  const replicates = study.replicates.map(scoreRun);

  const primary = analyse(scored, tasks);
  const controls = study.controls === null ? null : parseControls(study.controls, path.join(studyDir, 'controls.json'));
  const reproduce = study.reproduce === null ? null : parseReproduce(study.reproduce, path.join(studyDir, 'reproduce.json'));
  const mutation = study.mutation === null ? null : parseMutation(study.mutation, path.join(studyDir, 'mutation.json'));
  const reproduced = reproduce ? new Map(reproduce.map((r) => [r.query, r.reproduced])) : null;
  const exclude = input.exclude ?? ['q11'];

  const sensitivity: T.SensitivityResult[] = [{ label: 'Primary (all assigned tasks)', tasks, ...primary }];
  const addRestriction = (label: string, ts: string[]) => sensitivity.push({ label, tasks: ts, ...analyse(scored, ts) });
  if (exclude.length) addRestriction(`Excluding ${exclude.join(', ')}`, restrictTasks(tasks, { exclude }));
  if (reproduced) {
    const rep = new Set([...reproduced].filter(([, v]) => v).map(([k]) => k));
    addRestriction('SQL-reproduced references only', restrictTasks(tasks, { reproduced: rep }));
    if (exclude.length) addRestriction(`SQL-reproduced, excluding ${exclude.join(', ')}`, restrictTasks(tasks, { exclude, reproduced: rep }));
  }

  const cats = perCondition((c) => failureCategories(runsOf(scored, c, tasks).map((s) => s.run.record?.comparison ?? null)));
  const mech = perCondition((c) => mechanismsFor(scored, c, tasks));
  const trajItems = BRANCHES.flatMap((b) => trajectoriesFor(scored, b, tasks));
  const trajTab = Object.fromEntries(BRANCHES.map((b) => [b, tabulateTrajectories(trajItems.filter((i) => i.branch === b))]));
  const highScores = perCondition((c) => highScoreWithoutAgreement(scored, c, tasks, 0.9));

  const cells = new Map<string, Partial<Record<ConditionId, T.ReplicateCell>>>();
  for (const s of replicates) {
    const key = `${s.run.taskId} (${s.run.replicate})`;
    const r = s.run.record!;
    cells.set(key, { ...(cells.get(key) ?? {}), [s.run.condition]: { passed: r.pytest?.counts.passed ?? null, total: r.pytest?.counts.total ?? null, pfe: pfe(s.run), matched: r.referenceMatched } });
  }

  // Exports (CSV now, Parquet through pyarrow).
  const tables: ExportTable[] = [runRows(studyId, scored, replicates, reproduced), labelRows(studyId, [...study.runs, ...study.replicates]), scoreRows(studyId, scored, reproduced), trajectoryRows(studyId, trajItems)];
  const files: string[] = [];
  for (const t of tables) {
    const f = path.join(reportDir, `${t.name}.csv`);
    fs.writeFileSync(f, toCsv(t.columns.map(([c]) => c), t.rows));
    files.push(f);
  }
  const specFile = path.join(reportDir, '.parquet-spec.json');
  fs.writeFileSync(specFile, JSON.stringify({ tables: tables.map((t) => ({ name: t.name, out: path.join(reportDir, `${t.name}.parquet`), columns: t.columns, rows: t.rows })) }));
  try {
    const res = await runPythonJson('export_parquet.py', [specFile], z.object({ written: z.array(z.object({ name: z.string(), out: z.string(), rows: z.number() })) }), { timeoutMs: 120_000 });
    files.push(...res.written.map((w) => w.out));
  } finally {
    fs.rmSync(specFile, { force: true });
  }

  // Figure 1.
  const pointsFile = path.join(reportDir, '.figure1-points.json');
  fs.writeFileSync(
    pointsFile,
    JSON.stringify({
      title: `Figure 1. Internal scores against reference agreement (${studyId}${isReplayed(study) ? ', REPLAYED' : ''})`,
      conditions: CONDITIONS.map((c) => ({ id: c, name: BUDGETS[c].name })),
      points: scored.filter((s) => s.run.record && s.final).map((s) => ({ condition: s.run.condition, task: s.run.taskId, plan: s.final!.plan, test: s.final!.test, agree: s.run.record!.referenceMatched })),
    }),
  );
  try {
    const fig = await runPythonJson('figure1.py', [pointsFile, reportDir], z.object({ svg: z.string(), png: z.string(), points: z.number() }), { timeoutMs: 120_000 });
    files.push(fig.svg, fig.png);
  } finally {
    fs.rmSync(pointsFile, { force: true });
  }

  // summary.json
  const summaryFile = path.join(reportDir, 'summary.json');
  const summaryJson = {
    studyId,
    model: study.manifest.model,
    replayed: isReplayed(study),
    tasks,
    scoreUnits: 'fractions in [0, 1]; rates are fractions',
    conditions: primary.summary,
  };
  fs.writeFileSync(summaryFile, JSON.stringify(summaryJson, null, 2) + '\n');
  files.push(summaryFile);

  // report.md and README.md
  const md = renderReport(study, {
    primary, controls, reproduce, mutation, sensitivity, cats, mech, trajTab, highScores, cells,
  });
  const mdFile = path.join(reportDir, 'report.md');
  fs.writeFileSync(mdFile, md);
  const readme = path.join(reportDir, 'README.md');
  fs.writeFileSync(readme, readmeText(exclude));
  files.push(mdFile, readme);
  return { reportDir, files, summary: primary.summary };
}

/** True when the study's model was replayed (study.json `replayed`, or a replay:<corpus> model). */
export function isReplayed(study: LoadedStudy): boolean {
  return study.manifest.replayed === true || study.manifest.model.startsWith('replay:');
}

function renderReport(
  study: LoadedStudy,
  a: {
    primary: ReturnType<typeof analyse>;
    controls: ReturnType<typeof parseControls> | null;
    reproduce: ReturnType<typeof parseReproduce> | null;
    mutation: ReturnType<typeof parseMutation> | null;
    sensitivity: T.SensitivityResult[];
    cats: Parameters<typeof T.tableFailureCategories>[0];
    mech: Parameters<typeof T.tableVI>[0];
    trajTab: Parameters<typeof T.tableTrajectories>[0];
    highScores: Record<ConditionId, ReturnType<typeof highScoreWithoutAgreement>>;
    cells: Parameters<typeof T.tableVII>[0];
  },
): string {
  const m = study.manifest;
  const { studyId, model, replayed, settings, tasks: _t, scale, ...rest } = m;
  const allRuns = [...study.runs, ...study.replicates];
  const methods = { judge: allRuns.filter((r) => r.labelMethod === 'judge').length, heuristic: allRuns.filter((r) => r.labelMethod === 'heuristic').length, none: allRuns.filter((r) => r.labelMethod === 'none').length };
  const heuristicLabels = allRuns.flatMap((r) => r.labels).filter((l) => Object.values(l.automated.source).includes('heuristic')).length;
  const deviations = study.runs.flatMap((r) => (r.record?.deviations ?? []).map((d) => [r.taskId, BUDGETS[r.condition].name, d.artifact, d.change, d.allowed ? 'yes' : 'no', d.detail]));
  const missing = study.runs.filter((r) => !r.record).map((r) => `${r.taskId} × ${r.condition}`);
  const out: string[] = [];
  out.push(`# lockin report: ${studyId}`, '');
  if (isReplayed(study)) out.push(`> **REPLAYED**: the model replies in this study were replayed from a recorded corpus (\`${model}\`), not sampled from a live model. Results describe the replay corpus.`, '');
  out.push('## Study and settings', '');
  out.push(mdKv([
    ['Study id', studyId],
    ['Model', model],
    ['Replayed', isReplayed(study) ? 'yes' : 'no'],
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
  out.push('**Failure categories** (primary category, any-category count in parentheses; runs without reference agreement)', '', T.tableFailureCategories(a.cats), '');
  out.push('## Table IV. Paired within-task changes (branch − inherited one-pass, percentage points)', '', 'Quartiles are Tukey hinges (medians of the lower and upper halves; for odd n the median belongs to both halves).', '', T.tableIV(a.primary.paired), '');
  out.push('## Table V. SQL re-execution and sensitivity', '', T.tableVReproduce(a.reproduce, study.tasks), '', T.tableVSensitivity(a.sensitivity), '');
  out.push('## Table VI. Mechanisms of violated obligations in false passes', '', T.tableVI(a.mech), '', 'These totals concern different sets of test-passing runs, not a paired count of defects introduced by revision.', '');
  out.push('## Table VII. Targeted replication', '', 'Cells give passed/total tests; P = suite pass, F = suite failure, E = execution error (candidate execution failed, or pytest errored, failed collection, timed out or crashed).', '', T.tableVII(a.cells), '');
  out.push('## Trajectories (per revision branch and obligation, code label from the one-pass snapshot)', '', 'Counts; in parentheses, how many had their judging assertions changed (test label changed or test_solution.py differs from the snapshot).', '', T.tableTrajectories(a.trajTab), '');
  out.push('## Figure 1. Internal scores against reference agreement', '', '![Figure 1](figure1.svg)', '');
  out.push(T.mdTable(['Condition', 'Runs with plan semantic ratio ≥ 90%', '… lacking reference agreement', 'Runs with test coverage ≥ 90%', '… lacking reference agreement'], CONDITIONS.map((c) => [BUDGETS[c].name, a.highScores[c].planHigh, a.highScores[c].planHighNoAgreement, a.highScores[c].testHigh, a.highScores[c].testHighNoAgreement])), '');
  out.push('## Mutation scores of the frozen suites', '', T.tableMutation(a.mutation), '');
  out.push('## Permission deviations (intent-to-treat: retained)', '', deviations.length ? T.mdTable(['Task', 'Condition', 'Artifact', 'Change', 'Allowed', 'Detail'], deviations) : '_None recorded._', '');
  out.push('## Exports', '', 'runs.csv/.parquet (one row per run), labels.csv/.parquet (automated and final labels per obligation), scores.csv/.parquet (one row per task × condition), trajectories.csv/.parquet, summary.json. See README.md for how to recompute every table cell with pandas.', '');
  return out.join('\n');
}

function mdKv(rows: [string, string | number][]): string {
  return T.mdTable(['Item', 'Value'], rows);
}
