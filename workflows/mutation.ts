/**
 * mutationAnalysis: test-suite validity and mutation scores of a study (docs/protocol.md §7),
 * one activity per task (its mutants' equivalence verdicts, then its frozen suites against gold
 * and the non-equivalent mutants), two tasks at a time, then mutation.json and the report.
 * Every part is cached on disk, so a killed main job resumes here without redoing finished
 * tasks; the `mutationProgress` query gives the progress lines. Before the report, the code
 * labellers are measured on the gold solutions and obligation violations of the study's tasks
 * (labeller-accuracy.json, cached per task; docs/protocol.md §5): the tasks' checks queue in the
 * same lanes behind the mutation tasks, and the last step gathers them.
 */
import { deprecatePatch, patched, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { MutationActivities, MutationOptions } from '../protocol/activities';
import type { MutationProgress } from '../protocol/inputs';
import { mutationProgressQuery } from '../protocol/queries';
import { LOCAL_STEP, SPARK_LONG } from './options';
import { recordingStatus } from './status';
import { inLanes } from '../protocol/pool';

const local = proxyActivities<MutationActivities>(LOCAL_STEP);
const spark = proxyActivities<MutationActivities>(SPARK_LONG);
/** The in-lane labeller check: two attempts, as labellerAccuracy checks the task again after the lanes. */
const sparkCheck = proxyActivities<MutationActivities>({ ...SPARK_LONG, retry: { ...SPARK_LONG.retry, maximumAttempts: 2 } });

/** Input of mutationAnalysis. */
export interface MutationAnalysisInput extends MutationOptions {
  /** Only these tasks (default: every task with a record). */
  tasks?: string[];
  /** Tasks analysed at once (default 2). */
  concurrency?: number;
  /** Rewrite the report at the end (default true). */
  report?: boolean;
}

export async function mutationAnalysis(input: MutationAnalysisInput): Promise<string> {
  return recordingStatus(async () => {
    const progress: MutationProgress = { tasksTotal: 0, tasksDone: 0, lines: [], running: [] };
    setHandler(mutationProgressQuery, () => progress);
    const started = workflowInfo().runStartTime.getTime();
    const { studyId, equivalenceScale, confirmScale, maxPerOperator } = input;
    const queue = await local.mutationTasks({ studyId, tasks: input.tasks });
    progress.tasksTotal = queue.length;
    // The tasks' labeller checks (into labellerAccuracy's per-task cache) queue behind the
    // mutation tasks in the same lanes, so a lane that ends early takes a check and no core idles
    // while the checks run alone at the end (they are independent of the mutation work).
    deprecatePatch('labeller-checks-queued');
    const checkScale = equivalenceScale ?? 0.01;
    const work = [...queue.map((taskId) => ({ taskId, check: false })), ...queue.map((taskId) => ({ taskId, check: true }))];
    await inLanes(work, input.concurrency ?? 2, async ({ taskId, check }) => {
      if (check) {
        progress.checking = [...(progress.checking ?? []), taskId];
        try {
          await sparkCheck.labellerCheckTask({ studyId, taskId, scale: checkScale });
        } catch {
          // labellerAccuracy below checks the task again and reports the failure.
        }
        progress.checking = progress.checking.filter((t) => t !== taskId);
        progress.checksDone = (progress.checksDone ?? 0) + 1;
        return;
      }
      progress.running!.push(taskId);
      const done = await spark.mutationTask({ studyId, taskId, equivalenceScale, confirmScale, maxPerOperator });
      progress.running = progress.running!.filter((t) => t !== taskId);
      progress.tasksDone += 1;
      progress.lines.push(...done.lines.map((l) => `task ${progress.tasksDone} of ${progress.tasksTotal}: ${l}`));
    });
    // The labellers measured on known truth (gold and the violations).
    deprecatePatch('labeller-accuracy');
    try {
      const acc = await spark.labellerAccuracy({ studyId, scale: checkScale });
      progress.lines.push(acc.line);
    } catch (err) {
      // The report then has no labeller section; the mutation scores do not depend on it.
      progress.lines.push(`labellers on known truth: FAILED (${(err as Error).message.split('\n')[0]})`);
    }
    // The labellers on the realistic faults (hand-labelled whole wrong programs), beside the violations.
    if (patched('labeller-calibration')) {
      try {
        const cal = await spark.labellerCalibration({ studyId });
        progress.lines.push(cal.line);
      } catch (err) {
        progress.lines.push(`labellers on realistic faults: FAILED (${(err as Error).message.split('\n')[0]})`);
      }
    }
    const seconds = (Date.now() - started) / 1000;
    return spark.finishMutationAnalysis({ studyId, equivalenceScale, confirmScale, maxPerOperator, tasks: input.tasks, report: input.report, seconds });
  });
}
