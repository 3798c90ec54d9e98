/**
 * Activities for the 33 reference outputs (docs/protocol.md §1 inventory; §4 SQL re-execution):
 * build them with the study's Spark settings, reproduce them in a fresh session, and compare them
 * with Spark's golden SF=1 answers in the tests jar.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compareOutputs } from '../compare/activity';
import { databaseDir, referencesDir } from '../common/paths';
import type { SparkSettings } from '../../protocol/settings';
import { REFERENCE_INVENTORY } from '../../protocol/corpus';
import { checkScale, runDataScript, scaleArg, settingsArg, testsJar } from './run';
import { BuildResult, GoldenResult, ReproduceResult } from '../../protocol/data';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

/** Input shared by the reference activities. */
export interface ReferencesInput {
  scale: number;
  settings: SparkSettings;
  /** Variant ids (default: REFERENCE_INVENTORY, the 33). */
  ids?: string[];
}

function args(cmd: string, input: ReferencesInput): string[] {
  checkScale(input.scale);
  const ids = input.ids?.length ? input.ids : [...REFERENCE_INVENTORY];
  return [cmd, '--scale', scaleArg(input.scale), '--settings', settingsArg(input.settings), '--ids', ids.join(','),
    '--db-dir', databaseDir(input.scale), '--refs-dir', referencesDir(input.scale), '--jar', testsJar()];
}

/**
 * Builds (or resumes) the references under `referencesDir(S)/<taskId>/` and `references.json`.
 * @returns built/skipped/failed ids, count stored, manifestHash, seconds per variant.
 */
export async function buildReferences(input: ActivityInput<'buildReferences'>): Promise<ActivityOutput<'buildReferences'>> {
  return runDataScript('references.py', args('build', input), BuildResult);
}

/** What reproduceReferences may resume from (reexecuteReferences passes it). */
export interface ReproduceResume {
  /**
   * A folder kept across attempts: `results.jsonl` (one line per finished variant, written by
   * references.py as it finishes) and `<id>/output.arrow` + schema.json per re-executed output.
   */
  dir: string;
  /** The database's manifest hash: lines recorded on another database are not reused. */
  manifestHash: string | null;
}

type ReexecutedRow = ReproduceResult['results'][number];

/** The finished variants recorded in `<dir>/results.jsonl` on this database (a torn last line is dropped). */
function finishedEarlier(resume: ReproduceResume): Map<string, ReexecutedRow & { querySource: string }> {
  const file = path.join(resume.dir, 'results.jsonl');
  const out = new Map<string, ReexecutedRow & { querySource: string }>();
  if (!fs.existsSync(file)) return out;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    let v: { id?: unknown; reproduced?: unknown; reason?: unknown; seconds?: unknown; querySource?: unknown; manifestHash?: unknown };
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (v.manifestHash !== resume.manifestHash || typeof v.id !== 'string' || typeof v.reproduced !== 'boolean') continue;
    out.set(v.id, { id: v.id, reproduced: v.reproduced, reason: String(v.reason ?? ''), seconds: Number(v.seconds ?? 0), querySource: String(v.querySource ?? '') });
  }
  return out;
}

/**
 * Re-executes each reference in a fresh Spark session and compares it with the stored reference
 * twice: in Python (schema + order-independent content hash, then a row diff) and with the study's
 * comparator (activities/compare, the primary reference-agreement verdict). Reproduced = both agree.
 * With `resume`, the variants already recorded in `resume.dir` on this database are not run again
 * (their recorded results and outputs are used; `resumed` counts them) and every variant finished
 * in this attempt is recorded there as it finishes.
 * @returns {reproduced, total, results: [{id, reproduced, reason, seconds, comparator}], resumed} in `ids` order.
 */
export async function reproduceReferences(input: ReferencesInput & { resume?: ReproduceResume }): Promise<ReproduceResult & { resumed: number }> {
  const outputs = input.resume?.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-reproduce-'));
  fs.mkdirSync(outputs, { recursive: true });
  const ids = input.ids?.length ? input.ids : [...REFERENCE_INVENTORY];
  const earlier = input.resume ? finishedEarlier(input.resume) : new Map<string, ReexecutedRow & { querySource: string }>();
  const todo = ids.filter((id) => !earlier.has(id));
  try {
    let querySource = [...earlier.values()][0]?.querySource ?? '';
    const fresh = new Map<string, ReexecutedRow>();
    if (todo.length > 0) {
      const resultsFile = path.join(outputs, 'results.jsonl');
      // Keep only the lines reused: a torn last line would otherwise swallow the next append.
      if (input.resume) fs.writeFileSync(resultsFile, [...earlier.values()].map((r) => `${JSON.stringify({ ...r, manifestHash: input.resume!.manifestHash })}\n`).join(''));
      const extra = input.resume ? ['--results-file', resultsFile] : [];
      const res = await runDataScript('references.py', [...args('reproduce', { ...input, ids: todo }), '--outputs-dir', outputs, ...extra], ReproduceResult);
      querySource = res.querySource;
      for (const r of res.results) fresh.set(r.id, r);
    }
    const results: ReexecutedRow[] = [];
    for (const id of ids) {
      const prior = earlier.get(id);
      const r: ReexecutedRow = prior ? { id, reproduced: prior.reproduced, reason: prior.reason, seconds: prior.seconds } : fresh.get(id)!;
      const candidateDir = path.join(outputs, r.id);
      if (fs.existsSync(path.join(candidateDir, 'output.arrow'))) {
        const { outcome } = await compareOutputs({ candidateDir, referenceDir: path.join(referencesDir(input.scale), r.id), outDir: candidateDir });
        r.comparator = { agree: outcome.agree, summary: outcome.summary };
        if (r.reproduced && !outcome.agree) {
          r.reproduced = false;
          r.reason = `comparator: ${outcome.summary}`;
        }
      }
      results.push(r);
    }
    return { scale: input.scale, reproduced: results.filter((r) => r.reproduced).length, total: results.length, querySource, results, resumed: ids.length - todo.length };
  } finally {
    if (!input.resume) fs.rmSync(outputs, { recursive: true, force: true });
  }
}

/**
 * Activity of `lockin data reproduce` (workflows/commands.ts referenceReproduction): every
 * reference re-executed in a fresh session and compared (reproduceReferences, in a temporary
 * folder removed afterwards; nothing recorded, `resumed` is 0).
 */
export async function reproduceReferencesOnce(req: ActivityInput<'reproduceReferences'>): Promise<ActivityOutput<'reproduceReferences'>> {
  return reproduceReferences({ scale: req.scale, settings: req.settings, ids: req.ids });
}

/**
 * Compares each variant's result with Spark's golden answer (tpcds-query-results/v1_4/, strings
 * right-trimmed). Disagreements are findings, not failures.
 * @returns {agree, total, results: [{id, agree, difference, schemaMatches}]}.
 */
export async function compareGolden(input: ActivityInput<'compareGolden'>): Promise<ActivityOutput<'compareGolden'>> {
  return runDataScript('references.py', args('golden', input), GoldenResult);
}

/** Input of reexecuteReferences. */
export type ReexecuteInput = ActivityInput<'reexecuteReferences'>;

/**
 * Activity: the SQL re-execution (docs/protocol.md §4; Table V's input), recorded in `outFile`
 * with the database's manifest hash. Skipped when `outFile` already records a re-execution on
 * this database, so a resumed main job does not redo it. An attempt cut short (the worker or
 * the main job's process killed) keeps each variant it finished in `<outFile>.partial/`; the next
 * attempt re-executes only the others (`resumed` says how many it took from there), and the
 * folder is removed once `outFile` is written.
 * @returns reproduced/total, whether the result was recorded earlier, and how many variants were resumed.
 */
export async function reexecuteReferences(input: ReexecuteInput): Promise<ActivityOutput<'reexecuteReferences'>> {
  const manifest = path.join(databaseDir(input.scale), 'manifest.json');
  const dbHash: string | null = fs.existsSync(manifest) ? (JSON.parse(fs.readFileSync(manifest, 'utf8')).manifestHash ?? null) : null;
  const prior = fs.existsSync(input.outFile) ? JSON.parse(fs.readFileSync(input.outFile, 'utf8')) : null;
  if (prior && prior.databaseManifestHash === dbHash) return { reproduced: prior.reproduced, total: prior.total, recordedEarlier: true, resumed: 0 };
  const partial = `${input.outFile}.partial`;
  const rep = await reproduceReferences({ scale: input.scale, settings: input.settings, ids: input.ids, resume: { dir: partial, manifestHash: dbHash } });
  const { resumed, ...recorded } = rep;
  fs.mkdirSync(path.dirname(input.outFile), { recursive: true });
  fs.writeFileSync(`${input.outFile}.tmp`, JSON.stringify({ ...recorded, databaseManifestHash: dbHash }, null, 2));
  fs.renameSync(`${input.outFile}.tmp`, input.outFile);
  fs.rmSync(partial, { recursive: true, force: true });
  return { reproduced: rep.reproduced, total: rep.total, recordedEarlier: false, resumed };
}
