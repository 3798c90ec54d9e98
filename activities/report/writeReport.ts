/**
 * The `writeReport` activity: `runs/<id>/report/` with report.md (Tables I–VII, settings, model,
 * replay banner), figure1.svg/png, summary.json, the CSV and Parquet exports and README.md
 * (how to recompute every table cell with pandas).
 */
import { intervalAnalysis } from './intervals';
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { referencesDir, runsRoot, tasksRoot } from '../common/paths';
import { loadOutput } from '../compare/load';
import type { PlainTable } from '../compare/table';
import { taskDiscrimination, withVariantDatabases, type TaskDiscrimination, type VariantReferenceInput } from '../mutation/discrimination';
import { countsKills } from '../mutation/score';
import { listVariants, variantReference } from '../data/variants';
import { variantsForRun, type RecordedVariant } from '../data/differential';
import { loadEvaluationSpec } from '../tasks/evaluation';
import { runPythonJson } from '../common/python';
import { LabellerAccuracyFileSchema, LabellerCalibrationFileSchema, type LabellerAccuracyFile, type LabellerCalibrationFile } from '../../protocol/sideFiles';
import { InputError } from '../common/errors';
import { agreementRows, readRaters } from '../scoring/raters';
import { BUDGETS, REVISION_BRANCHES, type ConditionId } from '../../protocol/conditions';
import { layoutDir, loadStudy, resolveDir, type LoadedStudy } from '../scoring/study';
import { scoreRun, summarizeCondition, pairedForBranch, mechanismsFor, trajectoriesFor, highScoreWithoutAgreement, runsOf, type ScoredRun, type ConditionSummary } from '../scoring/analysis';
import { failureCategories, restrictTasks, tabulateTrajectories } from '../scoring/scores';
import { toCsv } from '../common/csv';
import { parseControls, parseReproduce, parseMutation, parseMutationVerdicts, type MutationRow } from './sideFiles';
import { runRows, labelRows, scoreRows, trajectoryRows, mutationRows, pfe, type ExportTable } from './exports';
import * as T from './tables';
import { readmeText } from './readme';
import { renderReport, settingsJson, SETTINGS_FILE } from './render';
import { PAPER_SENSITIVITY, SensitivitySubsets, type SensitivitySubset } from '../../protocol/sensitivity';
import { readReplyProvenance, runReplyProvenance } from './provenance';
import { readRepeats } from './repeats';
import { isReplaySpec } from '../../protocol/model';
import { inspectLogDir, writeInspectLogs, type InspectLogsOutcome } from './inspect/writeLogs';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

export interface WriteReportInput {
  studyId: string;
  /** Folder holding <studyId>/ (default runsRoot()). */
  runsDir?: string;
  /** Folder holding <taskId>/obligations.yaml (default tasksRoot()). */
  tasksDir?: string;
  /**
   * Table V's sensitivity subsets, overriding the study's setting (study.json `sensitivity`,
   * default PAPER_SENSITIVITY of protocol/sensitivity.ts).
   */
  sensitivity?: SensitivitySubset[];
}

export interface WriteReportResult {
  reportDir: string;
  files: string[];
  summary: Record<ConditionId, ConditionSummary>;
}

/** The revision branches among the shown conditions, each compared with one-pass (none when the study has no one-pass run to pair with). */
const branchesOf = (shown: readonly ConditionId[]) => (shown.includes('one-pass') ? REVISION_BRANCHES.filter((b) => shown.includes(b)) : []);

/** A value per shown condition (the keys say which conditions the tables show). */
function perCondition<V>(shown: readonly ConditionId[], f: (c: ConditionId) => V): Record<ConditionId, V> {
  return Object.fromEntries(shown.map((c) => [c, f(c)])) as Record<ConditionId, V>;
}

/**
 * Table III and Table IV numbers over one task list, for exactly the `shown` conditions (the
 * study's, LoadedStudy.conditions, in Table I order): a summary per condition and the paired
 * changes of each shown revision branch against one-pass. Pure.
 */
export function analyse(scored: ScoredRun[], tasks: string[], shown: readonly ConditionId[]) {
  return {
    summary: perCondition(shown, (c) => summarizeCondition(scored, c, tasks)),
    paired: Object.fromEntries(branchesOf(shown).map((b) => [b, pairedForBranch(scored, b, tasks)])) as Partial<Record<ConditionId, ReturnType<typeof pairedForBranch>>>,
  };
}

/**
 * Activity of `lockin report` (workflows/commands.ts studyReport): writeReport, then the report
 * folder and how many files it holds (Table III's numbers are in its summary.json).
 */
export async function writeStudyReport(req: ActivityInput<'writeStudyReport'>): Promise<ActivityOutput<'writeStudyReport'>> {
  const res = await writeReport({ studyId: req.studyId, runsDir: req.runsDir, sensitivity: req.sensitivity });
  return { reportDir: res.reportDir, files: res.files.length };
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

  const shown = study.conditions;
  const primary = analyse(scored, tasks, shown);
  const controls = study.controls === null ? null : parseControls(study.controls, path.join(studyDir, 'controls.json'));
  const reproduce = study.reproduce === null ? null : parseReproduce(study.reproduce, path.join(studyDir, 'reproduce.json'));
  const mutation = study.mutation === null ? null : parseMutation(study.mutation, path.join(studyDir, 'mutation.json'));
  const reproduced = reproduce ? new Map(reproduce.map((r) => [r.taskId, r.reproduced])) : null;
  const subsets = sensitivitySubsets(study, input.sensitivity);
  const sensitivity: T.SensitivityResult[] = [{ label: 'Primary (all assigned tasks)', rule: 'every assigned task', tasks, ...primary }];
  const rep = reproduced ? new Set([...reproduced].filter(([, v]) => v).map(([k]) => k)) : null;
  const skipped: string[] = [];
  for (const s of subsets) {
    if (s.reproducedOnly && !rep) {
      skipped.push(`${s.name} (needs reproduce.json)`);
      continue;
    }
    const exclude = s.exclude.filter((t) => tasks.includes(t));
    if (s.exclude.length && !exclude.length) {
      skipped.push(`${s.name} (excludes no task of this study)`);
      continue;
    }
    const ts = restrictTasks(tasks, { exclude, reproduced: s.reproducedOnly ? rep : null });
    sensitivity.push({ label: s.name, rule: s.rule, tasks: ts, ...analyse(scored, ts, shown) });
  }

  const cats = perCondition(shown, (c) => failureCategories(runsOf(scored, c, tasks).map((s) => s.run.record?.comparison ?? null)));
  const mech = perCondition(shown, (c) => mechanismsFor(scored, c, tasks));
  const trajItems = branchesOf(shown).flatMap((b) => trajectoriesFor(scored, b, tasks));
  const trajTab = Object.fromEntries(branchesOf(shown).map((b) => [b, tabulateTrajectories(trajItems.filter((i) => i.branch === b))]));
  const highScores = perCondition(shown, (c) => highScoreWithoutAgreement(scored, c, tasks, 0.9));

  const cells = new Map<string, Partial<Record<ConditionId, T.ReplicateCell>>>();
  for (const s of replicates) {
    const key = `${s.run.taskId} (${s.run.replicate})`;
    const r = s.run.record!;
    cells.set(key, { ...(cells.get(key) ?? {}), [s.run.condition]: { passed: r.pytest?.counts.passed ?? null, total: r.pytest?.counts.total ?? null, pfe: pfe(s.run), matched: r.referenceAgreement } });
  }

  // Exports (CSV now, Parquet through pyarrow).
  const tables: ExportTable[] = [runRows(studyId, scored, replicates, reproduced, (s) => runReplyProvenance(studyDir, s.run.record?.stages ?? [])), labelRows(studyId, [...study.runs, ...study.replicates]), scoreRows(studyId, scored, reproduced), trajectoryRows(studyId, trajItems)];
  if (study.mutation !== null) tables.push(mutationRows(studyId, study.mutation));
  // An export of an earlier report whose input is gone now (mutation.json removed) must not linger.
  else for (const f of ['mutation.csv', 'mutation.parquet']) fs.rmSync(path.join(reportDir, f), { force: true });
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
      conditions: shown.map((c) => ({ id: c, name: BUDGETS[c].name })),
      points: scored.filter((s) => s.run.record && s.final).map((s) => ({ condition: s.run.condition, task: s.run.taskId, plan: s.final!.plan, test: s.final!.test, agree: s.run.record!.referenceAgreement })),
    }),
  );
  try {
    const fig = await runPythonJson('figure1.py', [pointsFile, reportDir], z.object({ svg: z.string(), png: z.string(), points: z.number() }), { timeoutMs: 120_000 });
    files.push(fig.svg, fig.png);
  } finally {
    fs.rmSync(pointsFile, { force: true });
  }

  // Figure 2 (beyond the paper): mutation scores, task by condition, false passes framed.
  const figure2 = ['figure2-mutation.svg', 'figure2-mutation.png'].map((f) => path.join(reportDir, f));
  if (mutation === null) for (const f of figure2) fs.rmSync(f, { force: true });
  else {
    const cellsFile = path.join(reportDir, '.figure2-cells.json');
    fs.writeFileSync(
      cellsFile,
      JSON.stringify({
        title: `Figure 2. Mutation scores of the frozen suites (${studyId}${isReplayed(study) ? ', REPLAYED' : ''})`,
        conditions: shown.map((c) => ({ id: c, name: BUDGETS[c].name })),
        tasks,
        cells: mutationFigureCells(study.runs, mutation),
      }),
    );
    try {
      const fig = await runPythonJson('figure_mutation.py', [cellsFile, reportDir], z.object({ svg: z.string(), png: z.string(), cells: z.number() }), { timeoutMs: 120_000 });
      files.push(fig.svg, fig.png);
    } finally {
      fs.rmSync(cellsFile, { force: true });
    }
  }

  // summary.json
  const summaryFile = path.join(reportDir, 'summary.json');
  // Only the replies behind runs that have a record (every sample and replicate; findings #18).
  // A record's folder as recorded and by the layout (a study folder copied elsewhere keeps the old paths in its records).
  const provenance = readReplyProvenance(studyDir, { runDirs: study.records.flatMap((r) => [resolveDir(studyDir, r), layoutDir(studyDir, r)]) });
  const repeats = readRepeats(studyDir);
  const summaryJson = {
    studyId,
    model: study.manifest.model,
    replayed: isReplayed(study),
    replyProvenance: provenance,
    paidMoreThanOnce: repeats,
    tasks,
    scoreUnits: 'fractions in [0, 1]; rates are fractions',
    conditions: primary.summary,
  };
  fs.writeFileSync(summaryFile, JSON.stringify(summaryJson, null, 2) + '\n');
  files.push(summaryFile);

  // Inspect AI eval logs (report/logs/): every run's calls, artifacts, pytest output, comparison and labels, for `lockin view`.
  let inspectLogs: InspectLogsOutcome;
  try {
    const written = await writeInspectLogs(study, scored, replicates, primary.summary, reportDir);
    files.push(...written.map((w) => w.file));
    inspectLogs = { dir: inspectLogDir(reportDir), logs: written.length, samples: written.reduce((a, w) => a + w.samples, 0) };
  } catch (e) {
    // A viewer's export never costs the study its report: the report says what failed.
    inspectLogs = { dir: inspectLogDir(reportDir), error: (e as Error).message.split('\n')[0] };
  }

  // report.md and README.md
  const intervals = intervalAnalysis(study.records);
  fs.writeFileSync(path.join(reportDir, 'intervals.json'), JSON.stringify(intervals, null, 2) + '\n');
  files.push(path.join(reportDir, 'intervals.json'));
  const robustnessKeys: Record<string, string[]> = {};
  for (const t of tasks) {
    const spec = loadEvaluationSpec(t, input.tasksDir ?? tasksRoot());
    if (spec) robustnessKeys[t] = spec.keys;
  }
  const discrimination = await discriminationOf(study, tasks);
  const labellerAccuracy = readLabellerAccuracy(studyDir);
  const labellerCalibration = readLabellerCalibration(studyDir);
  const raters = readRaters(studyDir);
  const agreement = raters.size ? agreementRows(study, raters) : [];
  const settingsFile = path.join(reportDir, SETTINGS_FILE);
  fs.writeFileSync(settingsFile, JSON.stringify(settingsJson(study), null, 2) + '\n');
  files.push(settingsFile);
  const md = renderReport(study, isReplayed(study), { inspectLogs, primary, controls, reproduce, mutation, sensitivity, sensitivitySkipped: skipped, cats, mech, trajTab, highScores, cells, intervals, provenance, robustnessKeys, discrimination, repeats, labellerAccuracy, labellerCalibration, agreement, mutationVerdicts: study.mutation === null ? null : parseMutationVerdicts(study.mutation, path.join(studyDir, 'mutation.json')) });
  const mdFile = path.join(reportDir, 'report.md');
  fs.writeFileSync(mdFile, md);
  const readme = path.join(reportDir, 'README.md');
  fs.writeFileSync(readme, readmeText(subsets));
  files.push(mdFile, readme);
  return { reportDir, files, summary: primary.summary };
}

/**
 * Figure 2's cells: one per suite row of mutation.json (primary runs only), with whether that
 * task and condition's run was a false pass (its record's falsePass). Pure.
 * Input: the study's primary runs ({taskId, condition, record?}) and the parsed mutation rows.
 * Output: [{task, condition, valid (its kills count: valid on gold or measured through its valid
 * tests, mutation/score.ts countsKills; null: unknown), killed, total, falsePass}].
 */
export function mutationFigureCells(
  runs: { taskId: string; condition: string; record?: { falsePass?: boolean } | null }[],
  mutation: MutationRow[],
): { task: string; condition: string; valid: boolean | null; killed: number; total: number; falsePass: boolean }[] {
  const falsePass = new Set(runs.filter((r) => r.record?.falsePass).map((r) => `${r.taskId}/${r.condition}`));
  return mutation.map((m) => ({ task: m.task, condition: m.condition, valid: m.validOnGold === null ? null : countsKills(m), killed: m.killed, total: m.total, falsePass: falsePass.has(`${m.task}/${m.condition}`) }));
}

/**
 * The sensitivity subsets of a study: the override if given, else study.json `sensitivity`, else
 * PAPER_SENSITIVITY (a study recorded before the setting existed).
 * @throws InputError naming study.json and the field when the recorded setting is invalid.
 */
export function sensitivitySubsets(study: LoadedStudy, override?: SensitivitySubset[]): SensitivitySubset[] {
  if (override) return override;
  const recorded = (study.manifest as Record<string, unknown>).sensitivity;
  if (recorded === undefined) return [...PAPER_SENSITIVITY];
  const r = SensitivitySubsets.safeParse(recorded);
  if (!r.success) throw new InputError(r.error.issues[0].message, path.join(study.studyDir, 'study.json'), `sensitivity.${r.error.issues[0].path.join('.')}`);
  return r.data;
}

/** True when the study's model was replayed (study.json `replayed`, or a replay:<corpus> model). */
/**
 * runs/<id>/labeller-accuracy.json parsed, or null when the study has none.
 * @throws InputError naming the file and field when it does not match its schema.
 */
export function readLabellerAccuracy(studyDir: string): LabellerAccuracyFile | null {
  const file = path.join(studyDir, 'labeller-accuracy.json');
  if (!fs.existsSync(file)) return null;
  const parsed = LabellerAccuracyFileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) throw new InputError(parsed.error.issues[0].message, file, parsed.error.issues[0].path.join('.'));
  return parsed.data;
}

/**
 * runs/<id>/labeller-calibration.json when the mutation analysis wrote it, else null.
 * @throws InputError naming the file and field when it does not match its schema.
 */
export function readLabellerCalibration(studyDir: string): LabellerCalibrationFile | null {
  const file = path.join(studyDir, 'labeller-calibration.json');
  if (!fs.existsSync(file)) return null;
  const parsed = LabellerCalibrationFileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) throw new InputError(parsed.error.issues[0].message, file, parsed.error.issues[0].path.join('.'));
  return parsed.data;
}

export function isReplayed(study: LoadedStudy): boolean {
  return study.manifest.replayed === true || isReplaySpec(study.manifest.model);
}

/**
 * Discrimination of every study task on the study's database: its reference from
 * referencesDir(scale) (null when missing or unreadable) and its gold mutants' verdicts from
 * mutation.json (null without one); plus the empty-result check on each variant database built
 * at that scale (withVariantDatabases). @returns one record per task, in task order
 */
async function discriminationOf(study: LoadedStudy, tasks: string[]): Promise<TaskDiscrimination[]> {
  const scale = study.manifest.scale;
  const verdicts = study.mutation === null ? null : parseMutationVerdicts(study.mutation);
  // The variant databases built at the study's scale (`lockin data variants`): one column each.
  // With the set fixed when the study started (study.json variantDatabases), only those still built the same way.
  const recorded = (study.manifest as { variantDatabases?: RecordedVariant[] }).variantDatabases;
  const variants = typeof scale === 'number' ? variantsForRun(listVariants(scale), Array.isArray(recorded) ? recorded : null).flatMap((x) => (x.info ? [x.info] : [])) : [];
  const out: TaskDiscrimination[] = [];
  for (const t of tasks) {
    let reference: PlainTable | null = null;
    const dir = typeof scale === 'number' ? path.join(referencesDir(scale), t) : null;
    if (dir && fs.existsSync(path.join(dir, 'schema.json'))) {
      try {
        reference = await loadOutput(dir);
      } catch {
        reference = null; // unreadable: shown as "no reference at this scale"
      }
    }
    const d = taskDiscrimination(t, reference, verdicts ? (verdicts[t] ?? null) : null);
    if (!variants.length) {
      out.push(d);
      continue;
    }
    const perVariant: Record<string, VariantReferenceInput> = {};
    for (const v of variants) {
      const r = variantReference(v, t);
      perVariant[v.name] = r.status === 'failed' ? { failed: r.error } : r.status === 'built' ? await loadOutput(r.dir).catch(() => null) : null;
    }
    out.push(withVariantDatabases(d, perVariant));
  }
  return out;
}
