/**
 * Activities of the compare group: reference agreement for one candidate, and the evaluator
 * controls. They read files, call the pure comparator, write details JSON on disk and return
 * small summaries (README "Architecture": payloads carry paths, never tables).
 */
import * as fs from 'fs';
import * as path from 'path';
import { InputError, nonRetryable } from '../common/errors';
import { referencesDir } from '../common/paths';
import { ComparisonOutcome, ExecutionStatus } from '../../protocol/types';
import { REFERENCE_INVENTORY } from '../../protocol/corpus';
import { analyzeTables, ComparisonDetails, jsonReplacer } from './analyze';
import { ControlReference, controlsMarkdown, ControlsReport, runControls } from './controls';
import { loadOutputFiles, OutputFiles, resolveOutput } from './load';
import { Tolerance } from './tolerance';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

export { analyzeTables, jsonReplacer, type ComparisonDetails } from './analyze';

/** Input of compareWithReference. Give candidateDir, or outputFile (+ schemaFile). */
export interface CompareRequest {
  /** A folder with output.arrow (or .parquet) and schema.json, as candidate execution writes it. */
  candidateDir?: string;
  outputFile?: string;
  schemaFile?: string;
  /** A folder with reference.arrow (or .parquet) and schema.json. */
  referenceDir: string;
  /** Task-specific key columns: enables the key-aligned tolerance comparison ([] = the whole output is one key group). */
  keys?: string[];
  /** Tolerances for the key-aligned comparison (default: the paper's ladder). */
  tolerances?: Tolerance[];
  /** Where comparison.json is written. */
  outDir: string;
  /** The candidate execution's status: anything but 'ok' is a runtime failure, files are not read. */
  execution?: { status: ExecutionStatus; reason?: string };
}

/** Resolves the candidate files of a request. @throws InputError when neither form is given. */
function candidateFiles(req: CompareRequest): OutputFiles {
  if (req.outputFile) return { dataFile: path.resolve(req.outputFile), schemaFile: req.schemaFile ? path.resolve(req.schemaFile) : undefined };
  if (req.candidateDir) return resolveOutput(req.candidateDir);
  throw new InputError('give candidateDir or outputFile', undefined, 'candidate');
}

/**
 * Compares a candidate output with its reference (pure logic in compare/ladder/tolerance).
 * @returns the ComparisonOutcome; details in `<outDir>/comparison.json`
 * @throws InputError (file and field named) for missing or unreadable inputs
 */
export async function compareOutputs(req: CompareRequest): Promise<{ outcome: ComparisonOutcome; details: ComparisonDetails }> {
  const refFiles = resolveOutput(req.referenceDir);
  let details: ComparisonDetails;
  let outcome: ComparisonOutcome;
  if (req.execution && req.execution.status !== 'ok') {
    details = { candidate: null, reference: refFiles.dataFile, primary: null, runtime: req.execution, ladder: null, tolerance: null };
    outcome = {
      agree: false, categories: ['runtime'], primaryCategory: 'runtime',
      summary: `disagree [runtime]: candidate execution ${req.execution.status}${req.execution.reason ? `: ${req.execution.reason.slice(0, 300)}` : ''}`,
      ladderLevel: null, ...(req.keys ? { toleranceAgreement: null } : {}),
    };
  } else {
    const candidate = await loadOutputFiles(candidateFiles(req));
    const reference = await loadOutputFiles(refFiles);
    ({ outcome, details } = analyzeTables(candidate, reference, req.keys, req.tolerances));
  }
  fs.mkdirSync(req.outDir, { recursive: true });
  const detailsFile = path.join(req.outDir, 'comparison.json');
  fs.writeFileSync(detailsFile, `${JSON.stringify(details, jsonReplacer, 2)}\n`);
  return { outcome: { ...outcome, detailsFile }, details };
}

/**
 * Activity: reference agreement for one candidate (docs/protocol.md §4), plus the
 * normalization ladder and, when keys are given, the key-aligned tolerance comparison.
 * @returns a small ComparisonOutcome; the details are in `detailsFile`
 * @throws non-retryable ApplicationFailure for bad input (names the file)
 */
export async function compareWithReference(req: CompareRequest): Promise<ComparisonOutcome> {
  try {
    return (await compareOutputs(req)).outcome;
  } catch (e) {
    if (e instanceof InputError) throw nonRetryable(e);
    throw e;
  }
}

/**
 * Loads the reference inventory from a references folder (`<dir>/<taskId>/reference.arrow|.parquet`
 * + `schema.json`), each twice (the unchanged-load control compares two independent loads).
 * @returns the loaded references in inventory order and the taskIds that are missing
 * @throws InputError when the folder does not exist or a present reference is unreadable
 */
export async function loadReferenceInventory(dir: string, inventory: readonly string[] = REFERENCE_INVENTORY): Promise<{ references: ControlReference[]; missing: string[] }> {
  if (!fs.existsSync(dir)) throw new InputError('references folder not found (build the references first, e.g. `lockin data prepare --scale S`)', dir);
  const references: ControlReference[] = [];
  const missing: string[] = [];
  for (const taskId of inventory) {
    const qdir = path.join(dir, taskId);
    if (!fs.existsSync(qdir) || !['reference.arrow', 'reference.parquet'].some((n) => fs.existsSync(path.join(qdir, n)))) {
      missing.push(taskId);
      continue;
    }
    const files = resolveOutput(qdir);
    references.push({ taskId, table: await loadOutputFiles(files), reload: await loadOutputFiles(files) });
  }
  return { references, missing };
}

/** Input of runEvaluatorControls. */
export type ControlsRequest = ActivityInput<'runEvaluatorControls'>;

/**
 * Runs the evaluator controls (Table II) and writes `controls.json` and `controls.md` into outDir.
 * @returns the counts, whether all controls behaved as expected, and the two file paths
 * @throws InputError when the references folder is missing or a reference is unreadable
 */
export async function runControlsOnDisk(req: ControlsRequest): Promise<{ report: ControlsReport; controlsFile: string; markdownFile: string; referencesDir: string }> {
  const dir = req.referencesDir ?? referencesDir(req.scale ?? 1);
  const { references, missing } = await loadReferenceInventory(dir);
  if (references.length === 0) throw new InputError('no references found', dir);
  const report = runControls(references, missing);
  fs.mkdirSync(req.outDir, { recursive: true });
  const controlsFile = path.join(req.outDir, 'controls.json');
  const markdownFile = path.join(req.outDir, 'controls.md');
  fs.writeFileSync(controlsFile, `${JSON.stringify({ referencesDir: dir, scale: req.scale ?? null, missing, ...report }, jsonReplacer, 2)}\n`);
  fs.writeFileSync(markdownFile, controlsMarkdown(report, `Evaluator controls (Table II), ${path.basename(dir)}`));
  return { report, controlsFile, markdownFile, referencesDir: dir };
}

/**
 * Activity: the evaluator controls (Table II) through the production comparator.
 * @returns counts and file paths (small)
 */
export async function runEvaluatorControls(req: ControlsRequest): Promise<ActivityOutput<'runEvaluatorControls'>> {
  try {
    const { report, controlsFile, markdownFile } = await runControlsOnDisk(req);
    return { counts: report.counts, allAsExpected: report.allAsExpected, controlsFile, markdownFile };
  } catch (e) {
    if (e instanceof InputError) throw nonRetryable(e);
    throw e;
  }
}
