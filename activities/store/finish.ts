/** The end of a study: records.jsonl, then the report. */
import { writeReport } from '../report/writeReport';
import { writeRecordsJsonl } from './records';

/**
 * Activity: gathers the run records into runs/<id>/records.jsonl and writes the report
 * (runs/<id>/report/). @returns the report directory (null when `report` is false) and the record count.
 */
export async function finishStudy(req: { studyId: string; report?: boolean }): Promise<{ reportDir: string | null; records: number }> {
  const records = writeRecordsJsonl(req.studyId);
  if (req.report === false || records === 0) return { reportDir: null, records };
  const res = await writeReport({ studyId: req.studyId });
  return { reportDir: res.reportDir, records };
}
