/**
 * Differential execution of a study's frozen candidate (docs/protocol.md §7
 * "Differential execution"): besides the study database, the candidate is executed on each
 * variant database built at the study's scale (`lockin data variants`) and compared with that
 * variant's reference by the primary comparator (docs/protocol.md §4). A run's *differential
 * reference agreement* holds when it agrees on the study database and on every variant whose
 * reference exists (a variant where the task's SQL fails, like q12 at SF=0.01, has nothing to
 * compare with and does not count).
 */
import * as fs from 'fs';
import * as path from 'path';
import type { DifferentialOutcome, DifferentialDatabase } from '../../protocol/records';
import { compareOutputs } from '../compare/activity';
import { executeCandidate } from '../execution/execute';
import { listVariants, variantReference, type VariantInfo } from './variants';
import { studyDir } from '../common/layout';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

export { differentialAgreement } from '../../protocol/differential';

/** Input of executeOnVariants. */
export type ExecuteOnVariantsInput = ActivityInput<'executeOnVariants'>;

/** One variant database as study.json records it when the study starts. */
export interface RecordedVariant {
  name: string;
  manifestHash: string;
}

/**
 * The variant set fixed when the study started: study.json's `variantDatabases` (written by
 * initStudy), or null for a study that recorded none (older studies: every variant found now).
 */
export function studyVariantSet(studyId: string): RecordedVariant[] | null {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(studyDir(studyId), 'study.json'), 'utf8')) as { variantDatabases?: RecordedVariant[] };
    return Array.isArray(m.variantDatabases) ? m.variantDatabases : null;
  } catch {
    return null;
  }
}

/**
 * The variants a run is executed on (docs/protocol.md §7): with a recorded set, exactly those,
 * each matched to the one found now; a recorded variant that is gone or was rebuilt since (other
 * manifest hash) is kept with the reason it cannot run, so every run of the study has the same
 * databases; variants built after the start are left out. Without a recorded set, every variant
 * found now (with references). Pure.
 */
export function variantsForRun(found: VariantInfo[], recorded: RecordedVariant[] | null): { variant: RecordedVariant; info: VariantInfo | null; why?: string }[] {
  const usable = found.filter((v) => v.references !== null);
  if (!recorded) return usable.map((v) => ({ variant: { name: v.name, manifestHash: v.manifestHash }, info: v }));
  return recorded.map((r) => {
    const v = usable.find((x) => x.name === r.name);
    if (!v) return { variant: r, info: null, why: `variant ${r.name}, recorded when the study started, has no database with references now` };
    if (v.manifestHash !== r.manifestHash) return { variant: r, info: null, why: `variant ${r.name} was rebuilt since the study started (manifest ${r.manifestHash.slice(0, 12)}, now ${v.manifestHash.slice(0, 12)})` };
    return { variant: r, info: v };
  });
}

/**
 * Activity: executes the frozen candidate on every variant database of the study (the set fixed
 * in study.json when it started, variantsForRun; older studies: every variant with references at
 * the study's scale) and compares each output with that variant's reference.
 * @returns {databases: [{database, manifestHash, verdict, summary}]} in listVariants order
 *   ([] when no variant was built: nothing recorded then).
 */
export async function executeOnVariants(input: ExecuteOnVariantsInput): Promise<ActivityOutput<'executeOnVariants'>> {
  const studyId = input.reuseScope; // the study: its study.json fixes the variant set (variantDatabases)
  const chosen = variantsForRun(listVariants(input.scale), studyId ? studyVariantSet(studyId) : null);
  const databases: DifferentialDatabase[] = [];
  for (const { variant, info: v, why } of chosen) {
    const base = { database: variant.name, manifestHash: variant.manifestHash };
    if (!v) {
      databases.push({ ...base, verdict: 'not-run', summary: why ?? 'not available' });
      continue;
    }
    const ref = variantReference(v, input.taskId);
    if (input.skip) {
      databases.push({ ...base, verdict: 'not-run', summary: 'the candidate did not execute ok on the study database' });
      continue;
    }
    if (ref.status === 'failed') {
      databases.push({ ...base, verdict: 'reference-failed', summary: `the reference SQL fails on this database: ${ref.error}` });
      continue;
    }
    if (ref.status === 'missing') {
      databases.push({ ...base, verdict: 'no-reference', summary: `no reference for ${input.taskId} on variant ${v.name}` });
      continue;
    }
    const outDir = path.join(input.outDir, 'variants', v.name);
    const exec = await executeCandidate({
      dir: input.dir, scale: input.scale, settings: input.settings, outDir, timeoutMs: input.timeoutMs, memoryMb: input.memoryMb, dbDir: v.dbDir,
      ...(input.reuseScope ? { reuseScope: input.reuseScope } : {}), ...(input.sparkMode ? { sparkMode: input.sparkMode } : {}),
    });
    if (exec.status !== 'ok') {
      databases.push({ ...base, verdict: 'execution-failed', summary: `${exec.status}: ${(exec.reason ?? '').split('\n')[0].slice(0, 300)}` });
      continue;
    }
    const cmp = await compareOutputs({ candidateDir: outDir, referenceDir: ref.dir, outDir, execution: { status: exec.status } });
    databases.push({ ...base, verdict: cmp.outcome.agree ? 'agree' : 'disagree', summary: cmp.outcome.summary });
  }
  const out: DifferentialOutcome = { databases };
  if (databases.length) {
    fs.mkdirSync(path.join(input.outDir, 'variants'), { recursive: true });
    fs.writeFileSync(path.join(input.outDir, 'variants', 'differential.json'), JSON.stringify(out, null, 2));
  }
  return out;
}
