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
import { REFERENCE_INVENTORY } from '../tasks/schema';
import { checkScale, runDataScript, scaleArg, settingsArg, testsJar } from './run';
import { BuildResult, GoldenResult, ReproduceResult } from '../../protocol/data';

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
export async function buildReferences(input: ReferencesInput): Promise<BuildResult> {
  return runDataScript('references.py', args('build', input), BuildResult);
}

/**
 * Re-executes each reference in a fresh Spark session and compares it with the stored reference
 * twice: in Python (schema + order-independent content hash, then a row diff) and with the study's
 * comparator (activities/compare, the primary reference-agreement verdict). Reproduced = both agree.
 * @returns {reproduced, total, results: [{id, reproduced, reason, seconds, comparator}]}.
 */
export async function reproduceReferences(input: ReferencesInput): Promise<ReproduceResult> {
  const outputs = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-reproduce-'));
  try {
    const res = await runDataScript('references.py', [...args('reproduce', input), '--outputs-dir', outputs], ReproduceResult);
    for (const r of res.results) {
      const candidateDir = path.join(outputs, r.id);
      if (!fs.existsSync(path.join(candidateDir, 'output.arrow'))) continue;
      const { outcome } = await compareOutputs({ candidateDir, referenceDir: path.join(referencesDir(input.scale), r.id), outDir: candidateDir });
      r.comparator = { agree: outcome.agree, summary: outcome.summary };
      if (r.reproduced && !outcome.agree) {
        r.reproduced = false;
        r.reason = `comparator: ${outcome.summary}`;
      }
    }
    res.reproduced = res.results.filter((r) => r.reproduced).length;
    return res;
  } finally {
    fs.rmSync(outputs, { recursive: true, force: true });
  }
}

/**
 * Compares each variant's result with Spark's golden answer (tpcds-query-results/v1_4/, strings
 * right-trimmed). Disagreements are findings, not failures.
 * @returns {agree, total, results: [{id, agree, difference, schemaMatches}]}.
 */
export async function compareGolden(input: ReferencesInput): Promise<GoldenResult> {
  return runDataScript('references.py', args('golden', input), GoldenResult);
}

/** Input of reexecuteReferences. */
export interface ReexecuteInput {
  scale: number;
  settings: SparkSettings;
  /** Where the result is recorded (runs/<study>/reproduce.json). */
  outFile: string;
}

/**
 * Activity: the SQL re-execution (docs/protocol.md §4; Table V's input), recorded in `outFile`
 * with the database's manifest hash. Skipped when `outFile` already records a re-execution on
 * this database, so a resumed main job does not redo it.
 * @returns reproduced/total and whether the result was recorded earlier.
 */
export async function reexecuteReferences(input: ReexecuteInput): Promise<{ reproduced: number; total: number; recordedEarlier: boolean }> {
  const manifest = path.join(databaseDir(input.scale), 'manifest.json');
  const dbHash: string | null = fs.existsSync(manifest) ? (JSON.parse(fs.readFileSync(manifest, 'utf8')).manifestHash ?? null) : null;
  const prior = fs.existsSync(input.outFile) ? JSON.parse(fs.readFileSync(input.outFile, 'utf8')) : null;
  if (prior && prior.databaseManifestHash === dbHash) return { reproduced: prior.reproduced, total: prior.total, recordedEarlier: true };
  const rep = await reproduceReferences({ scale: input.scale, settings: input.settings });
  fs.mkdirSync(path.dirname(input.outFile), { recursive: true });
  fs.writeFileSync(`${input.outFile}.tmp`, JSON.stringify({ ...rep, databaseManifestHash: dbHash }, null, 2));
  fs.renameSync(`${input.outFile}.tmp`, input.outFile);
  return { reproduced: rep.reproduced, total: rep.total, recordedEarlier: false };
}
