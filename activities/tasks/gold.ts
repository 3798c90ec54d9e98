/**
 * Gold check: runs every task's gold solution (tasks/<taskId>/gold/solution.py) on the study
 * database through the production path (execution: executeCandidate, sandboxed; comparison:
 * compareWithReference, the primary comparator of docs/protocol.md §4) and reports whether it
 * agrees with the stored reference. A reference-positive candidate per task proves the harness
 * end to end (issue "Gold solutions and replay corpora": 30/30 must agree).
 */
import * as fs from 'fs';
import * as path from 'path';
import { lockinHome, referencesDir, scaleTag, tasksRoot } from '../common/paths';
import { DEFAULT_SPARK_SETTINGS, type SparkSettings } from '../../protocol/settings';
import { compareOutputs } from '../compare/activity';
import { executeCandidate } from '../execution/execute';
import { listTaskIds } from './load';

/** The verdict of one gold solution. */
export interface GoldVerdict {
  taskId: string;
  verdict: 'agree' | 'disagree' | 'execution-failed' | 'no-reference' | 'no-gold';
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
 * Checks one task's gold solution at a scale.
 * Inputs: taskId; scale; Spark settings (passed explicitly to the candidate process); wall-clock
 * limit (ms) and memory headroom (MiB) of the sandboxed run.
 * Returns: the GoldVerdict. Never throws for candidate behaviour; InputError for bad settings.
 */
export async function checkGold(opts: { taskId: string; scale: number; settings?: SparkSettings; timeoutMs?: number; memoryMb?: number; root?: string }): Promise<GoldVerdict> {
  const { taskId, scale } = opts;
  const goldDir = path.join(opts.root ?? tasksRoot(), taskId, 'gold');
  if (!fs.existsSync(path.join(goldDir, 'solution.py'))) return { taskId, verdict: 'no-gold', summary: `${goldDir}/solution.py missing` };
  const refDir = path.join(referencesDir(scale), taskId);
  if (!fs.existsSync(path.join(refDir, 'schema.json')))
    return { taskId, verdict: 'no-reference', summary: `no reference at ${refDir} (build it: lockin data prepare --scale ${scale})` };
  const outDir = goldCheckDir(scale, taskId);
  const exec = await executeCandidate({
    dir: goldDir,
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
