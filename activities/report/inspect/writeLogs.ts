/**
 * Writes a study's Inspect AI eval logs (spec.ts) with inspect_ai's own writer
 * (activities/python/inspect_logs.py, in the project's venv): `runs/<study>/report/logs/`, one
 * `.eval` file per model × condition, which `lockin view <study>` (`inspect view`) opens.
 */
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import type { ConditionId } from '../../../protocol/conditions';
import { runPythonJson } from '../../common/python';
import type { ConditionSummary, ScoredRun } from '../../scoring/analysis';
import type { LoadedStudy } from '../../scoring/study';
import { inspectSpec } from './spec';
import { inspectLogDir } from '../../common/layout';

export { inspectLogDir };

/** What became of a report's Inspect logs: written (how many logs and samples) or the error that stopped them. */
export type InspectLogsOutcome = { dir: string; logs: number; samples: number } | { dir: string; error: string };

const WrittenSchema = z.object({ written: z.array(z.object({ file: z.string(), samples: z.number() })) });

/**
 * Writes the logs of `study` into inspectLogDir(reportDir), replacing the `.eval` files written
 * before (a condition no longer in the study leaves no stale log). `created`: the logs' time
 * (ISO). Returns the files written with their sample counts.
 * @throws SubprocessError when inspect_logs.py fails (e.g. inspect_ai missing from the venv: `npm run setup`).
 */
export async function writeInspectLogs(study: LoadedStudy, scored: ScoredRun[], replicates: ScoredRun[], summary: Record<ConditionId, ConditionSummary>, reportDir: string, created = new Date().toISOString()): Promise<{ file: string; samples: number }[]> {
  const logDir = inspectLogDir(reportDir);
  fs.mkdirSync(logDir, { recursive: true });
  for (const f of fs.readdirSync(logDir)) if (f.endsWith('.eval')) fs.rmSync(path.join(logDir, f), { force: true });
  const specFile = path.join(reportDir, '.inspect-spec.json');
  fs.writeFileSync(specFile, JSON.stringify(inspectSpec(study, scored, replicates, summary, logDir, created)));
  try {
    return (await runPythonJson('inspect_logs.py', [specFile], WrittenSchema, { timeoutMs: 300_000 })).written;
  } finally {
    fs.rmSync(specFile, { force: true });
  }
}
