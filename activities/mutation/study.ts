/**
 * Test-suite validity and mutation analysis of a whole study (issue "Gold solutions and replay
 * corpora"): for every run record, its frozen suite (test_solution.py; contract_test.py for Contract-First,
 * protocol/conditions.ts scoredSuite) is run against the task's gold
 * solution and its non-equivalent mutants; the scores go to runs/<study>/mutation.json, which
 * the report reads (activities/report/sideFiles.ts parseMutation).
 *
 * Cost control: mutants and their equivalence verdicts are cached per gold solution
 * (activities/mutation/generate.ts checkEquivalence), and a suite's runs are cached per
 * (suite, gold, mutant set, Spark settings): conditions that froze the same suite, and a
 * second analysis of the same study, do not run pytest again.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { lockinHome, referencesDir, referencePaths } from '../common/paths';
import { InputError } from '../common/errors';
import { recordsDir, studyDir, taskDir } from '../common/layout';
import { readStudyBasics, type StudyBasics } from '../store/manifest';
import { sha256File } from '../common/hash';
import { scoredSuite, type ConditionId } from '../../protocol/conditions';
import { checkEquivalence, mutantsCacheRoot, type EquivalenceResult } from './generate';
import { runSuiteOnVariants, type VariantRun } from './suites';
import { scoreSuite, type SuiteScore } from './score';
import { confirmEquivalents } from './confirm';
import { noteProgress } from '../common/progressBeat';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

export interface MutationStudyOptions {
  studyId: string;
  /** Scale of the database the equivalence check runs on (default 0.01; a task without a
   *  reference at that scale uses the study's scale). Disagreeing on any TPC-DS database
   *  proves a mutant non-equivalent; a mutant that agrees there is dropped as equivalent. */
  equivalenceScale?: number;
  /** Mutants equivalent at equivalenceScale run again at this scale (usually the study's);
   *  one that differs there becomes killable (activities/mutation/confirm.ts). Default: none. */
  confirmScale?: number;
  /** At most this many mutation sites per operator and task (default 2). */
  maxPerOperator?: number;
  /** Only these tasks (default: every task with a record). */
  tasks?: string[];
  /** Spark processes at a time (default 2). */
  concurrency?: number;
  /** Progress lines (one per task and per suite). */
  onProgress?: (line: string) => void;
}

/** What mutation.json holds. */
export interface MutationFile {
  studyId: string;
  equivalenceScale: number;
  /** Scale the equivalent mutants were re-checked at (null: not re-checked). */
  confirmScale: number | null;
  maxPerOperator: number;
  suites: SuiteScore[];
  /** Per task: the gold's sha256 and its mutants with their equivalence verdicts. */
  mutants: Record<string, { goldSha: string; scale: number; mutants: { id: string; operator: string; line: number; description: string; verdict: string; summary: string }[] }>;
}

interface RecordRef {
  taskId: string;
  condition: string;
  replicate?: string;
  sample?: number;
}

/** The records of sample 1 (mutation analysis covers the first sample of each task; `--samples` adds none). */
function readRecords(studyId: string): RecordRef[] {
  const dir = recordsDir(studyId);
  if (!fs.existsSync(dir)) throw new InputError('the study has no run records yet', dir);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const r = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as RecordRef;
      if (typeof r.taskId !== 'string' || typeof r.condition !== 'string') throw new InputError('record without taskId/condition', path.join(dir, f));
      return { taskId: r.taskId, condition: r.condition, replicate: r.replicate ?? undefined, sample: r.sample ?? 1 };
    })
    .filter((r) => r.sample === 1);
}

/** Runs `fn` over `items` with at most `n` at a time; resolves when all are done. */
async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, lane));
}

function suiteRunCache(key: string): string {
  return path.join(mutantsCacheRoot(), 'suite-runs', `${key}.json`);
}

/** The study's frozen inputs the analysis needs (study.json; activities/store/manifest.ts). */
export type { StudyBasics };

/** A study's folder, tasks, scale, settings and Spark mode from its study.json. @throws InputError naming the file (and field) when study.json is missing or malformed. */
export function studyBasics(studyId: string): StudyBasics {
  return readStudyBasics(studyId);
}

/** The options of one analysis with their defaults filled in. */
interface Resolved {
  eqScale: number;
  maxPerOperator: number;
}

function resolve(opts: Pick<MutationStudyOptions, 'equivalenceScale' | 'maxPerOperator'>): Resolved {
  return { eqScale: opts.equivalenceScale ?? 0.01, maxPerOperator: opts.maxPerOperator ?? 2 };
}

/**
 * Phase 1 for one task: its gold mutants and their equivalence verdicts at the equivalence
 * scale (the study's scale when the task has no reference there), equivalents re-checked at
 * confirmScale. Cached per gold solution (checkEquivalence, confirmEquivalents), so calling it
 * again is cheap. @returns the verdicts, the scale used and one progress line; throws what
 * checkEquivalence throws (e.g. a missing gold solution).
 */
async function equivalenceOf(basics: StudyBasics, r: Resolved, taskId: string, confirmScale: number | undefined): Promise<{ eq: EquivalenceResult; scale: number; lines: string[] }> {
  const scale = fs.existsSync(referencePaths(referencesDir(r.eqScale), taskId).schema) ? r.eqScale : basics.scale;
  const lines: string[] = [];
  let eq = await checkEquivalence({ taskId, scale, settings: basics.settings, maxPerOperator: r.maxPerOperator });
  const before = eq.mutants.filter((m) => m.verdict === 'equivalent').length;
  if (confirmScale !== undefined) eq = await confirmEquivalents(eq, confirmScale, basics.settings);
  const moved = before - eq.mutants.filter((m) => m.verdict === 'equivalent').length;
  if (moved) lines.push(`${taskId}: ${moved} of ${before} mutants equivalent at SF=${scale} differ at SF=${confirmScale}: killable`);
  const killable = eq.mutants.filter((m) => m.verdict === 'killable').length;
  const nEq = eq.mutants.filter((m) => m.verdict === 'equivalent').length;
  const undecided = eq.mutants.length - killable - nEq;
  const where = confirmScale !== undefined && confirmScale !== scale ? `equivalence at SF=${scale}, its equivalents again at SF=${confirmScale}` : `equivalence at SF=${scale}`;
  lines.push(`${taskId}: ${eq.mutants.length} mutants (${where}): ${killable} non-equivalent, ${nEq} equivalent${undecided ? `, ${undecided} undecided` : ''}`);
  return { eq, scale, lines };
}

/**
 * Where a suite's runs came from, for mutation.json's `ran` (SuiteScore): `here` when the study's
 * own folder holds the suite's results (it ran for this study: also when its runs are read back
 * from the cache, as when the main job scores every suite again to write mutation.json after its
 * tasks ran them), else `cache` when they were copied from the suite-run cache, `same-suite` when
 * shared with an identical suite analysed at the same time, and `here` for a run made now.
 * Inputs: cached (the cache held the runs), shared (an identical suite's run in flight was
 * taken), resultsInStudy (`mutation/<task>/<condition>/results.jsonl` exists in the study). Pure.
 */
export function suiteRunOrigin(o: { cached: boolean; shared: boolean; resultsInStudy: boolean }): NonNullable<SuiteScore['ran']> {
  if (o.resultsInStudy) return 'here';
  if (o.cached) return 'cache';
  return o.shared ? 'same-suite' : 'here';
}

/**
 * Phase 2 for one record: its frozen suite against gold and the non-equivalent mutants
 * (`-x`: the first failing test kills). Runs are cached per (suite, gold, mutant set,
 * settings); `inFlight` shares a run between identical suites analysed at the same time.
 * @returns the suite's score and its progress line (without the counter).
 */
async function suiteScoreOf(studyId: string, basics: StudyBasics, rec: RecordRef, eq: EquivalenceResult, inFlight: Map<string, Promise<VariantRun[]>>): Promise<{ row: SuiteScore; line: string }> {
  const taskId = rec.taskId;
  const killable = eq.mutants.filter((x) => x.verdict === 'killable');
  const suiteName = scoredSuite(rec.condition as ConditionId);
  const suiteFile = path.join(taskDir(studyId, taskId, rec.replicate), rec.condition, suiteName);
  const label = `${taskId}/${rec.condition}${rec.replicate ? ` (${rec.replicate})` : ''}`;
  if (!fs.existsSync(suiteFile)) {
    const none = (variant: string): VariantRun => ({ variant, exitCode: null, passed: false, status: 'crash', ms: 0 });
    return { row: scoreSuite(taskId, rec.condition, 'missing', eq.mutants, [none('gold'), ...killable.map((x) => none(x.id))]), line: `${label}: no ${suiteName}: invalid` };
  }
  const suiteSha = sha256File(suiteFile);
  // v3: a suite that fails gold is not run on the mutants, and gold's first failure is kept
  // (runs cached before that are not reused). v4-blind: variants blind, verdicts
  // decided outside the suite's process (docs/verdicts.md); runs cached before are not reused.
  // A warm run is cached apart from a cold one (so the equivalence run of bench/study.ts measures both).
  // v5-valid-tests: a suite that fails gold is run on the mutants with its valid tests only;
  // v6: gold's run records its tests' outcomes (before it, none were, so no suite was measured so).
  const key = crypto.createHash('sha256').update(JSON.stringify(['v6-gold-tests', suiteSha, eq.goldSha, killable.map((x) => x.id), basics.settings, ...(basics.sparkMode === 'warm' ? ['warm'] : [])])).digest('hex').slice(0, 24);
  const cache = suiteRunCache(key);
  const outDir = path.join(basics.sdir, 'mutation', taskId, rec.replicate ? `${rec.condition}-${rec.replicate}` : rec.condition);
  let runs: Promise<VariantRun[]>;
  let reused = '';
  let ran: NonNullable<SuiteScore['ran']> = 'here';
  if (fs.existsSync(cache)) {
    runs = Promise.resolve(JSON.parse(fs.readFileSync(cache, 'utf8')) as VariantRun[]);
    reused = ' (cached)';
    ran = suiteRunOrigin({ cached: true, shared: false, resultsInStudy: fs.existsSync(path.join(outDir, 'results.jsonl')) });
  } else if (inFlight.has(key)) {
    runs = inFlight.get(key)!;
    reused = ' (same suite as another condition: one run)';
    ran = suiteRunOrigin({ cached: false, shared: true, resultsInStudy: false });
  } else {
    const mutantVariants = (only?: string[]) => killable.map((x) => ({ id: x.id, solutionFile: path.join(eq.dir, x.id, 'solution.py'), ...(only ? { only } : {}) }));
    runs = runSuiteOnVariants({
      suiteFile,
      variants: [{ id: 'gold', solutionFile: path.join(eq.dir, 'gold', 'solution.py') }, ...mutantVariants()],
      settings: basics.settings,
      sparkMode: basics.sparkMode,
      outDir,
    }).then(async (r) => {
      // Per-test validity: a suite that fails gold runs once more, on the mutants only, with the
      // tests that pass gold (each mutant stops at the first of them that fails).
      const valid = validTestsOf(r);
      if (!valid || killable.length === 0) return r;
      const again = await runSuiteOnVariants({ suiteFile, variants: mutantVariants(valid), settings: basics.settings, sparkMode: basics.sparkMode, outDir: path.join(outDir, 'valid-tests') });
      return [r.find((x) => x.variant === 'gold')!, ...again];
    }).then((r) => {
      fs.mkdirSync(path.dirname(cache), { recursive: true });
      fs.writeFileSync(cache, JSON.stringify(r));
      return r;
    });
    inFlight.set(key, runs);
  }
  const done = await runs;
  const valid = validTestsOf(done);
  const ranWithValid = !!valid && killable.every((x) => done.find((r) => r.variant === x.id)?.status !== 'not-run');
  const row: SuiteScore = { ...scoreSuite(taskId, rec.condition, suiteSha, eq.mutants, done, ranWithValid ? valid : undefined), ran };
  return { row, line: `${label}: ${suiteLine(row)}${reused}` };
}

/**
 * The tests a suite that fails gold is measured through (score.ts, per-test validity): the names
 * of those that passed in gold's run, when gold completed without passing and at least one test
 * passed; undefined otherwise (a valid suite, or none to measure through). Pure.
 */
export function validTestsOf(runs: readonly VariantRun[]): string[] | undefined {
  const gold = runs.find((r) => r.variant === 'gold');
  if (!gold || gold.passed || gold.status !== 'completed') return undefined;
  const valid = (gold.tests ?? []).filter((t) => t.outcome === 'passed').map((t) => t.name);
  return valid.length ? valid : undefined;
}

/**
 * A suite's progress line: its kills, or why it counts none. A suite that rejects gold is a
 * finding about the suite, worded as one, not as an error. Pure.
 */
export function suiteLine(row: SuiteScore): string {
  if (row.validOnGold) return `valid on gold, killed ${row.killed}/${row.total}`;
  if (row.validTests) {
    const failing = row.validTests.tests - row.validTests.valid;
    return `${failing} of its ${row.validTests.tests} tests reject the gold solution (a finding: ${row.goldFailure}); measured through the other ${row.validTests.valid}: killed ${row.killed}/${row.total}`;
  }
  return `rejects the gold solution, so its mutation score and test labels are not counted (a finding): ${row.goldFailure}`;
}

/**
 * Runs the analysis and writes runs/<study>/mutation.json.
 * Inputs: MutationStudyOptions. The study's Spark settings (study.json) are used for every run.
 * Returns the MutationFile written. Throws InputError when the study folder, its study.json or
 * its records are missing; a task whose gold solution is missing is skipped with a progress line.
 */
export async function analyzeStudyMutation(opts: MutationStudyOptions): Promise<MutationFile> {
  const say = opts.onProgress ?? (() => undefined);
  const basics = studyBasics(opts.studyId);
  const r = resolve(opts);
  const records = readRecords(opts.studyId).filter((x) => !opts.tasks || opts.tasks.includes(x.taskId));
  const tasks = [...new Set(records.map((x) => x.taskId))];
  const concurrency = Math.max(1, opts.concurrency ?? 2);
  const out: MutationFile = { studyId: opts.studyId, equivalenceScale: r.eqScale, confirmScale: opts.confirmScale ?? null, maxPerOperator: r.maxPerOperator, suites: [], mutants: {} };

  // Phase 1: mutants and their equivalence verdicts, per task (cached per gold solution).
  const eqs = new Map<string, { eq: EquivalenceResult; scale: number }>();
  let n = 0;
  await pool(tasks, concurrency, async (taskId) => {
    try {
      const { eq, scale, lines } = await equivalenceOf(basics, r, taskId, opts.confirmScale);
      eqs.set(taskId, { eq, scale });
      n += 1;
      for (const [i, line] of lines.entries()) say(i === lines.length - 1 ? `[mutation] mutants ${n}/${tasks.length} ${line}` : `[mutation]   ${line}`);
    } catch (err) {
      say(`[mutation] mutants ${++n}/${tasks.length} ${taskId}: SKIPPED: ${(err as Error).message.split('\n')[0]}`);
    }
  });
  for (const taskId of tasks) {
    const e = eqs.get(taskId);
    if (e) out.mutants[taskId] = { goldSha: e.eq.goldSha, scale: e.scale, mutants: e.eq.mutants };
  }

  // Phase 2: every record's frozen suite against gold and the non-equivalent mutants. Identical
  // suites (a condition that kept the snapshot's tests) share one run.
  const jobs = records.filter((x) => eqs.has(x.taskId));
  const inFlight = new Map<string, Promise<VariantRun[]>>();
  const rows = new Map<RecordRef, SuiteScore>();
  let m = 0;
  await pool(jobs, concurrency, async (rec) => {
    const { row, line } = await suiteScoreOf(opts.studyId, basics, rec, eqs.get(rec.taskId)!.eq, inFlight);
    rows.set(rec, row);
    say(`[mutation] suites ${++m}/${jobs.length} ${line}`);
  });
  for (const rec of jobs) if (rows.has(rec)) out.suites.push(rows.get(rec)!);
  fs.writeFileSync(path.join(basics.sdir, 'mutation.json'), `${JSON.stringify(out, null, 2)}\n`);
  return out;
}

/** One task of the durable analysis (workflows/mutation.ts): the study and the analysis options. */
export type MutationTaskRequest = ActivityInput<'mutationTask'>;

/**
 * Activity: the tasks of a study that have records, in record order (the analysis's work list).
 * @throws InputError when the study has no records.
 */
export async function mutationTasks(req: ActivityInput<'mutationTasks'>): Promise<ActivityOutput<'mutationTasks'>> {
  studyBasics(req.studyId);
  return [...new Set(readRecords(req.studyId).map((x) => x.taskId))].filter((q) => !req.tasks || req.tasks.includes(q));
}

/**
 * Activity: phase 1 and phase 2 for one task: its mutants' equivalence verdicts (cached per gold
 * solution), then each of its records' frozen suites against gold and the non-equivalent mutants
 * (cached per suite), one after another so identical suites share one run. Finished work is in
 * the caches, so a retried or resumed activity redoes nothing that finished.
 * @returns the progress lines, for the workflow's progress query; `skipped` when the task has no
 * gold solution or its mutants cannot be built (the reason is the line).
 */
export async function mutationTask(req: MutationTaskRequest): Promise<ActivityOutput<'mutationTask'>> {
  const basics = studyBasics(req.studyId);
  const r = resolve(req);
  let eq: EquivalenceResult;
  const lines: string[] = [];
  noteProgress(`${req.taskId}: building its mutants and checking their equivalence to gold`);
  try {
    const got = await equivalenceOf(basics, r, req.taskId, req.confirmScale);
    eq = got.eq;
    lines.push(...got.lines.map((l) => `mutants ${l}`));
  } catch (err) {
    return { taskId: req.taskId, lines: [`mutants ${req.taskId}: SKIPPED: ${(err as Error).message.split('\n')[0]}`], skipped: true };
  }
  const inFlight = new Map<string, Promise<VariantRun[]>>();
  const recs = readRecords(req.studyId).filter((x) => x.taskId === req.taskId);
  for (const [i, rec] of recs.entries()) {
    noteProgress(`${req.taskId}: suite ${i + 1} of ${recs.length} (${rec.condition}) on gold and its mutants`);
    const { line } = await suiteScoreOf(req.studyId, basics, rec, eq, inFlight);
    lines.push(`suite ${line}`);
  }
  return { taskId: req.taskId, lines, skipped: false };
}
