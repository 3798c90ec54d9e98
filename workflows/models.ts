/**
 * runModels: a model matrix (`--models a,b,c`). One runStudy child per model, each a whole
 * study of its own (`study-<id>--<model slug>`: its own manifest, records, report and history,
 * so a model's histories do not grow with the number of models), all at once; then one
 * combined report over their records (a section per model, a between-model table).
 */
import { executeChild, proxyActivities } from '@temporalio/workflow';
import type { StudyActivities } from '../protocol/activities';
import type { StudyInput, StudyProgress } from '../protocol/inputs';
import { modelStudyId, studyWorkflowId } from '../protocol/layout';
import { STATUS_KEY, STUDY_KEY } from '../protocol/searchAttributes';
import { LOCAL_STEP } from './options';

const local = proxyActivities<StudyActivities>(LOCAL_STEP);

/** What runStudy returns (declared here too so that this file need not import study.ts). */
export interface MatrixResult {
  studyId: string;
  reportDir: string | null;
  recordsFile: null;
  tasksRun: number;
  callsUsed: number;
  failed: { task: string; error: string }[];
  /** The sub-study of each model. */
  studies: { model: string; studyId: string }[];
}

/**
 * Runs every model's sub-study and the combined report; `progress` counts finished models' tasks.
 * @param input a StudyInput with `models` (≥ 2 distinct specs).
 */
export async function runModels(input: StudyInput, progress: StudyProgress): Promise<MatrixResult> {
  const models = input.models ?? [input.model];
  const studies = models.map((model) => ({ model, studyId: modelStudyId(input.studyId, model) }));
  const perModel = input.tasks.length * Math.max(1, input.samples ?? 1) + (input.replicate?.tasks.length ?? 0);
  progress.tasksTotal = perModel * models.length;
  progress.step = `running ${models.length} models`;
  progress.running = studies.map((s) => s.studyId);
  const failed: MatrixResult['failed'] = [];
  let tasksRun = 0;
  await Promise.all(
    studies.map(async (s) => {
      try {
        const res = await executeChild('runStudy', {
          // Each model with its own generation settings (absent in inputs from before them: `params`).
          args: [{ ...input, studyId: s.studyId, model: s.model, models: undefined, params: input.modelParams?.[s.model] ?? input.params, modelParams: undefined }],
          workflowId: studyWorkflowId(s.studyId),
          typedSearchAttributes: [
            { key: STUDY_KEY, value: s.studyId },
            { key: STATUS_KEY, value: 'running' },
          ],
        });
        const r = res as { failed: { task: string; error: string }[]; tasksRun: number; callsUsed: number };
        tasksRun += r.tasksRun;
        progress.callsUsed += r.callsUsed;
        failed.push(...r.failed.map((f) => ({ task: `${s.model} ${f.task}`, error: f.error })));
      } catch (err) {
        failed.push({ task: `${s.model} (whole study)`, error: (err as Error).message });
      } finally {
        progress.tasksDone += perModel;
        progress.running = progress.running.filter((id) => id !== s.studyId);
      }
    }),
  );
  progress.step = 'writing the combined report';
  const finished = await local.finishModels({ studyId: input.studyId, studies, report: input.report });
  progress.step = failed.length ? `finished with ${failed.length} failed task(s)` : 'finished';
  return { studyId: input.studyId, reportDir: finished.reportDir, recordsFile: null, tasksRun, callsUsed: progress.callsUsed, failed, studies };
}
