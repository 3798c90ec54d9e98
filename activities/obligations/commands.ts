/**
 * Activities of `lockin obligations check` and `lockin obligations calibrate` (workflows/commands.ts
 * obligationsCheck, labellerCalibrationCheck): the checks the CLI ran in its own process before,
 * now steps of a workflow. Each writes its whole result to the file its input names (the CLI
 * reads it through activities/results) and returns a small summary. Progress lines go to the
 * worker's stderr, as the CLI printed them, and travel with the heartbeats
 * (common/progressBeat.ts), so a command whose workflow another process's worker runs prints them too.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';
import { startHeartbeat } from '../common/heartbeat';
import { noteProgress } from '../common/progressBeat';
import { checkTaskObligations, type TaskObligationsCheck } from './check';
import { calibrateLabellers } from './calibration';
import { mergeAccuracy, type LabellerAccuracy } from './accuracy';

/** The JSON document of a whole `lockin obligations check` (check.json; what `--json` prints). */
export interface ObligationsCheckDocument {
  scale: number;
  tasks: TaskObligationsCheck[];
  totals: ObligationsCheckTotals;
  labellers: LabellerAccuracy[];
}

/** The totals line of `lockin obligations check`. */
export interface ObligationsCheckTotals {
  tasks: number;
  tasksOk: number;
  obligations: number;
  executable: number;
  notExecutable: number;
  missing: number;
  incomplete: number;
  equivalent: number;
  failures: number;
  executableShare: number;
}

/** Prints a progress line on this worker's stderr and notes it for the heartbeat. */
function show(line: string): void {
  process.stderr.write(`${line}\n`);
  noteProgress(line);
}

/** Writes `value` as JSON (2-space indent) to `file`, atomically (temp file + rename). */
function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(value, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}

/**
 * Activity: one task of `lockin obligations check` (check.ts checkTaskObligations), written to
 * `outFile`. Progress: `[obligations] <task> (<n>/<count>, <s> s): <phase>`, a phase quiet for a
 * minute repeated with "still working", and `OK in … s` or `FAILED in … s` at the end.
 * Returns the task, whether it passed, and the file.
 */
export async function obligationsCheckTask(req: ActivityInput<'obligationsCheckTask'>): Promise<ActivityOutput<'obligationsCheckTask'>> {
  const since = (t: number) => `${((Date.now() - t) / 1000).toFixed(0)} s`;
  const t0 = Date.now();
  const beat = startHeartbeat((what) => show(`[obligations] ${req.taskId} (${req.index + 1}/${req.count}, ${since(req.startedAtMs)}): ${what}`));
  const r = await checkTaskObligations({
    taskId: req.taskId, scale: req.scale, settings: req.settings, root: req.root, skipReference: req.skipReference, swaps: req.swaps,
    onProgress: (what) => beat.say(what), ...(req.workDir ? { workDir: req.workDir } : {}),
  }).finally(() => beat.stop());
  beat.say(`${r.ok ? 'OK' : 'FAILED'} in ${since(t0)}`);
  beat.stop();
  writeJson(req.outFile, r);
  return { taskId: req.taskId, ok: r.ok, file: req.outFile };
}

/** The totals of a check over `results`. Pure. */
export function checkTotals(results: ReadonlyArray<TaskObligationsCheck>): ObligationsCheckTotals {
  const all = results.flatMap((r) => r.obligations);
  const count = (f: string) => all.filter((o) => o.form === f).length;
  return {
    tasks: results.length,
    tasksOk: results.filter((r) => r.ok).length,
    obligations: all.length,
    executable: count('executable'),
    notExecutable: count('not-executable'),
    missing: count('missing'),
    incomplete: count('incomplete'),
    equivalent: all.filter((o) => o.reference === 'equivalent').length,
    failures: all.reduce((s, o) => s + o.failures.length, 0) + results.reduce((s, r) => s + r.problems.length + r.goldFailures.length, 0),
    executableShare: all.length ? count('executable') / all.length : 0,
  };
}

/**
 * Activity: the end of `lockin obligations check`: the tasks' checks (`files`, in task order),
 * their totals and the labellers' merged accuracy (accuracy.ts mergeAccuracy) as one
 * ObligationsCheckDocument in `outFile`. Returns the file and whether every task passed.
 */
export async function obligationsCheckSummary(req: ActivityInput<'obligationsCheckSummary'>): Promise<ActivityOutput<'obligationsCheckSummary'>> {
  const results = req.files.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as TaskObligationsCheck);
  const doc: ObligationsCheckDocument = { scale: req.scale, tasks: results, totals: checkTotals(results), labellers: mergeAccuracy(results.map((r) => r.labellers)) };
  writeJson(req.outFile, doc);
  return { file: req.outFile, ok: results.every((r) => r.ok) };
}

/**
 * Activity: `lockin obligations calibrate`: the labellers on the realistic faults of `tasks`
 * (calibration.ts calibrateLabellers, cached per task), written to `outFile`. Progress:
 * `[calibrate] <phase>`. Returns the file and how many problems the tasks have.
 */
export async function calibrateOnFaults(req: ActivityInput<'calibrateOnFaults'>): Promise<ActivityOutput<'calibrateOnFaults'>> {
  const beat = startHeartbeat((what) => show(`[calibrate] ${what}`));
  const c = await calibrateLabellers({ tasks: req.tasks, settings: req.settings, root: req.root, onProgress: (w) => beat.say(w) }).finally(() => beat.stop());
  writeJson(req.outFile, c);
  return { file: req.outFile, problems: c.tasks.reduce((s, t) => s + t.problems.length, 0) };
}
