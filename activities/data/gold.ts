/**
 * Gold check: runs every task's gold solution (tasks/<taskId>/gold/solution.py) on the study
 * database through the production path (execution: executeCandidate, sandboxed; comparison:
 * compareWithReference, the primary comparator of docs/protocol.md §4) and reports whether it
 * agrees with the stored reference. A reference-positive candidate per task proves the harness
 * end to end (issue "Gold solutions and replay corpora": 30/30 must agree).
 */
import * as fs from 'fs';
import * as path from 'path';
import { lockinHome, referencesDir, scaleTag, tasksRoot, referencePaths } from '../common/paths';
import { DEFAULT_SPARK_SETTINGS, type SparkSettings } from '../../protocol/settings';
import { compareOutputs } from '../compare/activity';
import { executeCandidate } from '../execution/execute';
import { listTaskIds } from '../tasks/load';

/** The verdict of one gold solution. */
export interface GoldVerdict {
  taskId: string;
  /** reference-failed: the task's SQL fails on that database (recorded by the reference builder, e.g. q12 at SF=0.01). */
  verdict: 'agree' | 'disagree' | 'execution-failed' | 'no-reference' | 'no-gold' | 'reference-failed';
  /** One line: the comparator's summary, the execution failure, or what is missing. */
  summary: string;
  rows?: number;
  durationMs?: number;
}

/** Where the gold check writes outputs: `<home>/gold-check/sf<S>/<taskId>/` (outside the repo). */
export function goldCheckDir(scale: number, taskId: string): string {
  return path.join(lockinHome(), 'gold-check', scaleTag(scale), taskId);
}

/**
 * The error recorded for `taskId` in `<refsDir>/references.json` failedVariants (its SQL failed on
 * that database), or null when none is recorded.
 */
export function failedReference(refsDir: string, taskId: string): string | null {
  try {
    const idx = JSON.parse(fs.readFileSync(path.join(refsDir, 'references.json'), 'utf8'));
    const f = idx?.failedVariants?.[taskId];
    return f ? String(f.error ?? 'failed') : null;
  } catch {
    return null;
  }
}

/**
 * Checks one task's gold solution at a scale.
 * Inputs: taskId; scale; Spark settings (passed explicitly to the candidate process); wall-clock
 * limit (ms) and memory headroom (MiB) of the sandboxed run.
 * Returns: the GoldVerdict. Never throws for candidate behaviour; InputError for bad settings.
 */
export async function checkGold(opts: {
  taskId: string;
  scale: number;
  settings?: SparkSettings;
  timeoutMs?: number;
  memoryMb?: number;
  root?: string;
  /** Another database than the study's (a variant): its folder, its references folder and the gold-check output folder. */
  database?: { dbDir: string; refsDir: string; outDir: string };
}): Promise<GoldVerdict> {
  const { taskId, scale } = opts;
  const goldDir = path.join(opts.root ?? tasksRoot(), taskId, 'gold');
  if (!fs.existsSync(path.join(goldDir, 'solution.py'))) return { taskId, verdict: 'no-gold', summary: `${goldDir}/solution.py missing` };
  const reference = referencePaths(opts.database?.refsDir ?? referencesDir(scale), taskId);
  const refDir = reference.dir;
  if (!fs.existsSync(reference.schema)) {
    const failed = failedReference(opts.database?.refsDir ?? referencesDir(scale), taskId);
    if (failed !== null) return { taskId, verdict: 'reference-failed', summary: `the reference SQL fails on this database: ${failed}` };
    return { taskId, verdict: 'no-reference', summary: `no reference at ${refDir} (build it: lockin data ${opts.database ? 'variants' : 'prepare'} --scale ${scale})` };
  }
  const outDir = opts.database?.outDir ?? goldCheckDir(scale, taskId);
  const exec = await executeCandidate({
    dir: goldDir,
    dbDir: opts.database?.dbDir,
    scale,
    settings: opts.settings ?? { ...DEFAULT_SPARK_SETTINGS, driverMemory: '3g' },
    outDir,
    timeoutMs: opts.timeoutMs ?? 20 * 60_000,
    memoryMb: opts.memoryMb ?? 2048,
  });
  if (exec.status !== 'ok')
    return { taskId, verdict: 'execution-failed', summary: `${exec.status}: ${(exec.reason ?? '').split('\n')[0].slice(0, 300)}`, durationMs: exec.durationMs };
  const cmp = await compareOutputs({ candidateDir: outDir, referenceDir: refDir, outDir, execution: { status: exec.status } });
  return { taskId, verdict: cmp.outcome.agree ? 'agree' : 'disagree', summary: cmp.outcome.summary, rows: exec.rows, durationMs: exec.durationMs };
}

/**
 * Checks the gold solutions of the given tasks (default: every task folder), one after another
 * (each run starts a JVM; the machine has 2 cores).
 * Returns: verdicts in task order; `onVerdict` is called as each one completes.
 */
export async function checkGoldAll(opts: {
  scale: number;
  ids?: string[];
  settings?: SparkSettings;
  timeoutMs?: number;
  onVerdict?: (v: GoldVerdict) => void;
}): Promise<GoldVerdict[]> {
  const ids = opts.ids && opts.ids.length > 0 ? opts.ids : listTaskIds();
  const out: GoldVerdict[] = [];
  for (const taskId of ids) {
    const v = await checkGold({ taskId, scale: opts.scale, settings: opts.settings, timeoutMs: opts.timeoutMs });
    out.push(v);
    opts.onVerdict?.(v);
  }
  return out;
}

/** The study database's label in the differential gold check (variants are labelled by name). */
export const STUDY_DATABASE = 'study';

/** One task's gold verdicts per database: `study` and each variant name. */
export interface DifferentialGoldRow {
  taskId: string;
  verdicts: Record<string, GoldVerdict>;
}

/**
 * Whether a gold verdict passes the gold check (differential execution): it agrees, or the task's reference
 * SQL fails on that database (nothing to compare; q12 at SF=0.01). Anything else fails.
 */
export function goldPasses(v: GoldVerdict): boolean {
  return v.verdict === 'agree' || v.verdict === 'reference-failed';
}

/** The short cell of the per-task x database table: agree, DISAGREE, ref SQL fails, exec FAILED, no ref, no gold. */
export function goldCell(v: GoldVerdict | undefined): string {
  if (!v) return '-';
  return { agree: 'agree', disagree: 'DISAGREE', 'execution-failed': 'exec FAILED', 'no-reference': 'no ref', 'no-gold': 'no gold', 'reference-failed': 'ref SQL fails' }[v.verdict];
}

/**
 * Runs every gold on the study database and on each variant database (docs/protocol.md §7
 * "Differential execution"), database by database (a warm Spark slot is kept per database).
 * Inputs: scale, ids (default every task folder), variants (listVariants(scale) records; each
 * with its references folder), settings, timeout; `onVerdict(database, verdict)` as each ends.
 * Returns: one row per task in task order with a verdict per database (`study` + variant names).
 */
export async function checkGoldDifferential(opts: {
  scale: number;
  ids?: string[];
  variants: Array<{ name: string; dbDir: string; refsDir: string }>;
  settings?: SparkSettings;
  timeoutMs?: number;
  onVerdict?: (database: string, v: GoldVerdict) => void;
  /** false: the variants only (the study database's column left out); default true. */
  includeStudy?: boolean;
}): Promise<DifferentialGoldRow[]> {
  const ids = opts.ids && opts.ids.length > 0 ? opts.ids : listTaskIds();
  const rows: DifferentialGoldRow[] = ids.map((taskId) => ({ taskId, verdicts: {} }));
  const databases: Array<{ name: string; database?: { dbDir: string; refsDir: string } }> = [...(opts.includeStudy === false ? [] : [{ name: STUDY_DATABASE }]), ...opts.variants.map((v) => ({ name: v.name, database: v }))];
  for (const db of databases) {
    for (const row of rows) {
      const database = db.database ? { ...db.database, outDir: path.join(lockinHome(), 'gold-check', scaleTag(opts.scale), `variant-${db.name}`, row.taskId) } : undefined;
      const v = await checkGold({ taskId: row.taskId, scale: opts.scale, settings: opts.settings, timeoutMs: opts.timeoutMs, database });
      row.verdicts[db.name] = v;
      opts.onVerdict?.(db.name, v);
    }
  }
  return rows;
}
