/**
 * A study's runs as the input of activities/python/inspect_logs.py, which writes them as Inspect
 * AI eval logs with inspect_ai's own writer, so `inspect view` (`lockin view`),
 * `read_eval_log` and `samples_df` read a lockin study unchanged.
 *
 * Grouping: one log per model × condition, as Inspect groups one task (here: the condition, the
 * protocol a run follows) on one model; its samples are the study's tasks, the `epoch` is the
 * sample index (`--samples`, 1 for Tables III–VII). Inspect's viewer then shows the four
 * conditions side by side with the study's metrics, and a sample grid per condition. The targeted
 * replication (Table VII) gets a log of its own per condition (`<condition>--replication`), so a
 * primary log's means are Table III's.
 *
 * Per sample: the task prompt as `input`; the reference's columns and row count as `target`;
 * `messages` = the system prompt once, then per protocol call (the shared initial generation
 * first, in the record's order) its request's messages and its reply; sections (transcript info
 * events) = the frozen artifacts, pytest's outcome and output, the comparison with the reference,
 * the obligation labels with their labeller, the replies' provenance, and (claude-code calls) the
 * agent sessions: limits, refusals, pytest runs and the transcript step by step; scores = tests passed,
 * executed, reference agreement, false pass (each 1 or 0) and the plan, code and test obligation
 * scores (fractions in [0, 1]), each with a Markdown explanation. A missing run (an assigned run
 * without a record) is a sample with no calls, scored 0 everywhere, as Table III counts it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { BUDGETS, type ConditionId } from '../../../protocol/conditions';
import type { RunRecord } from '../../../protocol/records';
import type { ConditionSummary, ScoredRun } from '../../scoring/analysis';
import { layoutDir, resolveDir, type LoadedStudy } from '../../scoring/study';
import { artifactsMarkdown, comparisonMarkdown, ComparisonDetailsSchema, labelsMarkdown, pytestMarkdown, SessionRecordSchema, sessionMarkdown } from './markdown';

/** A request message as a backend sent it: text, or a list of content blocks (Anthropic). */
const MessageContent = z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]);

/**
 * The fields of a call file (`calls/NN-<stage>.json`, activities/model/gateway.ts) the logs show.
 * A fixture's call file may hold only stage and provenance: the rest is optional.
 */
export const CallFileSchema = z.looseObject({
  stage: z.string(),
  status: z.string().optional(),
  protocolError: z.string().nullish(),
  model: z.string().optional(),
  modelId: z.string().optional(),
  cacheHit: z.boolean().optional(),
  request: z.looseObject({ body: z.looseObject({ system: MessageContent.optional(), messages: z.array(z.looseObject({ role: z.string(), content: MessageContent })).optional() }).optional() }).optional(),
  reply: z.looseObject({ text: z.string().nullish(), responseModel: z.string().nullish() }).nullish(),
  provenance: z.looseObject({ provenance: z.string(), note: z.string().optional(), model: z.string().optional(), source: z.string().optional() }).optional(),
  usage: z.looseObject({ inputTokens: z.number(), outputTokens: z.number() }).optional(),
  timing: z.looseObject({ startedAt: z.string().optional(), finishedAt: z.string().optional(), durationMs: z.number().optional() }).optional(),
});
export type CallFile = z.infer<typeof CallFileSchema>;

/** One protocol call as inspect_logs.py takes it (its module docstring: CALL). */
export const SpecCallSchema = z.object({
  stage: z.string(),
  /** The call file, relative to the study folder. */
  callFile: z.string(),
  system: z.string().nullable(),
  messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() })),
  reply: z.string(),
  /** The model as Inspect names models: "<provider>/<model>" (replay:lockin → replay/lockin). */
  model: z.string(),
  /** The reply's provenance (protocol/provenance.ts), with its note: "authored (written by …)". */
  provenance: z.string(),
  cacheHit: z.boolean(),
  ok: z.boolean(),
  protocolError: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  /** The request body exactly as the call file holds it (what was sent), or null. */
  request: z.record(z.string(), z.unknown()).nullable(),
});
export type SpecCall = z.infer<typeof SpecCallSchema>;

/** One score of a sample: value in [0, 1], a one-line answer, a Markdown explanation. */
export const SpecScoreSchema = z.object({ value: z.number(), answer: z.string(), explanation: z.string() });

/** One sample: a task run (task × condition × sample) or a missing run. */
export const SpecSampleSchema = z.object({
  /** The task id, "<task>@<replicate>" for the targeted replication. */
  id: z.string(),
  /** The sample index (1-based). */
  epoch: z.number().int().min(1),
  input: z.string(),
  target: z.string(),
  calls: z.array(SpecCallSchema),
  sections: z.array(z.object({ title: z.string(), markdown: z.string() })),
  scores: z.record(z.string(), SpecScoreSchema),
  metadata: z.record(z.string(), z.unknown()),
});
export type SpecSample = z.infer<typeof SpecSampleSchema>;

/** One eval log: a model × condition. `metrics` per scorer are the study's figures (Table III). */
export const SpecLogSchema = z.object({
  file: z.string(),
  task: z.string(),
  displayName: z.string(),
  model: z.string(),
  created: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  metrics: z.array(z.object({ scorer: z.string(), metrics: z.record(z.string(), z.number()) })),
  samples: z.array(SpecSampleSchema),
});
export type SpecLog = z.infer<typeof SpecLogSchema>;

export const InspectSpecSchema = z.object({ logDir: z.string(), logs: z.array(SpecLogSchema) });
export type InspectSpec = z.infer<typeof InspectSpecSchema>;

/** The score names, in the order the viewer shows them: reference agreement first, the primary outcome (docs/protocol.md §4) and so each log's headline metric. */
export const SCORE_NAMES = ['reference_agreement', 'false_pass', 'tests_passed', 'executed', 'plan_score', 'code_score', 'test_score'] as const;

/** A lockin model spec as Inspect names models ("anthropic:claude-sonnet-4-6" → "anthropic/claude-sonnet-4-6"). Pure. */
export function inspectModelName(spec: string): string {
  return spec.replace(':', '/');
}

/** A request message's text: the string, or its text blocks joined. Pure. */
function textOf(c: z.infer<typeof MessageContent> | undefined): string {
  if (c === undefined) return '';
  return typeof c === 'string' ? c : c.map((b) => b.text ?? `[${b.type}]`).join('\n');
}

function readText(file: string | null): string | null {
  return file && fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
}

/** A recorded path (absolute, or relative to the study folder) that exists, else null. */
function existing(studyDir: string, p: string | undefined | null): string | null {
  if (!p) return null;
  const f = path.isAbsolute(p) ? p : path.join(studyDir, p);
  return fs.existsSync(f) ? f : null;
}

/**
 * One protocol call from its call file (null when the file is gone). The system prompt is the
 * request's `system` (Anthropic) or its system-role messages (OpenAI-compatible).
 * @throws Error naming the file when it is not JSON or not a call file.
 */
export function specCall(studyDir: string, stage: { stage: string; callFile: string; ok: boolean; cacheHit: boolean }, fallbackModel: string): SpecCall | null {
  // A study folder copied elsewhere keeps the old absolute paths: fall back to its part from `tasks/`.
  const parts = stage.callFile.split(/[\\/]/);
  const fromTasks = parts.lastIndexOf('tasks');
  const file = existing(studyDir, stage.callFile) ?? (fromTasks >= 0 ? existing(studyDir, path.join(...parts.slice(fromTasks))) : null);
  if (!file) return null;
  const parsed = CallFileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: not a call file (${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message})`);
  const c = parsed.data;
  const body = c.request?.body;
  const msgs = body?.messages ?? [];
  const system = [textOf(body?.system), ...msgs.filter((m) => m.role === 'system').map((m) => textOf(m.content))].filter(Boolean).join('\n\n') || null;
  const p = c.provenance;
  return {
    stage: c.stage,
    callFile: path.relative(studyDir, file),
    system,
    messages: msgs.filter((m) => m.role === 'user' || m.role === 'assistant').map((m) => ({ role: m.role as 'user' | 'assistant', content: textOf(m.content) })),
    reply: c.reply?.text ?? (c.reply === undefined ? '(the call file holds no reply)' : '(no reply text)'),
    model: inspectModelName(c.model ?? fallbackModel),
    provenance: p ? `${p.provenance}${p.model ? ` (${p.model})` : ''}${p.note ? `: ${p.note}` : p.source ? `: from ${p.source}` : ''}` : 'unstated (a call file from before replies carried a provenance)',
    cacheHit: c.cacheHit ?? stage.cacheHit,
    ok: stage.ok,
    protocolError: c.protocolError ?? null,
    startedAt: c.timing?.startedAt ?? null,
    finishedAt: c.timing?.finishedAt ?? null,
    durationMs: c.timing?.durationMs ?? null,
    inputTokens: c.usage?.inputTokens ?? 0,
    outputTokens: c.usage?.outputTokens ?? 0,
    request: (body as Record<string, unknown> | undefined) ?? null,
  };
}

/**
 * The agent sessions of a run's calls (claude-code backend), as one Markdown section, or null
 * when no call was a session: each call file's `session` and its transcript file
 * (calls/NN-<stage>.transcript.jsonl). Reads the call files.
 */
function sessionsSection(studyDir: string, calls: SpecCall[]): string | null {
  const parts: string[] = [];
  for (const c of calls) {
    const file = path.join(studyDir, c.callFile);
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { session?: unknown };
    if (!raw.session) continue;
    const parsed = SessionRecordSchema.safeParse(raw.session);
    if (!parsed.success) throw new Error(`${file}: session: ${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message}`);
    const tf = file.replace(/\.json$/, '.transcript.jsonl');
    const transcript = fs.existsSync(tf) ? fs.readFileSync(tf, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown) : null;
    parts.push(sessionMarkdown(c.stage, parsed.data, transcript));
  }
  return parts.length ? parts.join('\n\n') : null;
}

/** pytest's files of a record's last run: the failure summary and pytest's own log (beside it, pytest-<label>.log). */
function pytestFiles(studyDir: string, dir: string, rec: RunRecord): { failures: string | null; log: string | null } {
  const recorded = rec.pytest?.failuresFile;
  if (!recorded) return { failures: null, log: null };
  const label = path.basename(path.dirname(recorded));
  const failures = existing(studyDir, recorded) ?? existing(dir, path.join('pytest', label, path.basename(recorded)));
  const log = failures ? path.join(path.dirname(failures), path.basename(failures).replace(/^failures-(.*)\.md$/, 'pytest-$1.log')) : null;
  return { failures: readText(failures), log: readText(log) };
}

/** The comparison details of a record (comparison.json), parsed, or null when not compared (no file, or `primary` null: the candidate never ran) or gone. */
function comparisonOf(studyDir: string, dir: string, rec: RunRecord) {
  const file = existing(studyDir, rec.comparison?.detailsFile) ?? existing(path.dirname(dir), path.join('evaluation', rec.condition, 'comparison.json'));
  if (!file) return null;
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { primary?: unknown };
  // A candidate that never ran (no solution.py, or its execution failed) has no comparison: primary null.
  if (raw?.primary === null) return null;
  const parsed = ComparisonDetailsSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message}`);
  return parsed.data;
}

const yes = (b: boolean) => (b ? 1 : 0);

/**
 * One sample of a scored run. `scale` names the database in the target. Reads the run's folder
 * (artifacts, call files, pytest files, comparison.json). A missing run gives a sample with no
 * calls and every score 0, its failure (failures.json) in a section.
 */
export function sampleOf(study: LoadedStudy, s: ScoredRun): SpecSample {
  const { run } = s;
  const rec = run.record;
  const id = run.replicate ? `${run.taskId}@${run.replicate}` : run.taskId;
  const scale = study.manifest.scale;
  if (!rec) {
    const failure = study.failures.find((f) => f.task === run.taskId || f.task === `${run.taskId}/${run.condition}`);
    const why = failure ? `No record: the run failed (${failure.error}).` : 'No record: the run did not finish.';
    const zero = (what: string) => ({ value: 0, answer: 'missing run', explanation: `${why} Table III counts it as an assigned run that ${what}.` });
    return {
      id,
      epoch: 1,
      input: `(task ${run.taskId}: no record)`,
      target: '',
      calls: [],
      sections: [{ title: 'missing run', markdown: why }],
      scores: { reference_agreement: zero('did not agree'), false_pass: zero('is no false pass'), tests_passed: zero('did not pass'), executed: zero('did not execute'), plan_score: zero('scores 0'), code_score: zero('scores 0'), test_score: zero('scores 0') },
      metadata: { taskId: run.taskId, condition: run.condition, missing: true, failure: failure?.error ?? null },
    };
  }
  const dir = resolveDir(study.studyDir, rec);
  const folder = fs.existsSync(dir) ? dir : layoutDir(study.studyDir, rec);
  const calls = rec.stages.map((st) => specCall(study.studyDir, st, study.manifest.model)).filter((c): c is SpecCall => c !== null);
  const artifactNames = ['plan.md', 'solution.py', 'test_solution.py', ...(rec.condition === 'contract-first' ? ['contract_test.py'] : [])];
  const artifacts = artifactsMarkdown(artifactNames.map((n) => [n, readText(path.join(folder, n))]));
  const py = pytestFiles(study.studyDir, folder, rec);
  const pytest = pytestMarkdown(rec.pytest, py.failures, py.log);
  const details = comparisonOf(study.studyDir, folder, rec);
  const comparison = details ? comparisonMarkdown(details) : rec.comparison ? `${rec.comparison.agree ? '**Agrees**' : '**Disagrees**'}: ${rec.comparison.summary}` : `Not compared: the candidate did not execute (${rec.execution?.status ?? 'not run'}${rec.execution?.reason ? `: ${rec.execution.reason}` : ''}).`;
  const labels = labelsMarkdown(run.labels);
  const provenance = calls.map((c, i) => `${i + 1}. ${c.stage}: ${c.provenance}`).join('\n') || 'No call files.';
  const sessions = sessionsSection(study.studyDir, calls);
  const suite = rec.condition === 'contract-first' ? 'its frozen contract suite (contract_test.py)' : 'its own suite (test_solution.py)';
  const counts = rec.pytest ? `${rec.pytest.counts.passed}/${rec.pytest.counts.total} passed` : 'pytest did not run';
  const cmp = rec.comparison;
  const ref = details?.primary;
  const fp = rec.falsePass
    ? `A false pass: ${suite} passed (${counts}) and the output disagrees with the reference (${cmp?.summary ?? 'not compared'}).`
    : rec.testPassed
      ? `Not a false pass: ${suite} passed and the output agrees with the reference.`
      : `Not a false pass: ${suite} did not pass (${counts}).`;
  const scoreOf = (d: 'plan' | 'code' | 'test', what: string) => ({
    value: s.final?.[d] ?? 0,
    answer: s.final ? `${(100 * s.final[d]).toFixed(1)} %` : 'no labels',
    explanation: `${what}, from the final labels of ${run.labels.length} obligation(s) (docs/protocol.md §5 weights).\n\n${labels}`,
  });
  return {
    id,
    epoch: rec.sample ?? 1,
    input: calls[0]?.messages.find((m) => m.role === 'user')?.content ?? `(task ${run.taskId}: the prompt is not in the call files)`,
    target: ref ? `The reference output of ${run.taskId}${scale !== undefined ? ` at SF=${scale}` : ''}: ${ref.schema.reference.map((c) => `${c.name} ${c.type}`).join(', ')}; ${ref.rowCount.reference} rows (compared as a multiset of rows, docs/protocol.md §4).` : `The reference output of ${run.taskId}${scale !== undefined ? ` at SF=${scale}` : ''}.`,
    calls,
    sections: [
      { title: 'frozen artifacts', markdown: artifacts },
      { title: 'pytest', markdown: pytest },
      { title: 'comparison with the reference', markdown: comparison },
      { title: 'obligation labels', markdown: labels },
      { title: 'reply provenance', markdown: provenance },
      ...(sessions ? [{ title: 'agent sessions', markdown: sessions }] : []),
    ],
    scores: {
      reference_agreement: { value: yes(rec.referenceAgreement), answer: cmp ? (cmp.agree ? 'agree' : (cmp.primaryCategory ?? cmp.categories.join(', '))) : 'not compared', explanation: comparison },
      false_pass: { value: yes(rec.falsePass), answer: rec.falsePass ? 'false pass' : 'no', explanation: fp },
      tests_passed: { value: yes(rec.testPassed), answer: counts, explanation: pytest },
      executed: { value: yes(rec.execution?.status === 'ok'), answer: rec.execution?.status ?? 'not run', explanation: rec.execution ? `Execution on the study database: ${rec.execution.status}${rec.execution.rows !== undefined ? `, ${rec.execution.rows} rows` : ''}${rec.execution.reason ? ` (${rec.execution.reason})` : ''}; isolation ${rec.execution.isolation}.` : 'Not executed.' },
      plan_score: scoreOf('plan', 'Plan score'),
      code_score: scoreOf('code', 'Code score'),
      test_score: scoreOf('test', 'Test score'),
    },
    metadata: {
      taskId: run.taskId,
      condition: run.condition,
      sample: rec.sample ?? 1,
      replicate: run.replicate,
      callsUsed: rec.callsUsed,
      callBudget: rec.callBudget,
      stopReason: rec.stopReason,
      testPassed: rec.testPassed,
      referenceAgreement: rec.referenceAgreement,
      falsePass: rec.falsePass,
      failureCategories: cmp?.categories ?? [],
      executionStatus: rec.execution?.status ?? null,
      labelMethod: run.labelMethod,
      permissionDeviations: rec.deviations.filter((d) => !d.allowed).length,
      replyProvenance: [...new Set(calls.map((c) => c.provenance.split(/[ :(]/)[0]))],
      conditionDir: path.relative(study.studyDir, folder),
    },
  };
}

/**
 * The log of one condition's runs (`runs`: its scored runs, primary or replication). `summary`:
 * Table III's figures of the condition (ConditionSummary), the log's metrics; null for a
 * replication log, whose metrics are the means of its samples. Pure but for reading the runs' files.
 */
export function logOf(study: LoadedStudy, condition: ConditionId, runs: ScoredRun[], summary: ConditionSummary | null, opts: { created: string; suffix?: string }): SpecLog {
  const samples = runs.map((s) => sampleOf(study, s));
  const meanOf = (name: string) => (samples.length ? samples.reduce((a, x) => a + x.scores[name].value, 0) / samples.length : 0);
  const metric = (name: string, fromSummary: (s: ConditionSummary) => number, extra: Record<string, number> = {}) => ({ scorer: name, metrics: { mean: summary ? fromSummary(summary) : meanOf(name), ...extra } });
  const n = summary?.tasks ?? samples.length;
  const m = study.manifest as Record<string, unknown>;
  return {
    file: `${condition}${opts.suffix ?? ''}--${study.manifest.model.replace(/[^A-Za-z0-9._-]+/g, '-')}.eval`,
    task: `${condition}${opts.suffix ?? ''}`,
    displayName: `${BUDGETS[condition].name}${opts.suffix ? ' (targeted replication)' : ''}`,
    model: inspectModelName(study.manifest.model),
    created: opts.created,
    metadata: {
      studyId: study.manifest.studyId,
      condition,
      callBudget: BUDGETS[condition].callBudget,
      replayed: study.manifest.replayed ?? study.manifest.model.startsWith('replay:'),
      scale: study.manifest.scale ?? null,
      tasks: study.tasks,
      manifestHash: m.manifestHash ?? null,
      gitRevision: m.gitRevision ?? null,
      settings: study.manifest.settings ?? null,
      metricsAre: summary ? "the study's Table III figures of this condition (sample 1, every assigned task; a missing run counts 0)" : 'the means of the samples',
    },
    metrics: [
      metric('reference_agreement', (s) => s.referenceAgreement / n, summary ? { count: summary.referenceAgreement } : {}),
      metric('false_pass', (s) => s.falsePassRate, summary ? { count: summary.falsePasses, conditional: summary.conditionalFalsePassProportion ?? 0 } : {}),
      metric('tests_passed', (s) => s.testPassed / n, summary ? { count: summary.testPassed } : {}),
      metric('executed', (s) => s.executed / n),
      metric('plan_score', (s) => s.planScoreMean),
      metric('code_score', (s) => s.codeScoreMean),
      metric('test_score', (s) => s.testScoreMean),
    ],
    samples,
  };
}

/**
 * The spec of a study's logs: one per condition of the study (primary runs, sample 1; metrics =
 * `summary`, Table III), and one per condition of the targeted replication when it ran.
 * `logDir`: where inspect_logs.py writes them. `created`: the logs' time (ISO; the study's end).
 */
export function inspectSpec(study: LoadedStudy, scored: ScoredRun[], replicates: ScoredRun[], summary: Record<ConditionId, ConditionSummary>, logDir: string, created: string): InspectSpec {
  const logs: SpecLog[] = [];
  for (const c of study.conditions) {
    logs.push(logOf(study, c, scored.filter((s) => s.run.condition === c && study.tasks.includes(s.run.taskId)), summary[c] ?? null, { created }));
    const reps = replicates.filter((s) => s.run.condition === c);
    if (reps.length) logs.push(logOf(study, c, reps, null, { created, suffix: '--replication' }));
  }
  return { logDir, logs };
}
