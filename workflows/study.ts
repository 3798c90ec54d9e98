/**
 * runStudy: record the study manifest, fan out one runTask child per task and sample with
 * bounded concurrency (task runs already recorded are skipped on resume), run the targeted
 * replication if asked (Table VII), then collect the records and write the report.
 * Sample 1 keeps the child workflow id of studies recorded before `--samples`
 * (`study-<id>/<taskId>`); sample k ≥ 2 is `study-<id>/<taskId>/sample-<k>`.
 */
import { executeChild, deprecatePatch, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { StudyActivities } from '../protocol/activities';
import { LOCAL_STEP } from './options';
import { STATUS_KEY, STUDY_KEY, TASK_KEY } from '../protocol/searchAttributes';
import { runTask } from './task';
import { runModels } from './models';
import type { StudyInput, StudyProgress } from '../protocol/inputs';
import { progressQuery } from '../protocol/queries';
import { taskKey, taskWorkflowId } from '../protocol/layout';
import { recordingStatus } from './status';
import { rootCauseMessage } from './failures';

const local = proxyActivities<StudyActivities>(LOCAL_STEP);

export { progressQuery };

/**
 * The study's result: small whatever the study's size (a file reference, not every task's
 * summary, so the result payload stays far under Temporal's 2 MB; the runs are in records.jsonl).
 */
export interface StudyResult {
  studyId: string;
  reportDir: string | null;
  /** runs/<id>/records.jsonl: one RunRecord per task run × condition. */
  recordsFile: string | null;
  /** Task runs finished by this execution (skipped ones not counted) and their model calls. */
  tasksRun: number;
  callsUsed: number;
  /** Tasks whose workflow failed, with the cause (their records are missing from the report). */
  failed: { task: string; error: string }[];
}

export async function runStudy(input: StudyInput): Promise<StudyResult> {
  return recordingStatus(() => runStudySteps(input));
}

async function runStudySteps(input: StudyInput): Promise<StudyResult> {
  const progress: StudyProgress = {
    studyId: input.studyId,
    tasksTotal: input.tasks.length * Math.max(1, input.samples ?? 1) + (input.replicate?.tasks.length ?? 0),
    tasksDone: 0,
    tasksFailed: [],
    running: [],
    callsUsed: 0,
    step: 'recording the study manifest',
    startedAt: Date.now(),
  };
  setHandler(progressQuery, () => progress);
  // A model matrix: one sub-study per model (workflows/models.ts). Inputs without `models`
  // take the path below, unchanged, so their histories replay as before.
  if ((input.models?.length ?? 0) > 1) return runModels(input, progress);

  const manifest = await local.initStudy(input);
  const done = new Set(await local.completedTasks({ studyId: input.studyId }));
  // Calls of tasks finished by an earlier run count in the progress.
  if (done.size > 0) deprecatePatch('progress-counts-calls-of-skipped-tasks');
  const doneCalls = done.size > 0 ? await local.completedTaskCalls({ studyId: input.studyId }) : {};
  const samples = Array.from({ length: Math.max(1, input.samples ?? 1) }, (_, i) => i + 1);
  const jobs = [
    ...input.tasks.flatMap((taskId) => samples.map((sample) => ({ taskId, replicate: undefined as string | undefined, sample }))),
    ...(input.replicate?.tasks ?? []).map((taskId) => ({ taskId, replicate: input.replicate!.label, sample: 1 })),
  ];
  let tasksRun = 0;
  const failed: StudyResult['failed'] = [];
  progress.step = 'running tasks';

  const next = async (): Promise<void> => {
    for (let job = jobs.shift(); job; job = jobs.shift()) {
      const key = taskKey(job.taskId, job.replicate, job.sample);
      if (done.has(key)) {
        progress.tasksDone += 1;
        progress.callsUsed += doneCalls[key] ?? 0;
        continue;
      }
      progress.running.push(key);
      try {
        const summary = await executeChild(runTask, {
          args: [{ study: input, manifest, taskId: job.taskId, replicate: job.replicate, ...(job.sample > 1 ? { sample: job.sample } : {}) }],
          workflowId: taskWorkflowId(workflowInfo().workflowId, job.taskId, job.replicate, job.sample),
          typedSearchAttributes: [
            { key: STUDY_KEY, value: input.studyId },
            { key: TASK_KEY, value: job.taskId },
            { key: STATUS_KEY, value: 'running' },
          ],
        });
        tasksRun += 1;
        progress.callsUsed += summary.callsUsed;
        // A condition that failed while its siblings finished (workflows/task.ts): the task's
        // other records stand; the failed condition is named with its cause.
        for (const f of summary.failedConditions ?? []) {
          progress.tasksFailed.push(`${key}/${f.condition}`);
          failed.push({ task: `${key}/${f.condition}`, error: f.error });
        }
      } catch (err) {
        progress.tasksFailed.push(key);
        failed.push({ task: key, error: rootCauseMessage(err) });
      } finally {
        progress.running = progress.running.filter((k) => k !== key);
        progress.tasksDone += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, input.taskConcurrency) }, () => next()));

  progress.step = 'writing the report';
  const finished = await local.finishStudy({ studyId: input.studyId, report: input.report, failed });
  progress.step = progress.tasksFailed.length ? `finished with ${progress.tasksFailed.length} failed task(s)` : 'finished';
  return { studyId: input.studyId, reportDir: finished.reportDir, recordsFile: finished.recordsFile ?? null, tasksRun, callsUsed: progress.callsUsed, failed };
}
