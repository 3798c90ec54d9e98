/**
 * Loading a finished study folder `runs/<studyId>/` for scoring and reporting:
 * study.json (the manifest), records.jsonl (one RunRecord per line), per run the automated
 * labels (`<conditionDir>/labels.json`) paired with the final labels (`labels/final.csv`,
 * default = automated), and the optional side files controls.json, reproduce.json,
 * mutation.json. Bad input raises an InputError naming the file and field.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { InputError } from '../common/errors';
import type { RunRecord } from '../../protocol/types';
import type { StudyFailure } from '../../protocol/inputs';
import { parseRunRecord } from '../../protocol/records';
import { studyConditions, type ConditionId } from '../../protocol/conditions';
import type { Obligation } from '../../protocol/corpus';
import { STUDY_TASKS } from '../../protocol/corpus';
import { LabelsFile, type FinalLabel } from '../../protocol/labels';
import { loadObligations } from './corpusFiles';
import { readFinalLabels, labelKey, mergeFinalLabel } from './finalLabels';
import { readRaters, ratersAgreed } from './raters';
import { labelObligations } from './labelActivity';

export { StudyManifest, type PairedLabel, type LoadedRun, type LoadedStudy } from './loadedStudy';
import { StudyManifest, type LoadedRun, type LoadedStudy } from './loadedStudy';
import { isReplaySpec } from '../../protocol/model';
import { conditionRelDir } from '../../protocol/layout';

const FailuresFile = z.object({ failed: z.array(z.object({ task: z.string().min(1), error: z.string() }).passthrough()) }).passthrough();

/**
 * runs/<id>/failures.json parsed: the task runs (`q4`) or conditions (`q4/contract-first`) that
 * failed, each with its root cause (activities/report/finishStudy.ts writeFailures). [] when absent.
 * @throws InputError naming the file and field when it is not JSON or not `{failed: [{task, error}]}`.
 */
export function readFailures(studyDir: string): StudyFailure[] {
  const file = path.join(studyDir, 'failures.json');
  if (!fs.existsSync(file)) return [];
  const r = FailuresFile.safeParse(readJson(file));
  if (!r.success) throw new InputError(r.error.issues[0].message, file, r.error.issues[0].path.join('.'));
  return r.data.failed.map((f) => ({ task: f.task, error: f.error }));
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new InputError(`not JSON: ${(e as Error).message}`, file);
  }
}

function readJsonIfExists(file: string): unknown | null {
  return fs.existsSync(file) ? readJson(file) : null;
}

/** Parses records.jsonl. @throws InputError naming the line and field of a bad record. */
export function parseRecords(text: string, file: string): RunRecord[] {
  return text
    .split('\n')
    .map((l, i) => [l.trim(), i + 1] as const)
    .filter(([l]) => l.length > 0)
    .map(([l, n]) => {
      let j: unknown;
      try {
        j = JSON.parse(l);
      } catch (e) {
        throw new InputError(`not JSON: ${(e as Error).message}`, file, `line ${n}`);
      }
      return parseRunRecord(j, { file, line: n });
    });
}

/**
 * The folder of one run record: its conditionDir (absolute, relative to the study folder, or
 * relative to the working directory), else the layout's tasks/<taskId>/[replicate-<r>/][sample-<n>/]<condition>.
 */
export function resolveDir(studyDir: string, rec: RunRecord): string {
  const cands = [path.isAbsolute(rec.conditionDir) ? rec.conditionDir : path.join(studyDir, rec.conditionDir), path.resolve(rec.conditionDir), layoutDir(studyDir, rec)];
  return cands.find((d) => fs.existsSync(d)) ?? cands[0];
}

/** The run's folder by the study layout alone (protocol/layout.ts conditionRelDir): <studyDir>/tasks/<taskId>/[replicate-<r>/][sample-<n>/]<condition> (n > 1). Pure. */
export function layoutDir(studyDir: string, rec: Pick<RunRecord, 'taskId' | 'condition' | 'replicate' | 'sample'>): string {
  return path.join(studyDir, conditionRelDir({ taskId: rec.taskId, condition: rec.condition, replicate: rec.replicate ?? undefined, sample: rec.sample }));
}

function sha256File(file: string): string | null {
  return fs.existsSync(file) ? crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex') : null;
}

function resolveRelative(studyDir: string, p: string | undefined): string | undefined {
  if (!p || path.isAbsolute(p)) return p;
  const a = path.join(studyDir, p);
  return fs.existsSync(a) ? a : path.resolve(p);
}

/**
 * Loads a finished study. When a run has no labels.json, automated labels are computed now
 * (judge reply from a replay corpus when the study's model is `replay:<corpus>` and the file
 * exists, else the documented heuristic) and written, and the run is marked labelledByReport.
 * @throws InputError for a missing/malformed study.json or records.jsonl, a labels.json that
 *   does not validate or misses an obligation.
 */
export async function loadStudy(studyDir: string, opts: { tasksDir?: string } = {}): Promise<LoadedStudy> {
  const manifestFile = path.join(studyDir, 'study.json');
  if (!fs.existsSync(manifestFile)) throw new InputError('study manifest not found', manifestFile);
  const m = StudyManifest.safeParse(readJson(manifestFile));
  if (!m.success) throw new InputError(m.error.issues[0].message, manifestFile, m.error.issues[0].path.join('.'));
  const manifest = m.data;
  const recordsFile = path.join(studyDir, 'records.jsonl');
  if (!fs.existsSync(recordsFile)) throw new InputError('run records not found', recordsFile);
  const records = parseRecords(fs.readFileSync(recordsFile, 'utf8'), recordsFile);
  const tasks = manifest.tasks && manifest.tasks.length > 0 ? manifest.tasks : [...STUDY_TASKS];
  const finals = readFinalLabels(studyDir);
  const raters = readRaters(studyDir);
  const usedFinals = new Set<string>();
  const unlabelled: string[] = [];
  const obligations = new Map<string, Obligation[]>();
  const obligationsOf = (t: string) => {
    if (!obligations.has(t)) obligations.set(t, loadObligations(t, opts.tasksDir));
    return obligations.get(t)!;
  };

  const loadRun = async (taskId: string, condition: ConditionId, rec: RunRecord | null): Promise<LoadedRun> => {
    const replicate = rec?.replicate ?? null;
    const base: LoadedRun = { taskId, condition, replicate, record: rec, conditionDir: null, labels: [], labelMethod: 'none', labelledByReport: false, testHash: null };
    if (!rec) return base;
    const dir = resolveDir(studyDir, rec);
    base.conditionDir = dir;
    base.testHash = rec.artifacts?.['test_solution.py'] ?? sha256File(path.join(dir, 'test_solution.py'));
    const obs = obligationsOf(taskId);
    const labelsPath = path.join(dir, 'labels.json');
    if (!fs.existsSync(labelsPath)) {
      if (!fs.existsSync(dir)) return base;
      const execution = rec.execution ? { ...rec.execution, schemaFile: resolveRelative(studyDir, rec.execution.schemaFile) } : null;
      await labelObligations({
        studyId: manifest.studyId,
        taskId,
        condition,
        conditionDir: dir,
        replicate: replicate ?? undefined,
        sample: rec.sample,
        execution,
        comparison: rec.comparison,
        model: isReplaySpec(manifest.model) ? manifest.model : undefined,
        tasksDir: opts.tasksDir,
      });
      base.labelledByReport = true;
    }
    const lf = LabelsFile.safeParse(readJson(labelsPath));
    if (!lf.success) throw new InputError(lf.error.issues[0].message, labelsPath, lf.error.issues[0].path.join('.'));
    base.labelMethod = lf.data.method;
    const byId = new Map(lf.data.labels.map((l) => [l.obligation, l]));
    // A run labelled before an obligation was added to the corpus (e.g. q3's O13, 2026-12-06)
    // has no label for it: its scores are over the obligations it was labelled on, and the report
    // names what is left out (LoadedStudy.unlabelled); a labels.json with a label for an obligation
    // the corpus does not have is an error.
    const unknown = lf.data.labels.filter((l) => !obs.some((o) => o.id === l.obligation));
    if (unknown.length) throw new InputError(`a label for obligation ${unknown[0].obligation}, which ${taskId} does not have`, labelsPath, 'labels');
    for (const o of obs) if (!byId.has(o.id)) unlabelled.push(`${taskId}/${condition}${replicate ? ` (replicate ${replicate})` : ''}: ${o.id}`);
    base.labels = obs.filter((o) => byId.has(o.id)).map((o) => {
      const a = byId.get(o.id)!;
      const key = labelKey(taskId, condition, o.id);
      const f = replicate ? undefined : finals.get(key);
      if (f) usedFinals.add(key);
      // docs/protocol.md §5 "Final labels": decided row, else the raters' agreed labels, else automated.
      const final: FinalLabel = mergeFinalLabel(a, f, replicate ? {} : ratersAgreed(raters, key));
      return { obligation: o, automated: a, final };
    });
    return base;
  };

  // The paper's tables read one run per task × condition: sample 1 of the primary runs.
  const primary = records.filter((r) => !r.replicate && (r.sample ?? 1) === 1);
  const runs: LoadedRun[] = [];
  // Exactly the study's conditions (study.json `conditions`); a declared one without a record is shown as missing.
  const conditions = studyConditions(manifest.conditions, records.map((r) => r.condition));
  for (const t of tasks)
    for (const c of conditions) {
      const matching = primary.filter((r) => r.taskId === t && r.condition === c);
      if (matching.length > 1) throw new InputError(`${matching.length} records for ${t} × ${c} (expected one)`, recordsFile, 'taskId/condition');
      runs.push(await loadRun(t, c, matching[0] ?? null));
    }
  const replicates: LoadedRun[] = [];
  for (const r of records.filter((x) => !!x.replicate && (x.sample ?? 1) === 1)) replicates.push(await loadRun(r.taskId, r.condition, r));
  return {
    records,
    studyDir,
    manifest,
    tasks,
    conditions,
    runs,
    replicates,
    obligations,
    controls: readJsonIfExists(path.join(studyDir, 'controls.json')),
    reproduce: readJsonIfExists(path.join(studyDir, 'reproduce.json')),
    mutation: readJsonIfExists(path.join(studyDir, 'mutation.json')),
    finalLabelsImported: finals.size,
    raterNames: [...raters.keys()],
    finalLabelsUnmatched: [...finals.keys()].filter((k) => !usedFinals.has(k)),
    unlabelled,
    failures: readFailures(studyDir),
  };
}
