/**
 * Mutants of the gold solutions and their equivalence check (issue "Gold solutions and replay
 * corpora": test-suite validity and mutation score).
 *
 * - generateMutants: runs activities/python/mutants.py (pure `ast` generator; the operators and
 *   their rules are documented in its module docstring) on tasks/<taskId>/gold/solution.py.
 * - mutantOutputs: runs activities/python/mutant_outputs.py, which executes many variants in one
 *   SparkSession, as a Spark job (sandboxed; cold or in a warm slot), and keeps each output.
 * - checkEquivalence: generates, runs and compares every mutant with the task's reference
 *   (compareOutputs, the study's primary comparator), caching the verdicts per gold solution in
 *   `<lockinHome>/mutants/<scaleTag>/<taskId>/<gold sha256, 12 hex>/equivalence.json`.
 */
import * as fs from 'fs';
import * as path from 'path';
import YAML from 'yaml';
import { z } from 'zod';
import { InputError, SubprocessError } from '../common/errors';
import { databaseDir, lockinHome, pythonDir, referencesDir, scaleTag, tasksRoot, venvPython, referencePaths } from '../common/paths';
import { runPythonJson } from '../common/python';
import { DEFAULT_SPARK_SETTINGS, SparkSettingsSchema, type SparkMode, type SparkSettings } from '../../protocol/settings';
import { activityHooks, throwIfCancelled } from '../execution/activityContext';
import { databaseMounts } from '../execution/databases';
import { ownedTempDir, toMiB } from '../execution/sandbox';
import { runSparkJob, type SparkSandboxRun } from '../execution/slots';
import { resolveSparkMode } from '../common/sparkMode';
import { outputVariantsAtOnce } from '../common/sparkConcurrency';
import { sessionStateUse } from './sharedState';
import { forbiddenPrefixes } from '../execution/staging';
import { taskIdFromQid } from '../../protocol/sideFiles';
import { compareOutputs } from '../compare/activity';
import { sha256File } from '../common/hash';
import { listTaskIds, loadTask } from '../tasks/load';

/** The operators of mutants.py, in the order mutants are listed (names are part of the data format). */
export const MUTATION_OPERATORS = [
  'join-type',
  'semi-join',
  'anti-join',
  'price-column',
  'aggregate-function',
  'filter-bound',
  'distinct',
  'alias-rename',
  'decimal-cast',
  'rollup',
] as const;
export type MutationOperator = (typeof MUTATION_OPERATORS)[number];

/** One entry of mutants.json: id "<operator>-<k>", the line of the site in the gold file, what changed. */
export const MutantInfo = z.object({
  id: z.string().regex(/^[a-z-]+-\d+$/),
  operator: z.enum(MUTATION_OPERATORS),
  line: z.number().int().positive(),
  description: z.string(),
});
export type MutantInfo = z.infer<typeof MutantInfo>;
const MutantList = z.array(MutantInfo);

/**
 * One variant's run by mutant_outputs.py; "timeout": stopped at the per-variant time limit;
 * "not-run": the process ended (time limit, crash) before it.
 */
export const VariantResult = z.object({
  dir: z.string(),
  status: z.enum(['ok', 'exception', 'timeout', 'not-run']),
  reason: z.string().optional(),
  rows: z.number().int().optional(),
  ms: z.number().int().optional(),
});
export type VariantResult = z.infer<typeof VariantResult>;

/** A mutant with its equivalence verdict (an entry of equivalence.json). */
export const MutantVerdict = MutantInfo.extend({
  /** killable: output disagrees with the reference, or solve raised; equivalent: agrees; error: not decided. */
  verdict: z.enum(['killable', 'equivalent', 'error']),
  /** How the mutant's run ended. */
  status: z.enum(['ok', 'exception', 'timeout', 'not-run']),
  /** One line: the comparator's summary, the exception, or why it was not decided. */
  summary: z.string(),
});
export type MutantVerdict = z.infer<typeof MutantVerdict>;

/** The content of equivalence.json. */
export const EquivalenceFile = z.object({
  taskId: z.string(),
  scale: z.number(),
  /** sha256 (64 hex) of tasks/<taskId>/gold/solution.py: the cache key, with maxPerOperator and generatorSha. */
  goldSha: z.string().regex(/^[0-9a-f]{64}$/),
  maxPerOperator: z.number().int().positive(),
  /** sha256 of activities/python/mutants.py: a changed generator invalidates the cache. */
  generatorSha: z.string().regex(/^[0-9a-f]{64}$/),
  /** The gold itself, run in the same session and compared the same way (a sanity check of the verdicts). */
  gold: z.object({ status: z.enum(['ok', 'exception', 'timeout', 'not-run']), agree: z.boolean(), summary: z.string() }),
  mutants: z.array(MutantVerdict),
});
export type EquivalenceFile = z.infer<typeof EquivalenceFile>;
/** What checkEquivalence returns: the file's content plus the folder holding `<id>/solution.py`, `gold/solution.py`. */
export type EquivalenceResult = EquivalenceFile & { dir: string };

const EQUIVALENCE_FILE = 'equivalence.json';

/**
 * Every column name of the TPC-DS tables the corpus declares (the union of `tables[].columns`
 * over tasks/<taskId>/task.yaml), sorted. Task files that cannot be read are skipped.
 * Inputs: the corpus root. Returns: column names.
 */
export function corpusTableColumns(root: string = tasksRoot()): string[] {
  const out = new Set<string>();
  for (const taskId of listTaskIds(root)) {
    try {
      const doc = YAML.parse(fs.readFileSync(path.join(root, taskId, 'task.yaml'), 'utf8')) as { tables?: { columns?: { name?: unknown }[] }[] };
      for (const t of doc?.tables ?? []) for (const c of t.columns ?? []) if (typeof c.name === 'string') out.add(c.name);
    } catch {
      /* an unreadable task file adds nothing; `lockin tasks check` reports it */
    }
  }
  return [...out].sort();
}

/**
 * Runs mutants.py on one gold file.
 * Inputs: the gold solution.py; output column names; table column names; the output folder
 * (receives `<id>/solution.py`, mutants.json, and the two column lists it was given);
 * at most `maxPerOperator` (default 2) mutants per operator.
 * Returns: mutants.json, validated. @throws SubprocessError when mutants.py fails (e.g. the gold does not parse).
 */
export async function generateMutantsFromFile(opts: {
  goldFile: string;
  outputColumns: string[];
  tableColumns: string[];
  outDir: string;
  maxPerOperator?: number;
}): Promise<MutantInfo[]> {
  const outDir = path.resolve(opts.outDir);
  fs.mkdirSync(outDir, { recursive: true });
  const tcFile = path.join(outDir, 'table-columns.json');
  const ocFile = path.join(outDir, 'output-columns.json');
  fs.writeFileSync(tcFile, `${JSON.stringify(opts.tableColumns)}\n`);
  fs.writeFileSync(ocFile, `${JSON.stringify(opts.outputColumns)}\n`);
  const res = await runPythonJson(
    'mutants.py',
    ['generate', '--gold', path.resolve(opts.goldFile), '--table-columns', tcFile, '--output-columns-json', ocFile,
      '--max-per-operator', String(opts.maxPerOperator ?? 2), '--out', outDir],
    z.object({ mutants: z.number().int() }),
    { timeoutMs: 120_000 },
  );
  const listing = MutantList.parse(JSON.parse(fs.readFileSync(path.join(outDir, 'mutants.json'), 'utf8')));
  if (listing.length !== res.mutants) throw new Error(`mutants.py reported ${res.mutants} mutants but mutants.json lists ${listing.length}`);
  return listing;
}

/**
 * Generates the mutants of task `taskId`'s gold solution into `outDir`.
 * Inputs: taskId; the corpus root (default tasks/); the output folder; at most `maxPerOperator`
 * (default 2) per operator. Output columns are the names task.yaml gives
 * (`output.columns[].name`); table columns are corpusTableColumns(root).
 * Returns: the mutants (mutants.json). @throws TaskLoadError for a bad task folder, InputError
 * when the gold is missing, SubprocessError when mutants.py fails.
 */
export async function generateMutants(opts: { taskId: string; root?: string; outDir: string; maxPerOperator?: number }): Promise<MutantInfo[]> {
  const root = opts.root ?? tasksRoot();
  const task = loadTask(opts.taskId, root);
  const goldFile = path.join(root, opts.taskId, 'gold', 'solution.py');
  if (!fs.existsSync(goldFile)) throw new InputError('no gold solution', goldFile);
  const outputColumns = task.task.output.columns.flatMap((c) => (c.name ? [c.name] : []));
  return generateMutantsFromFile({ goldFile, outputColumns, tableColumns: corpusTableColumns(root), outDir: opts.outDir, maxPerOperator: opts.maxPerOperator });
}

/** Reads `<dir>/result.json` left by mutant_outputs.py, if any. */
function partialResult(dir: string): VariantResult | null {
  try {
    return VariantResult.parse(JSON.parse(fs.readFileSync(path.join(dir, 'result.json'), 'utf8')));
  } catch {
    return null;
  }
}

/** The harness-channel line mutant_outputs.py writes for each finished variant. */
const ChannelResult = VariantResult.extend({ index: z.number().int().nonnegative() });

/**
 * `<dir>/result.json` and `<dir>/out/{output.arrow,schema.json}` as mutantOutputs leaves them:
 * written on the host side when a variant's result arrives, so an attempt cut short keeps the
 * variants it finished (stashFinishedVariants).
 */
function writeVariantResult(dir: string, r: VariantResult): void {
  const tmp = path.join(dir, 'result.json.tmp');
  fs.writeFileSync(tmp, `${JSON.stringify(r)}\n`);
  fs.renameSync(tmp, path.join(dir, 'result.json'));
}

/**
 * Runs variants (folders holding solution.py) in one Python process and one SparkSession on
 * databaseDir(scale) (activities/python/mutant_outputs.py), as a Spark job like a candidate's
 * execution (activities/execution/slots.ts runSparkJob): sandboxed, cold or in a warm slot. The
 * variants are staged read-only at /lockin/programs/<k>-<name>, with the execution's database
 * mounts; the mount name makes these jobs a slot profile of their own, so gold and its variants
 * never share a JVM with a candidate's execution or smoke check (README "Warm Spark slots").
 * Each output comes back through descriptors to `<dir>/out` (output.arrow + schema.json) and
 * each result to `<dir>/result.json`.
 * Inputs: folders; scale; Spark settings (passed explicitly); wall-clock limit of the process (ms);
 * perVariantS, the time limit of each variant (default 600 s: past it its Spark jobs are cancelled
 * and it is "timeout"); cancelGraceS (default 60 s; a variant still running that long after the
 * cancel ends the process); onVariant, told a line for each variant once the job ended
 * ("[k/N] <folder>: ok (15 rows) in 812 ms"), for progress; sparkMode (default
 * LOCKIN_SPARK_MODE, else warm); atOnce, the variants run at a time on the job's session
 * (default outputVariantsAtOnce: 2 on a database below SF=1 where the cores allow; a variant
 * whose text reaches the session's state, sharedState.ts sessionStateUse, makes it 1 whatever is asked).
 * Returns: one result per folder, in order. When the process ends early (time limit, crash,
 * memory), the variants it finished keep their results and the rest are "not-run" with the reason.
 * @throws InputError for a missing solution.py; SubprocessError when the process failed before
 *   finishing any variant (Spark or the database did not load).
 */
export async function mutantOutputs(opts: {
  dirs: string[];
  scale: number;
  settings: SparkSettings;
  timeoutMs?: number;
  perVariantS?: number;
  cancelGraceS?: number;
  onVariant?: (line: string) => void;
  sparkMode?: SparkMode;
  atOnce?: 1 | 2;
}): Promise<VariantResult[]> {
  const dirs = opts.dirs.map((d) => path.resolve(d));
  for (const d of dirs) if (!fs.existsSync(path.join(d, 'solution.py'))) throw new InputError('no solution.py', d);
  if (dirs.length === 0) return [];
  const settings = SparkSettingsSchema.parse(opts.settings);
  const timeoutMs = opts.timeoutMs ?? 30 * 60_000;
  // Results of an earlier run must not be mistaken for this one's.
  for (const d of dirs) {
    fs.rmSync(path.join(d, 'out'), { recursive: true, force: true });
    fs.rmSync(path.join(d, 'result.json'), { force: true });
  }
  const names = dirs.map((d, k) => `${k}-${path.basename(d).replace(/[^A-Za-z0-9._-]/g, '_')}`);
  const staged = ownedTempDir('lockin-stage-');
  fs.chmodSync(staged, 0o755);
  for (const [k, d] of dirs.entries()) {
    fs.mkdirSync(path.join(staged, names[k]), { mode: 0o755 });
    fs.copyFileSync(path.join(d, 'solution.py'), path.join(staged, names[k], 'solution.py'));
    fs.chmodSync(path.join(staged, names[k], 'solution.py'), 0o644);
  }
  const outputs: Record<string, string> = {};
  for (const [k, d] of dirs.entries()) {
    outputs[`a${k}`] = path.join(d, 'out', 'output.arrow');
    outputs[`s${k}`] = path.join(d, 'out', 'schema.json');
  }
  const dbs = databaseMounts(databaseDir(opts.scale), opts.scale);
  // Two at a time share one session: a variant whose text reaches the session's state runs the job one at a time.
  const reaching = dirs.map((d) => sessionStateUse(fs.readFileSync(path.join(d, 'solution.py'), 'utf8'))).find((u) => u !== null);
  const atOnce = reaching ? 1 : (opts.atOnce ?? outputVariantsAtOnce(resolveSparkMode(opts.sparkMode).mode, opts.scale));
  let run: SparkSandboxRun;
  try {
    run = await runSparkJob({
      mounts: { programs: { source: staged }, ...dbs.mounts },
      outputs,
      command: (at, fds) => [
        venvPython(), path.join(pythonDir(), 'mutant_outputs.py'),
        '--variants', names.map((n) => `${at.programs}/${n}`).join(','), '--db', dbs.dbPath(at), '--settings', JSON.stringify(settings),
        '--per-variant-timeout', String(opts.perVariantS ?? 600), '--cancel-grace', String(opts.cancelGraceS ?? 60),
        '--out-fds', dirs.map((_, k) => `${fds[`a${k}`]}:${fds[`s${k}`]}`).join(','),
        '--at-once', String(atOnce),
      ],
      timeoutMs,
      memoryLimitMb: toMiB(settings.driverMemory) + 3072,
      forbidden: forbiddenPrefixes(),
      ...activityHooks(),
    }, { mode: opts.sparkMode, settings, fixed: dbs.fixed });
  } finally {
    fs.rmSync(staged, { recursive: true, force: true });
  }
  throwIfCancelled(run.cancelled);
  const byIndex = new Map<number, VariantResult>();
  for (const line of run.channel.split('\n')) {
    let parsed: z.infer<typeof ChannelResult>;
    try {
      parsed = ChannelResult.parse(JSON.parse(line));
    } catch {
      continue; // not a result line
    }
    const { index, ...rest } = parsed;
    if (index >= dirs.length || byIndex.has(index)) continue;
    const r: VariantResult = { ...rest, dir: dirs[index] };
    // An ok result needs both of its outputs.
    if (r.status === 'ok' && !['a', 's'].every((p) => { const o = run.outputs[`${p}${index}`]; return o && 'file' in o; })) {
      byIndex.set(index, { dir: dirs[index], status: 'not-run', reason: `its output was not accepted (${JSON.stringify(run.outputs[`a${index}`] ?? 'not written')})` });
      continue;
    }
    byIndex.set(index, r);
  }
  if (byIndex.size === 0 && run.exitCode !== 0) {
    const how = run.timedOut ? 'stopped at its time limit; ' : run.memoryExceeded ? 'stopped at its memory limit; ' : '';
    throw new SubprocessError('mutant_outputs.py', [], run.exitCode, run.signal, `${how}${run.stderr.split('\n').slice(-20).join('\n')}`);
  }
  const why = run.timedOut ? `the run was stopped (time limit ${timeoutMs} ms)`
    : run.memoryExceeded ? 'the run was stopped (memory limit)'
    : run.exitCode === 0 && !run.signal ? 'the process ended before it'
    : `mutant_outputs.py ended (${run.signal ?? `exit ${run.exitCode}`})`;
  const results = dirs.map((d, k) => byIndex.get(k) ?? { dir: d, status: 'not-run' as const, reason: why });
  for (const [k, r] of results.entries()) {
    if (r.status !== 'not-run') writeVariantResult(dirs[k], r);
    opts.onVariant?.(`[${k + 1}/${dirs.length}] ${path.basename(dirs[k])}: ${r.status}${r.rows !== undefined ? ` (${r.rows} rows)` : r.reason ? `: ${firstLine(r.reason, 200)}` : ''}${r.ms !== undefined ? ` in ${r.ms} ms` : ''}`);
  }
  return results;
}

/** Statuses of a variant run that are its answer (a time-out or a run not made is tried again). */
const FINAL_STATUSES = new Set(['ok', 'exception']);

/**
 * Moves the outputs of every finished variant under `dir` (a `<id>/result.json` with status ok,
 * with its out/, or exception) to `<dir>/.resume/<id>/` with the sha256 of the solution.py they
 * came from, before the mutants are generated again (which removes mutant folders).
 * Returns: variant id → sha256 of its solution.py.
 */
function stashFinishedVariants(dir: string): Map<string, string> {
  const stash = new Map<string, string>();
  if (!fs.existsSync(dir)) return stash;
  const resume = path.join(dir, '.resume');
  fs.rmSync(resume, { recursive: true, force: true });
  for (const id of fs.readdirSync(dir)) {
    const d = path.join(dir, id);
    const r = fs.existsSync(path.join(d, 'solution.py')) ? partialResult(d) : null;
    if (!r || !FINAL_STATUSES.has(r.status) || (r.status === 'ok' && !fs.existsSync(path.join(d, 'out', 'schema.json')))) continue;
    fs.mkdirSync(path.join(resume, id), { recursive: true });
    fs.renameSync(path.join(d, 'result.json'), path.join(resume, id, 'result.json'));
    if (fs.existsSync(path.join(d, 'out'))) fs.renameSync(path.join(d, 'out'), path.join(resume, id, 'out'));
    stash.set(id, sha256File(path.join(d, 'solution.py')));
  }
  return stash;
}

/**
 * Puts stashed outputs back into the variant folders `dirs` whose solution.py has the stashed
 * sha256, and removes the stash. Returns: folder → its kept result.
 */
function restoreFinishedVariants(dir: string, stash: Map<string, string>, dirs: string[]): Map<string, VariantResult> {
  const kept = new Map<string, VariantResult>();
  const resume = path.join(dir, '.resume');
  for (const d of dirs) {
    const id = path.basename(d);
    const sha = stash.get(id);
    if (!sha || !fs.existsSync(path.join(d, 'solution.py')) || sha256File(path.join(d, 'solution.py')) !== sha) continue;
    fs.renameSync(path.join(resume, id, 'result.json'), path.join(d, 'result.json'));
    if (fs.existsSync(path.join(resume, id, 'out'))) {
      fs.rmSync(path.join(d, 'out'), { recursive: true, force: true });
      fs.renameSync(path.join(resume, id, 'out'), path.join(d, 'out'));
    }
    const r = partialResult(d);
    if (r) kept.set(path.resolve(d), { ...r, dir: path.resolve(d) });
  }
  fs.rmSync(resume, { recursive: true, force: true });
  return kept;
}

/** sha256 of the generator script (part of the cache key). */
function generatorSha(): string {
  return sha256File(path.join(pythonDir(), 'mutants.py'));
}

/**
 * The mutation analysis's cache folder: LOCKIN_MUTANTS_CACHE when set (bench/study.ts gives each
 * run of its equivalence run a fresh one), else `<lockinHome>/mutants`.
 */
export function mutantsCacheRoot(): string {
  return process.env.LOCKIN_MUTANTS_CACHE ? path.resolve(process.env.LOCKIN_MUTANTS_CACHE) : path.join(lockinHome(), 'mutants');
}

/** `<cacheRoot>/<scaleTag>/<taskId>/<goldSha[0:12]>`; cacheRoot defaults to mutantsCacheRoot(). */
export function equivalenceDir(opts: { taskId: string; scale: number; goldSha: string; cacheDir?: string }): string {
  return path.join(opts.cacheDir ?? mutantsCacheRoot(), scaleTag(opts.scale), opts.taskId, opts.goldSha.slice(0, 12));
}

/** The cached equivalence.json when it is valid and its keys match, else null. */
function cachedEquivalence(file: string, key: { taskId: string; scale: number; goldSha: string; maxPerOperator: number; generatorSha: string }): EquivalenceFile | null {
  if (!fs.existsSync(file)) return null;
  try {
    // Caches written before the rename say `qid`; they stay valid.
    const v = EquivalenceFile.parse(taskIdFromQid(JSON.parse(fs.readFileSync(file, 'utf8'))));
    const same = v.taskId === key.taskId && v.scale === key.scale && v.goldSha === key.goldSha && v.maxPerOperator === key.maxPerOperator && v.generatorSha === key.generatorSha;
    // A run cut short (time limit, crash) is not a result to keep: run it again.
    const complete = v.gold.status !== 'not-run' && v.mutants.every((m) => m.status !== 'not-run');
    return same && complete ? v : null;
  } catch {
    return null;
  }
}

/** First line of a text, at most `n` characters. */
function firstLine(text: string | undefined, n = 300): string {
  return (text ?? '').split('\n')[0].slice(0, n);
}

/**
 * Decides which mutants of task `taskId`'s gold are equivalent at a scale: each mutant runs on
 * databaseDir(scale) and its output is compared with referencesDir(scale)/<taskId> by compareOutputs.
 * A mutant that agrees is "equivalent" (the caller drops and counts it); one that disagrees or
 * raises is "killable"; one that could not be run or compared is "error". The gold runs too
 * (`gold` in the result): a gold that disagrees makes "killable" meaningless at that scale.
 *
 * Inputs: taskId; scale; Spark settings (default: the study's with a 3g driver); maxPerOperator
 * (default 2); cacheDir (default `<lockinHome>/mutants`); root (the corpus, default tasks/);
 * timeoutMs for the Spark process (default 30 min).
 * Returns: equivalence.json's content plus `dir`. Cached: an equivalence.json with the same
 * gold sha256, maxPerOperator and generator sha256 is returned without running Spark.
 * @throws InputError when the gold or the reference is missing; SubprocessError when Spark did not start.
 */
export async function checkEquivalence(opts: {
  taskId: string;
  scale: number;
  settings?: SparkSettings;
  maxPerOperator?: number;
  cacheDir?: string;
  root?: string;
  timeoutMs?: number;
}): Promise<EquivalenceResult> {
  const { taskId, scale } = opts;
  const root = opts.root ?? tasksRoot();
  const maxPerOperator = opts.maxPerOperator ?? 2;
  const goldFile = path.join(root, taskId, 'gold', 'solution.py');
  if (!fs.existsSync(goldFile)) throw new InputError('no gold solution', goldFile);
  const goldSha = sha256File(goldFile);
  const genSha = generatorSha();
  const dir = equivalenceDir({ taskId, scale, goldSha, cacheDir: opts.cacheDir });
  const file = path.join(dir, EQUIVALENCE_FILE);
  const hit = cachedEquivalence(file, { taskId, scale, goldSha, maxPerOperator, generatorSha: genSha });
  if (hit && fs.existsSync(path.join(dir, 'gold', 'solution.py'))) return { ...hit, dir };

  const reference = referencePaths(referencesDir(scale), taskId);
  const refDir = reference.dir;
  if (!fs.existsSync(reference.schema)) throw new InputError(`no reference for ${taskId} at scale ${scale} (lockin data prepare --scale ${scale})`, refDir);
  fs.rmSync(file, { force: true });
  // An attempt cut short leaves the variants it finished with their outputs (when its Spark job
  // ended at a time or memory limit or crashed; a worker killed mid-job takes that job's with it):
  // keep those whose solution.py is the same after regeneration, run only the others.
  const stash = stashFinishedVariants(dir);
  const mutants = await generateMutants({ taskId, root, outDir: dir, maxPerOperator });
  const goldDir = path.join(dir, 'gold');
  fs.mkdirSync(goldDir, { recursive: true });
  fs.copyFileSync(goldFile, path.join(goldDir, 'solution.py'));

  const settings = opts.settings ?? { ...DEFAULT_SPARK_SETTINGS, driverMemory: '3g' };
  const dirs = [goldDir, ...mutants.map((m) => path.join(dir, m.id))];
  const kept = restoreFinishedVariants(dir, stash, dirs);
  const toRun = dirs.filter((d) => !kept.has(d));
  const ran = await mutantOutputs({ dirs: toRun, scale, settings, timeoutMs: opts.timeoutMs });
  const ranBy = new Map(toRun.map((d, i) => [d, ran[i]]));
  const results = dirs.map((d) => kept.get(d) ?? ranBy.get(d)!);

  const judge = async (variantDir: string, r: VariantResult): Promise<{ verdict: MutantVerdict['verdict']; summary: string }> => {
    if (r.status === 'not-run') return { verdict: 'error', summary: `not run: ${firstLine(r.reason)}` };
    // No output to compare: undecided (left out of every score), not counted as a difference.
    if (r.status === 'timeout') return { verdict: 'error', summary: `timed out: ${firstLine(r.reason)}` };
    if (r.status === 'exception') return { verdict: 'killable', summary: `solve raised: ${firstLine(r.reason)}` };
    try {
      const cmp = await compareOutputs({ candidateDir: path.join(variantDir, 'out'), referenceDir: refDir, outDir: variantDir, execution: { status: 'ok' } });
      return { verdict: cmp.outcome.agree ? 'equivalent' : 'killable', summary: firstLine(cmp.outcome.summary, 500) };
    } catch (err) {
      return { verdict: 'error', summary: `comparison failed: ${firstLine((err as Error).message)}` };
    }
  };

  const g = await judge(goldDir, results[0]);
  const verdicts: MutantVerdict[] = [];
  for (const [i, m] of mutants.entries()) {
    const r = results[i + 1];
    verdicts.push({ ...m, ...(await judge(path.join(dir, m.id), r)), status: r.status });
  }
  const value: EquivalenceFile = {
    taskId,
    scale,
    goldSha,
    maxPerOperator,
    generatorSha: genSha,
    gold: { status: results[0].status, agree: g.verdict === 'equivalent', summary: g.summary },
    mutants: verdicts,
  };
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  fs.renameSync(tmp, file);
  return { ...value, dir };
}
