/** The end of a study: records.jsonl, then the report. */
import { writeReport } from './writeReport';
import * as fs from 'fs';
import * as path from 'path';
import type { StudyFailure } from '../../protocol/inputs';
import { writeRecordsJsonl } from '../store/records';
import { studyDir } from '../common/layout';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

/**
 * Activity: gathers the run records into runs/<id>/records.jsonl, writes the runs that ended
 * without a record (`failed`, possibly empty) to runs/<id>/failures.json (replaced on every
 * finish: a resumed study reruns its failed tasks), and writes the report (runs/<id>/report/).
 * @returns the report directory (null when `report` is false), the record
 * count and the path of records.jsonl.
 */
export async function finishStudy(req: ActivityInput<'finishStudy'>): Promise<ActivityOutput<'finishStudy'>> {
  if (req.failed) writeFailures(req.studyId, req.failed);
  const records = writeRecordsJsonl(req.studyId);
  const recordsFile = path.join(studyDir(req.studyId), 'records.jsonl');
  if (req.report === false || records === 0) return { reportDir: null, records, recordsFile };
  const res = await writeReport({ studyId: req.studyId });
  return { reportDir: res.reportDir, records, recordsFile };
}

/** runs/<id>/failures.json: `{ failed: StudyFailure[] }`, written whole (temp file, then rename). */
export function writeFailures(studyId: string, failed: StudyFailure[]): string {
  const file = path.join(studyDir(studyId), 'failures.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ failed }, null, 1) + '\n');
  fs.renameSync(tmp, file);
  return file;
}
