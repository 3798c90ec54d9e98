/**
 * Pure layout rules shared by workflows, activities and the CLI: task keys, workflow ids and
 * the folders of a study's run tree, relative to the study folder. String operations only (no
 * Node built-ins), so workflows can use them; activities join them onto `runs/<study>/`.
 *
 *   tasks/<qid>[/replicate-<r>]/snapshot/            the shared initial generation
 *   tasks/<qid>[/replicate-<r>]/<condition>/         one folder per condition
 *   tasks/<qid>[/replicate-<r>]/evaluation/<cond>/   candidate output, comparison, labels
 *   records/<qid>[@r]--<condition>.json              one run record per (task, condition)
 */
import type { ConditionId } from './conditions';

/** Key of a task run in completedTasks, record names and progress: "q4" or "q4@r1". */
export function taskKey(taskId: string, replicate?: string): string {
  return replicate ? `${taskId}@${replicate}` : taskId;
}

/** Workflow id of a study: `study-<id>`. */
export function studyWorkflowId(studyId: string): string {
  return `study-${studyId}`;
}

/** Workflow id of one task of a study: `study-<id>/<qid>[/replicate-<r>]`. */
export function taskWorkflowId(studyWorkflow: string, taskId: string, replicate?: string): string {
  return `${studyWorkflow}/${taskId}${replicate ? `/replicate-${replicate}` : ''}`;
}

/** Workflow id of one condition of a task: `<task workflow id>/<condition>`. */
export function conditionWorkflowId(taskWorkflow: string, condition: ConditionId): string {
  return `${taskWorkflow}/${condition}`;
}

/** A task's folder relative to the study folder: `tasks/<qid>[/replicate-<r>]`. */
export function taskRelDir(taskId: string, replicate?: string): string {
  return replicate ? `tasks/${taskId}/replicate-${replicate}` : `tasks/${taskId}`;
}

/**
 * The evaluation folder of a condition, given the condition's folder (absolute or relative):
 * its sibling `evaluation/<condition>` (docs/protocol.md §4: evaluation starts only after
 * every condition has frozen, and never inside a condition's own folder).
 */
export function evaluationDir(conditionDir: string, condition: ConditionId): string {
  const parent = conditionDir.replace(/\/+$/, '').replace(/\/[^/]+$/, '');
  return `${parent}/evaluation/${condition}`;
}

/** Record file name of one (task, condition): `<qid>[@r]--<condition>.json`. */
export function recordFileName(taskId: string, condition: string, replicate?: string): string {
  return `${taskKey(taskId, replicate)}--${condition}.json`;
}

/** Workflow id of a study's evaluator checks (controls and SQL re-execution): `checks-<id>`. */
export function checksWorkflowId(studyId: string): string {
  return `checks-${studyId}`;
}

/** Workflow id of a study's mutation analysis: `mutation-<id>`. */
export function mutationWorkflowId(studyId: string): string {
  return `mutation-${studyId}`;
}
