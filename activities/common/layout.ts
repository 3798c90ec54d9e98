/**
 * The readable run tree of a study:
 *   runs/<study>/study.json                         the study manifest (frozen inputs)
 *   runs/<study>/tasks/<taskId>/snapshot/              the shared initial generation
 *   runs/<study>/tasks/<taskId>/<condition>/           one directory per condition
 *   runs/<study>/tasks/<taskId>/evaluation/<condition> candidate output, comparison, labels
 *   runs/<study>/tasks/<taskId>/replicate-<r>/…        the same for a targeted replication
 *   runs/<study>/tasks/<taskId>[/replicate-<r>]/sample-<k>/…  the same for sample k ≥ 2 (`--samples`);
 *                                                   sample 1 keeps the layout above (older studies read as is)
 *   runs/<study>/records/<taskId>[@r][~s<k>]--<condition>.json and records.jsonl
 *   runs/<study>/report/
 */
import * as path from 'path';
import { runsRoot } from './paths';
import { taskKey, taskRelDir } from '../../protocol/layout';

export function studyDir(studyId: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(studyId)) throw new Error(`study id "${studyId}" may only use letters, digits, '.', '_' and '-'`);
  return path.join(runsRoot(), studyId);
}

/**
 * The directory of one task run (its snapshot, conditions and evaluation; protocol/layout.ts).
 * @param sample 1-based sample index; 1 or absent = the task directory itself (the layout of
 *   studies recorded before `--samples`), k ≥ 2 = `sample-<k>/` inside it.
 */
export function taskDir(studyId: string, taskId: string, replicate?: string, sample?: number): string {
  return path.join(studyDir(studyId), taskRelDir(taskId, replicate, sample));
}

export { taskKey };

export function recordsDir(studyId: string): string {
  return path.join(studyDir(studyId), 'records');
}

/** The folder of a report's Inspect AI eval logs: `<reportDir>/logs` (activities/report/inspect/writeLogs.ts writes it; `lockin view` serves it). */
export function inspectLogDir(reportDir: string): string {
  return path.join(reportDir, 'logs');
}
