/** The end of a study: records.jsonl, then the report (when the report module is present). */
import { writeRecordsJsonl } from './records';

/** Report writer hook: set by the report module (activities/report) at load time. */
let reportWriter: ((studyId: string) => Promise<string>) | null = null;

/** Registers the function that writes runs/<id>/report/ and returns its path. */
export function setReportWriter(fn: (studyId: string) => Promise<string>): void {
  reportWriter = fn;
}

/**
 * Activity: gathers the run records into runs/<id>/records.jsonl and writes the report.
 * @returns the report directory (null when no report writer is registered) and the record count.
 */
export async function finishStudy(req: { studyId: string; report?: boolean }): Promise<{ reportDir: string | null; records: number }> {
  const records = writeRecordsJsonl(req.studyId);
  const reportDir = reportWriter && req.report !== false ? await reportWriter(req.studyId) : null;
  return { reportDir, records };
}
