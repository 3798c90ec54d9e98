/** Renders report.md from a loaded study and its analyses (activities/report/writeReport.ts). */
import { BUDGETS, reportedConditions, type ConditionId } from '../../protocol/conditions';
import type { LoadedStudy } from '../scoring/study';
import { describeOrigins } from '../scoring/finalLabels';
import type { highScoreWithoutAgreement } from '../scoring/analysis';
import type { ControlRow, ReproduceRow, MutationRow, MutantVerdict } from './sideFiles';
import * as T from './tables';
import { renderIntervals, type IntervalAnalysis } from './intervals';
import { sampleNotes } from './modelsReport';
import { provenanceCaption, provenanceParagraph, type ReplyProvenance } from './provenance';
import { renderDeviations, studyDeviations } from './deviations';
import { oneLine, renderFailedRuns } from './failures';
import { STUDY_TASKS } from '../../protocol/corpus';
import { PAPER_NAMED_TASKS } from '../tasks/eligibility';
import type { TaskDiscrimination } from '../mutation/discrimination';
import type { LabellerAccuracyFile, LabellerCalibrationFile } from '../../protocol/sideFiles';
import type { AgreementRow } from '../scoring/raters';
import { repeatsParagraph, type RepeatRow } from './repeats';
import type { InspectLogsOutcome } from './inspect/writeLogs';

const MUTATION_NOTE =
  'Each frozen suite (the run\'s test_solution.py; for Contract-First its contract_test.py, the suite frozen at C-0) is run against the gold solution (a suite that fails gold is invalid: it is not run on the mutants and counts in no score) and against mutants of gold made by documented operators (activities/python/mutants.py: join type, semi join made inner (EXISTS / IN subquery), anti join made left outer (NOT EXISTS), price column, aggregate function, filter bound, dropped DISTINCT, alias rename (f-string names too), decimal cast, rollup removal; every join site, at most 2 sites of each other operator). Each mutant runs on the SF=0.01 database; one that agrees with the reference there runs again on the study\'s database, and only one that agrees on both is dropped as equivalent (exact scales: mutation.json). Mutation score = killed / non-equivalent mutants. Raw data: mutation.csv/.parquet (one row per suite and mutant; status not-run for the mutants of an invalid suite). A suite that kills every mutant can still pass a wrong candidate (a false pass): the mutants are faults of gold of the kinds above, while the candidate\'s own fault may be of another kind (a wrong constant, a missed obligation the suite never states, a wrong grain), or one its suite shares, because a model writes the tests from the same reading of the task as the code; a mutation score says how much of gold\'s behaviour a suite checks, not whether it catches this candidate\'s error.';

/** Everything report.md shows besides the loaded study itself. */
export interface ReportAnalyses {
  primary: { summary: Parameters<typeof T.tableIII>[0]; paired: Parameters<typeof T.tableIV>[0] };
  controls: ControlRow[] | null;
  reproduce: ReproduceRow[] | null;
  mutation: MutationRow[] | null;
  /** The gold mutants per task with how each differs from the reference (mutation.json; parseMutationVerdicts); absent or null without one. */
  mutationVerdicts?: Record<string, MutantVerdict[]> | null;
  sensitivity: T.SensitivityResult[];
  /** Subsets of the setting that could not be computed, with why. */
  sensitivitySkipped: string[];
  cats: Parameters<typeof T.tableFailureCategories>[0];
  mech: Parameters<typeof T.tableVI>[0];
  trajTab: Parameters<typeof T.tableTrajectories>[0];
  highScores: Record<ConditionId, ReturnType<typeof highScoreWithoutAgreement>>;
  cells: Parameters<typeof T.tableVII>[0];
  /** Rates with intervals and paired tests over every sample (intervals.ts). */
  intervals: IntervalAnalysis;
  /** The replies' provenance, from the call files (activities/report/provenance.ts). */
  provenance: ReplyProvenance;
  /** Per task with a tasks/<taskId>/evaluation.yaml: its robustness keys ([] = one group). */
  robustnessKeys: Record<string, string[]>;
  /** Per study task: does its reference discriminate on the study's database. */
  discrimination: TaskDiscrimination[];
  /** Requests sent again after their first send's reply was lost (activities/report/repeats.ts); absent = not read. */
  repeats?: RepeatRow[];
  /** runs/<id>/labeller-accuracy.json (the labellers on known truth); null or absent = not measured. */
  labellerAccuracy?: LabellerAccuracyFile | null;
  /** The labellers measured on the realistic faults (labeller-calibration.json), when measured. */
  labellerCalibration?: LabellerCalibrationFile | null;
  /** Cohen's kappa rows when human raters' labels were imported (activities/scoring/raters.ts); absent or empty = none. */
  agreement?: AgreementRow[];
  /** The Inspect logs written beside the report (inspect/writeLogs.ts), or why not; absent = not written. */
  inspectLogs?: InspectLogsOutcome;
}

/** The report folder's file holding the study's settings, versions and inputs (settingsJson). */
export const SETTINGS_FILE = 'settings.json';

/**
 * The settings block of a report (settings.json beside report.md): study.json's Spark settings
 * first, then every other field of it but the id, model, replay flag, tasks and scale (the
 * report's settings table shows those), the input files counted instead of listed. Pure.
 */
export function settingsJson(study: LoadedStudy): Record<string, unknown> {
  const { studyId: _id, model: _model, replayed: _replayed, settings, tasks: _t, scale: _scale, ...rest } = study.manifest;
  const shown: Record<string, unknown> = { ...rest };
  if (shown.inputs && typeof shown.inputs === 'object') shown.inputs = `${Object.keys(shown.inputs as object).length} input files hashed (see study.json)`;
  return { settings: settings ?? null, ...shown };
}

/**
 * The line on the per-run view: how to open the study's Inspect logs (`npx lockin view <id>`),
 * what a sample holds, and the static-site option; or why the logs were not written. Pure.
 */
export function runViewLine(studyId: string, logs: InspectLogsOutcome | undefined): string {
  if (!logs) return 'No Inspect logs were written with this report.';
  if ('error' in logs) return `The Inspect logs of this study could not be written (${logs.error}); \`npm run setup\` installs inspect-ai into the venv, then \`npx lockin report ${studyId}\` writes them.`;
  return `\`npx lockin view ${studyId}\` opens the ${logs.samples} runs in Inspect's log viewer (logs/, ${logs.logs} eval logs: one per model and condition, the targeted replication's apart): per run the prompt and every call's reply, the frozen plan, code and tests, pytest's output, the comparison with the reference (which columns, types and rows differ), the obligation labels with their labeller, and the scores. \`npx lockin view ${studyId} --bundle DIR\` writes it as a static site; \`inspect_ai.analysis.samples_df('logs')\` reads it in pandas.`;
}

/**
 * report.md: an opening paragraph saying what share of the replies was authored, generated
 * from obligations, recorded or generated by a live model (a REPLAYED banner when replayed), the study's model and settings,
 * Tables I–VII, failure categories, robustness, usage, trajectories, Figure 1 and its counts,
 * mutation scores and permission deviations. Pure.
 */
export function renderReport(study: LoadedStudy, replayedStudy: boolean, a: ReportAnalyses): string {
  const m = study.manifest;
  const { studyId, model, scale } = m;
  const allRuns = [...study.runs, ...study.replicates];
  const methods = { judge: allRuns.filter((r) => r.labelMethod === 'judge').length, heuristic: allRuns.filter((r) => r.labelMethod === 'heuristic').length, none: allRuns.filter((r) => r.labelMethod === 'none').length };
  const heuristicLabels = allRuns.flatMap((r) => r.labels).filter((l) => Object.values(l.automated.source).includes('heuristic')).length;
  // Which labeller produced each dimension's automated labels (docs/protocol.md §5).
  const bySource = (dim: 'plan' | 'code' | 'test') => {
    const n = new Map<string, number>();
    for (const l of allRuns.flatMap((r) => r.labels)) n.set(l.automated.source[dim], (n.get(l.automated.source[dim]) ?? 0) + 1);
    return [...n.entries()].sort((x, y) => y[1] - x[1]).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
  };
  const deviations = study.runs.flatMap((r) => (r.record?.deviations ?? []).map((d) => [r.taskId, BUDGETS[r.condition].name, d.artifact, d.change, d.allowed ? 'yes' : 'no', d.detail]));
  const missing = study.runs.filter((r) => !r.record).map((r) => `${r.taskId} × ${r.condition}`);
  const out: string[] = [];
  out.push(`# lockin report: ${studyId}`, '');
  out.push(`${replayedStudy ? '> **REPLAYED**: ' : ''}${provenanceParagraph(a.provenance, model)}`, '');
  // The headline first: Table III with its intervals, then Figure 1; settings and provenance after.
  const missingNote = missing.length
    ? ` ${missing.length} assigned run(s) have no record (${missing.join(', ')}): here each counts in every denominator as a run that neither passed, executed nor matched, and scores zero on every dimension; "Samples and intervals" below leaves them out, so its rates are over the runs with a record.`
    : ' Every assigned run has a record, so "Samples and intervals" below has the same denominators.';
  const alias = T.aliasOnlyNote(study.runs, study.conditions);
  out.push(
    '## Table III. Primary outcomes per condition',
    '',
    T.tableIII(a.primary.summary),
    '',
    `Over all assigned tasks: the false-pass rate uses all assigned runs as denominator (with its Wilson 95 % interval); the conditional false-pass proportion uses test-passing runs. Scores are condition means over all assigned tasks, from final labels (a missing run scores zero; a failed execution contributes zero code score). SCOs: self-confirming omissions (paper, "Obligation scores and paired analysis"): obligations whose plan is absent or contradicted, code violated (not an execution failure) and test not covered, counted over all runs.${planCaveat(bySource('plan'))}${missingNote} ${provenanceCaption(a.provenance)}`,
    '',
    ...(alias ? [alias, ''] : []),
  );
  const differential = T.tableDifferential(study.runs);
  if (differential) {
    out.push(
      '**Differential reference agreement** (beyond the paper; docs/protocol.md §7): the frozen candidate also executed on each variant database built at the study\'s scale (`lockin data variants`) and compared with that variant\'s reference; it agrees differentially when it agrees on the study database and on every variant (a variant where the task\'s SQL fails does not count).',
      '',
      differential.table,
      '',
      differential.differing.length ? `Runs where the two differ:\n\n${differential.differing.map((d) => `- ${d}`).join('\n')}` : 'No run differs between the two.',
      '',
    );
  }
  out.push('## Figure 1. Internal scores against reference agreement', '', '![Figure 1](figure1.svg)', '');
  out.push(T.mdTable(['Condition', 'Runs with plan semantic ratio ≥ 90%', '… lacking reference agreement', 'Runs with test coverage ≥ 90%', '… lacking reference agreement'], reportedConditions(Object.keys(a.highScores)).map((c) => [BUDGETS[c].name, a.highScores[c].planHigh, a.highScores[c].planHighNoAgreement, a.highScores[c].testHigh, a.highScores[c].testHighNoAgreement])), '');
  out.push('## Every run, one by one', '', runViewLine(studyId, a.inspectLogs), '');
  out.push('## Study and settings', '');
  out.push(mdKv([
    ['Study id', studyId],
    ['Model', model],
    ['Replayed', replayedStudy ? 'yes' : 'no'],
    ['Scale factor', scale ?? '—'],
    ['Assigned tasks', `${study.tasks.length}: ${study.tasks.join(' ')}`],
    ['Chosen by', taskSelection(study.tasks)],
    ['Runs missing a record', missing.length ? missing.join(', ') : 'none'],
    ['Where the time went', `not in this report (it measures the study, not the machine): \`npx lockin study profile ${studyId}\` gives the time per step, condition and kind of work and the JVM start-ups (\`--csv\`, \`--jobs-csv\` for pandas); the Spark mode is \`sparkMode\` in the settings below`],
    ['Automated labels', `what no executable form or schema rule decides (the plan labels, and the code and test labels of obligations without an executable form): ${methods.judge} runs by judge, ${methods.heuristic} runs by heuristic fallback, ${methods.none} runs unlabelled; ${heuristicLabels} obligation labels have a heuristic dimension (source: heuristic in labels.csv)`],
    ['Labellers per dimension', `plan: ${bySource('plan')}; code: ${bySource('code')}; test: ${bySource('test')} (lockin obligations check measures each labeller on gold and the violations)`],
    ...unlabelledRow(study.unlabelled ?? []),
    ['Final labels', study.finalLabelsImported || study.raterNames.length ? `${describeOrigins(study.runs.flatMap((r) => r.labels.map((l) => l.final)))} (docs/protocol.md §5 "Final labels": ${study.finalLabelsImported - study.finalLabelsUnmatched.length} decided rows of labels/final.csv used; ${study.raterNames.length ? `else the label all raters who labelled it agree on (raters: ${study.raterNames.join(', ')})` : 'no rater labels imported'}; else automated)${study.finalLabelsUnmatched.length ? `; ${study.finalLabelsUnmatched.length} decided rows match no labelled run and were ignored: ${study.finalLabelsUnmatched.slice(0, 20).map((k) => k.split('|').join(' ')).join(', ')}` : ''}` : 'none imported: final = automated'],
  ]));
  out.push('', `**Settings**: [${SETTINGS_FILE}](${SETTINGS_FILE}) (the study's Spark settings, model parameters, versions and the other fields of study.json, its input files counted)`, '');
  out.push('## Failed runs', '', renderFailedRuns(study.failures, missing), '');
  out.push('## Table I. Conditions', '', T.tableI(study.conditions), '');
  out.push('## Table II. Evaluator controls', '', T.tableII(a.controls), '');
  const maxSamples = Math.max(1, ...a.intervals.models.map((mi) => mi.samples));
  if (maxSamples > 1) out.push(`Tables III–VII and Figure 1 read sample 1 of each task (the paper's one generation per task); the next section covers all ${maxSamples} samples.`, '');
  out.push(
    '## Samples and intervals',
    '',
    missing.length
      ? `Only runs with a record count here: the ${missing.length} run(s) without one (${missing.join(', ')}) are left out, so a rate's denominator is the recorded runs, while Table III's is every assigned run.`
      : 'Every assigned run has a record: the denominators of sample 1 equal Table III\'s.',
    '',
    renderIntervals(a.intervals, sampleNotes(a.intervals)),
    '',
  );
  out.push('**Failure categories** (primary category, any-category count in parentheses; runs without reference agreement)', '', T.tableFailureCategories(a.cats), '');
  const extras: T.RunExtras[] = study.runs.filter((r) => r.record).map((r) => ({
    taskId: r.taskId,
    condition: r.condition,
    agree: r.record!.comparison?.agree ?? null,
    ladderLevel: r.record!.comparison?.ladderLevel,
    toleranceAgreement: r.record!.comparison?.toleranceAgreement,
    inputTokens: r.record!.usage?.inputTokens ?? 0,
    outputTokens: r.record!.usage?.outputTokens ?? 0,
    cacheReadTokens: r.record!.usage?.cacheReadTokens ?? 0,
    costUsd: r.record!.costUsd ?? 0,
  }));
  out.push('**Robustness** (post-hoc; never changes the primary outcome)', '', T.tableRobustness(extras, study.conditions), '');
  out.push(
    '**Key-aligned tolerance comparison per task** (robustness (a): rows aligned on the task\'s keys, repeated keys paired as multisets, non-doubles exact, doubles within atol = rtol ∈ {1e-8, 1e-6, 1e-5, 1e-4}; the paper ran it for q2, q13, q17, q35, q78; cells: primary verdict and the tightest agreeing tolerance)',
    '',
    T.tableKeyedRobustness(extras, a.robustnessKeys, study.tasks, study.conditions),
    '',
  );
  out.push('**Model usage** (the paper recorded no token counts; the shared initial generation is counted in every condition that inherits it)', '', T.tableUsage(extras, study.conditions), '');
  if (a.repeats) out.push(repeatsParagraph(a.repeats), '');
  out.push('## Table IV. Paired within-task changes (branch − inherited one-pass, percentage points)', '', 'Paired tasks: tasks where both the branch\'s run and the one-pass run have a record; a task where either is missing is not paired (named as missing, counted in no column). Quartiles are Tukey hinges (medians of the lower and upper halves; for odd n the median belongs to both halves).', '', T.tableIV(a.primary.paired), '');
  const subsetList = a.sensitivity.map((s) => `- **${s.label}** (${s.tasks.length} tasks): ${s.rule}.`).concat(a.sensitivitySkipped.map((s) => `- not computed: ${s}.`));
  out.push('## Table V. SQL re-execution and sensitivity', '', T.tableVReproduce(a.reproduce, study.tasks), '', 'Sensitivity subsets (study setting `sensitivity` in study.json; the default is the paper\'s three):', '', ...subsetList, '', T.tableVSensitivity(a.sensitivity), '');
  out.push('## Table VI. Mechanisms of violated obligations in false passes', '', T.tableVI(a.mech), '', 'These totals concern different sets of test-passing runs, not a paired count of defects introduced by revision.', '');
  out.push('## Table VII. Targeted replication', '', 'Cells give passed/total tests; P = suite pass, F = suite failure, E = execution error (candidate execution failed, or pytest errored, failed collection, timed out or crashed).', '', T.tableVII(a.cells), '');
  out.push('## Trajectories (per revision branch and obligation, code label from the one-pass snapshot)', '', 'Counts; in parentheses, how many had their judging assertions changed (test label changed or test_solution.py differs from the snapshot); "—" for Contract-First, which is judged by its own frozen contract suite, not the snapshot\'s.', '', T.tableTrajectories(a.trajTab), '');
  const blind = a.discrimination.filter((d) => d.discriminates === false).map((d) => d.task);
  out.push(
    '## Discrimination per task (beyond the paper)',
    '',
    `Can the reference tell right from wrong on the study's database (scale ${scale ?? '—'})? An output with the reference's schema and no rows must disagree with it, and so must every gold mutant (mutation.json verdicts: a mutant that agreed on every database it ran on is "equivalent"). ${blind.length ? `**Flagged: ${blind.join(', ')}.** A candidate of a flagged task can agree with the reference while wrong.` : 'No task is flagged.'}`,
    '',
    T.tableDiscrimination(a.discrimination),
    '',
    equivalentViolationsLine(a.labellerAccuracy ?? null, scale),
    '',
  );
  out.push(
    '## Labellers measured on known truth',
    '',
    'Each code labeller labels every obligation of every task\'s gold solution (truth: satisfied) and of each obligation violation (truth: its own obligation violated, and any it declares it cannot help breaking; the others satisfied): executable (the obligation\'s acceptance tests), schema-rule (the obligation\'s rule on the output schema) and the keyword heuristic (the last resort). These are the labellers that produce the study\'s code and test labels; the judge is not measured here. The heuristic\'s `partial` code label means some, not all, of the obligation\'s key terms are in the solution (or the statement has none): it weighs 0 like violated and is right against neither truth (activities/obligations/heuristic.ts).',
    '',
    T.tableLabellerAccuracy(a.labellerAccuracy ?? null),
    '',
    '### On realistic faults',
    '',
    'The violations above each break exactly the obligation they were written for. The realistic faults (tasks/<id>/faults/) are whole wrong programs as a model writes them, with several of the mistakes the paper documents at once (another price column, an inner join for an outer one, a channel label, a collapsed grain) and a suite that repeats them; every obligation of each was labelled by hand before any labeller ran on it (activities/tasks/faults.ts gives the rubric). The executable code and test labellers, the Table VI mechanism they imply and the plan heuristic are compared with those hand labels.',
    '',
    T.tableLabellerCalibration(a.labellerCalibration ?? null),
    '',
  );
  if (a.agreement?.length)
    out.push(
      '## Agreement between labellers',
      '',
      "Cohen's kappa per dimension between the human raters (each labelled a blinded export: runs by opaque id, no condition, no automated label) and between each rater and each automated labeller on the obligations that labeller labelled (`lockin labels agreement`; every rater's file is kept unchanged under labels/raters/).",
      '',
      T.formatAgreement(a.agreement),
      '',
    );
  out.push('## Mutation scores of the frozen suites', '', MUTATION_NOTE, '', T.tableMutation(a.mutation, study.conditions), '');
  if (a.mutation) out.push('![Figure 2. Mutation scores, task by condition (grey: invalid on gold; red frame: false pass)](figure2-mutation.svg)', '');
  if (a.mutation) out.push('Per task (killed/non-equivalent mutants; "invalid on gold": the suite rejects the gold solution):', '', T.tableMutationPerSuite(a.mutation, study.tasks, study.conditions), '', 'Mutants per operator (valid suites; killed/non-equivalent, the rest survived; an operator whose mutants all agreed with the reference has no kill to count, "—"):', '', T.tableSurvivors(a.mutation, study.conditions, a.mutationVerdicts ?? undefined), '');
  if (a.mutation && a.mutationVerdicts) {
    const fp: T.FalsePassRun[] = study.runs
      .filter((r) => r.record?.falsePass)
      .map((r) => ({
        taskId: r.taskId,
        condition: r.condition,
        categories: r.record?.comparison?.categories ?? [],
        primaryCategory: r.record?.comparison?.primaryCategory,
        uncovered: r.labels.filter((l) => l.automated.code === 'violated' && l.automated.test !== 'covered').map((l) => `${l.automated.obligation} (${l.obligation.class}: "${oneLine(l.obligation.statement, 90)}")`),
      }));
    out.push('False passes against their suites\' mutants (beyond the paper): each false-pass run with the gold mutants whose output differs from the reference the way the candidate\'s does (the same failure category, the paper\'s: `precision`: a numeric column of another numeric type, e.g. int against tinyint; `values`: the rows\' values differ), and whether its suite killed them (the mutants\' verdicts of mutation.json: run on the SF=0.01 database, confirmed on the study\'s); then the violated obligations its suite does not cover, which name the fault itself (the run\'s automated code and test labels, labels.json: executable where the obligation has acceptance tests and a violation, else schema rule, judge or keyword heuristic as the label\'s source says).', '', T.tableFalsePassMutants(fp, a.mutation, a.mutationVerdicts), '');
  }
  out.push(
    'Obligation violations killed by the frozen suites (beyond the paper; docs/protocol.md §7): each suite valid on gold is also run on the violation of every obligation with an executable form (tasks/<task>/obligations/<O>/violation.diff applied to gold); a suite that fails on it kills it (the executable test label "covered"). Unlike the operator mutants, each violation breaks one stated obligation of the task, so this is the rate at which the suites detect the mistakes the task\'s obligations name.',
    '',
    T.tableViolationKills(study.runs.map((r) => ({ condition: r.condition, labels: r.labels.map((l) => l.automated) })), study.conditions),
    '',
  );
  const edits = study.runs.flatMap((r) => r.record?.deviations ?? []);
  const flips = edits.filter((d) => (d.flipped ?? []).length > 0 && !d.allowed).length;
  out.push(
    '## Permission deviations (intent-to-treat: retained)',
    '',
    `Every edit against the snapshot, classified from the syntax trees of test_solution.py (imports/syntax, fixture data, fixture structure, assertions added/removed/changed). ${edits.filter((d) => !d.allowed).length} of ${edits.length} edits were not allowed by their condition; ${flips} of those changed fixture data or assertions of a test that failed on the snapshot and passes at the end.`,
    '',
    deviations.length ? T.mdTable(['Task', 'Condition', 'Artifact', 'Change', 'Allowed', 'Detail'], deviations) : '_None recorded._',
    '',
  );
  out.push('## Deviations from the paper', '', renderDeviations(studyDeviations({ model, tasks: study.tasks, studyTaskCount: STUDY_TASKS.length, scale: typeof scale === 'number' ? scale : undefined, failed: study.failures, replyModels: a.provenance.models })), '');
  out.push('## Exports', '', 'runs.csv/.parquet (one row per run), labels.csv/.parquet (automated and final labels per obligation), scores.csv/.parquet (one row per task × condition), trajectories.csv/.parquet, mutation.csv/.parquet (when the mutation analysis ran), summary.json. See README.md for how to recompute every table cell with pandas.', '');
  return out.join('\n');
}

/** Which assigned tasks the paper names and which the project chose (tasks/eligibility.yaml `selection`). Pure. */
export function taskSelection(tasks: readonly string[]): string {
  const named = new Set<string>(PAPER_NAMED_TASKS);
  const paper = tasks.filter((t) => named.has(t));
  const project = tasks.filter((t) => !named.has(t));
  return `${paper.length} named by the paper${paper.length ? ` (${paper.join(' ')})` : ''}; ${project.length} chosen by the project${project.length ? ` (${project.join(' ')})` : ''}`;
}

function mdKv(rows: [string, string | number][]): string {
  return T.mdTable(['Item', 'Value'], rows);
}

/**
 * Table III's caution on the plan score when its labels come from a labeller not measured on known
 * truth (the keyword heuristic, or the judge: \`lockin obligations check\` measures code labellers
 * only; docs/protocol.md §5). Input: the plan labels by source, as the settings row prints them
 * ("heuristic 84, raters-agreed 12"). Returns "" when no plan label comes from either. Pure.
 */
export function planCaveat(planSources: string): string {
  const unmeasured = planSources.split(', ').filter((p) => /^(heuristic|judge) \d+$/.test(p));
  if (!unmeasured.length) return '';
  return ` Plan score: its automated plan labels come from ${unmeasured.join(', ')} (labels), labellers whose plan labels are not measured on known truth (only code labels are, below): read the plan columns here and in Table IV as indicative.`;
}

/**
 * The obligation violations that agree with the reference on the labeller check's database
 * (labeller-accuracy.json `equivalentViolations`, from `lockin obligations check`): a candidate
 * whose only mistake is one of them agrees with the reference there, so reference agreement
 * cannot see it. Inputs: the file (null: not measured) and the study's scale. Output: one
 * paragraph. Pure.
 */
export function equivalentViolationsLine(file: LabellerAccuracyFile | null, studyScale: number | undefined): string {
  if (!file) return 'Obligation violations against the reference: not measured (no labeller-accuracy.json; step 5 writes it).';
  const rows = file.tasks.filter((t) => t.checked && t.equivalentViolations !== undefined);
  if (!rows.length) return 'Obligation violations against the reference: not recorded in this labeller-accuracy.json (written before they were).';
  const where = studyScale === file.scale ? `the study's database (SF=${file.scale})` : `SF=${file.scale}, the labeller check's database (the study's is SF=${studyScale ?? '—'}, where a larger database may tell more of them apart: \`lockin obligations check --scale ${studyScale ?? 1}\`)`;
  const hits = rows.filter((t) => t.equivalentViolations!.length);
  const total = rows.reduce((n, t) => n + t.executable, 0);
  const count = hits.reduce((n, t) => n + t.equivalentViolations!.length, 0);
  if (!hits.length) return `Obligation violations against the reference on ${where}: every one of the ${total} checked violations disagrees with it.`;
  return `Obligation violations against the reference on ${where}: ${count} of ${total} agree with it, so a candidate whose only mistake is one of them agrees with the reference there: ${hits.map((t) => `${t.taskId} ${t.equivalentViolations!.join(', ')}`).join('; ')}.`;
}

/** The settings row naming the run × obligation pairs a study has no label for (runs labelled before the obligation was added), or none. */
function unlabelledRow(unlabelled: string[]): [string, string][] {
  if (!unlabelled.length) return [];
  return [['Obligations not labelled', `${unlabelled.length} run × obligation pair(s) have no label: the runs were labelled before the obligation was added to the corpus, and their scores are over the obligations they were labelled on (${unlabelled.slice(0, 12).join('; ')}${unlabelled.length > 12 ? '; …' : ''})`]];
}
