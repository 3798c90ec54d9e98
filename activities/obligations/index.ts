/**
 * Activities of the obligations group (exported to the worker): the executable labels of one
 * frozen run. They start JVMs (sandboxed pytest): register on the `lockin-spark` queue.
 */
import { ZodError } from 'zod';
import { InputError, nonRetryable } from '../common/errors';
import * as fs from 'fs';
import * as path from 'path';
import { scoredSuite } from '../../protocol/conditions';
import { executableLabels } from './labels';
import { studyLabellerAccuracy } from './studyAccuracy';
import { calibrateLabellers } from './calibration';
import { studyDir } from '../common/layout';
import { readStudyBasics, type StudyBasics } from '../store/manifest';
import { LabellerAccuracyFileSchema, LabellerCalibrationFileSchema } from '../../protocol/sideFiles';
import { noteProgress } from '../common/progressBeat';
import { sparkConcurrency } from '../common/sparkConcurrency';
import { resolveSparkMode } from '../common/sparkMode';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

/** study.json's tasks and Spark settings. @throws InputError (non-retryable) naming the file and field when it is missing or malformed. */
function studyBasicsOf(studyId: string): { dir: string; basics: StudyBasics } {
  try {
    const basics = readStudyBasics(studyId);
    return { dir: basics.sdir, basics };
  } catch (err) {
    throw err instanceof InputError ? nonRetryable(err) : err;
  }
}

/**
 * Activity (Spark queue): the labeller check of ONE task of the study (studyAccuracy.ts: the
 * acceptance tests on gold and on every violation at `scale`), stored in the per-task cache that
 * labellerAccuracy then reads. The mutation analysis queues one per task behind the mutation
 * tasks in the same lanes (workflows/mutation.ts), so the checks no longer run alone after every
 * lane has ended. Inputs: study id (for its Spark settings), task
 * id, scale. Returns whether the check was already cached. A task not in the study is an
 * InputError (non-retryable); a check that fails is thrown, and labellerAccuracy meets it again.
 */
export async function labellerCheckTask(req: ActivityInput<'labellerCheckTask'>): Promise<ActivityOutput<'labellerCheckTask'>> {
  const { basics } = studyBasicsOf(req.studyId);
  if (!basics.tasks.includes(req.taskId)) throw nonRetryable(new InputError(`task ${req.taskId} is not one of the study's tasks`, path.join(studyDir(req.studyId), 'study.json'), 'tasks'));
  let cached = false;
  await studyLabellerAccuracy({ tasks: [req.taskId], scale: req.scale, settings: basics.settings, concurrency: 1, onTask: (_t, c) => { cached = c; }, onProgress: (t, what) => noteProgress(`${t}: labeller check: ${what}`) });
  return { taskId: req.taskId, cached };
}

/**
 * Activity (Spark queue): the code labellers measured on gold and the obligation violations of
 * the study's tasks (studyAccuracy.ts), written to `runs/<id>/labeller-accuracy.json` for the
 * report. Inputs: the study id; `scale`, the database the violations are compared on (the
 * mutation analysis's equivalence scale). Returns the file and one line for the terminal.
 * Cached per task, so a resumed or second study reruns nothing whose forms did not change.
 * @throws InputError (non-retryable) when study.json is missing or malformed.
 */
export async function labellerAccuracy(req: ActivityInput<'labellerAccuracy'>): Promise<ActivityOutput<'labellerAccuracy'>> {
  const { dir, basics } = studyBasicsOf(req.studyId);
  const out = LabellerAccuracyFileSchema.parse(await studyLabellerAccuracy({ tasks: basics.tasks, scale: req.scale, settings: basics.settings, concurrency: sparkConcurrency(resolveSparkMode().mode).jobs }));
  const file = path.join(dir, 'labeller-accuracy.json');
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(out, null, 1));
  fs.renameSync(`${file}.tmp`, file);
  const checked = out.tasks.filter((t) => t.checked);
  const pct = (c: number, n: number) => (n ? `${((100 * c) / n).toFixed(1)}%` : '—');
  const by = out.labellers.map((l) => `${l.labeller} ${pct(l.correct, l.n)} of ${l.n}`).join(', ');
  return { file, line: `labellers on known truth (${checked.length} of ${out.tasks.length} tasks have executable forms; each labeller's labels on gold and the obligation violations that match the truth, of all it gave): ${by}` };
}

/**
 * Activity (Spark queue): the labellers measured on the realistic faults of the study's tasks
 * (calibration.ts; tasks/<id>/faults/), written to `runs/<id>/labeller-calibration.json` for the
 * report. Cached per task, so a resumed or second study reruns nothing whose files did not change.
 * Returns the file (null when no task of the study has faults) and one line for the terminal.
 * @throws InputError (non-retryable) when study.json is missing or malformed.
 */
export async function labellerCalibration(req: ActivityInput<'labellerCalibration'>): Promise<ActivityOutput<'labellerCalibration'>> {
  const { dir, basics } = studyBasicsOf(req.studyId);
  const out = LabellerCalibrationFileSchema.parse(await calibrateLabellers({ tasks: basics.tasks, settings: basics.settings, sparkMode: resolveSparkMode().mode, onProgress: (what) => noteProgress(`labellers on realistic faults: ${what}`) }));
  if (!out.tasks.length) return { file: null, line: 'labellers on realistic faults: none of the study\'s tasks has faults (tasks/<id>/faults/)' };
  const file = path.join(dir, 'labeller-calibration.json');
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(out, null, 1));
  fs.renameSync(`${file}.tmp`, file);
  const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);
  const by = out.labellers.map((l) => `${l.labeller} ${l.agree}/${l.n} ${pct(l.agreement.p)} [${pct(l.agreement.lower)}, ${pct(l.agreement.upper)}]`).join(', ');
  const faults = out.tasks.reduce((s, t) => s + t.faults.length, 0);
  return { file, line: `labellers on realistic faults (${faults} hand-labelled wrong program(s) of ${out.tasks.length} task(s); agreement with the hand labels, Wilson 95 %): ${by}` };
}

/**
 * Labels a frozen run's executable obligations (labels.ts) and writes
 * `<conditionDir>/executable-labels.json`, which labelObligations then reads. The test labels
 * measure the condition's scored suite (protocol/conditions.ts scoredSuite: contract_test.py for
 * Contract-First, docs/protocol.md §2; test_solution.py otherwise and when `condition` is absent,
 * as in histories from before it was passed).
 * Returns a small summary: the file and how many code and test labels it holds.
 */
export async function labelByExecution(req: ActivityInput<'labelByExecution'>): Promise<ActivityOutput<'labelByExecution'>> {
  try {
    const { condition, ...rest } = req;
    const { file, labels } = await executableLabels({ ...rest, suite: scoredSuite(condition ?? 'one-pass') });
    return { file, code: Object.keys(labels.code).length, test: Object.keys(labels.test).length, suitePassesGold: labels.suiteOnGold.passed };
  } catch (err) {
    if (err instanceof InputError) throw nonRetryable(err);
    if (err instanceof ZodError) throw nonRetryable(new InputError(`bad input: ${err.message}`, undefined, 'labelByExecution'));
    throw err;
  }
}
