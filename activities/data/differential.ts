/**
 * Differential execution of a study's frozen candidate (issue 23; docs/protocol.md §7
 * "Differential execution"): besides the study database, the candidate is executed on each
 * variant database built at the study's scale (`lockin data variants`) and compared with that
 * variant's reference by the primary comparator (docs/protocol.md §4). A run's *differential
 * reference agreement* holds when it agrees on the study database and on every variant whose
 * reference exists (a variant where the task's SQL fails, like q12 at SF=0.01, has nothing to
 * compare with and does not count).
 */
import * as fs from 'fs';
import * as path from 'path';
import type { SparkMode, SparkSettings } from '../../protocol/settings';
import type { DifferentialOutcome, DifferentialDatabase } from '../../protocol/records';
import { compareOutputs } from '../compare/activity';
import { executeCandidate } from '../execution/execute';
import { listVariants, variantReference } from './variants';

export { differentialAgreement } from '../../protocol/differential';

/** Input of executeOnVariants. */
export interface ExecuteOnVariantsInput {
  taskId: string;
  /** The frozen candidate's folder (solution.py). */
  dir: string;
  scale: number;
  settings: SparkSettings;
  /** The run's evaluation folder: outputs go to `<outDir>/variants/<variant>/`, the outcome to `<outDir>/variants/differential.json`. */
  outDir: string;
  timeoutMs: number;
  memoryMb: number;
  reuseScope?: string;
  sparkMode?: SparkMode;
  /** The candidate did not execute ok on the study database: every variant is `not-run`. */
  skip?: boolean;
}

/**
 * Activity: executes the frozen candidate on every variant database with references at the
 * study's scale and compares each output with that variant's reference.
 * @returns {databases: [{database, manifestHash, verdict, summary}]} in listVariants order
 *   ([] when no variant was built: nothing recorded then).
 */
export async function executeOnVariants(input: ExecuteOnVariantsInput): Promise<DifferentialOutcome> {
  const variants = listVariants(input.scale).filter((v) => v.references !== null);
  const databases: DifferentialDatabase[] = [];
  for (const v of variants) {
    const base = { database: v.name, manifestHash: v.manifestHash };
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
