/** The end of a study: records.jsonl, then the report. */
import { writeReport } from '../report/writeReport';
import * as path from 'path';
import { writeRecordsJsonl } from './records';
import { studyDir } from './layout';

/**
 * Activity: gathers the run records into runs/<id>/records.jsonl and writes the report
 * (runs/<id>/report/). @returns the report directory (null when `report` is false), the record
 * count and the path of records.jsonl.
 */
export async function finishStudy(req: { studyId: string; report?: boolean }): Promise<{ reportDir: string | null; records: number; recordsFile: string }> {
  const records = writeRecordsJsonl(req.studyId);
  const recordsFile = path.join(studyDir(req.studyId), 'records.jsonl');
  if (req.report === false || records === 0) return { reportDir: null, records, recordsFile };
  const res = await writeReport({ studyId: req.studyId });
  return { reportDir: res.reportDir, records, recordsFile };
}
