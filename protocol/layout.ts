/**
 * Pure layout rules shared by workflows, activities and the CLI: task keys, workflow ids and
 * the folders of a study's run tree, relative to the study folder. String operations only (no
 * Node built-ins), so workflows can use them; activities join them onto `runs/<study>/`.
 *
 *   tasks/<taskId>[/replicate-<r>]/snapshot/            the shared initial generation
 *   tasks/<taskId>[/replicate-<r>]/<condition>/         one folder per condition
 *   tasks/<taskId>[/replicate-<r>]/evaluation/<cond>/   candidate output, comparison, labels
 *   tasks/<taskId>[/replicate-<r>]/sample-<k>/…         the same for sample k ≥ 2 (`--samples`);
 *                                                    sample 1 keeps the layout above
 *   records/<taskId>[@r][~s<k>]--<condition>.json       one run record per (task, sample, condition)
 * Sample 1 has no suffix anywhere, so studies recorded before `--samples` read as they are.
 */
import type { ConditionId } from './conditions';
import type { RunIdentity } from './run';

/**
 * Key of a task run in completedTasks, record names and progress: "q4", "q4@r1" (a targeted
 * replication), "q4~s2" (sample 2), "q4@r1~s2". @param sample 1-based; absent or 1 = no suffix.
 */
export function taskKey(taskId: string, replicate?: string, sample?: number): string {
  return `${taskId}${replicate ? `@${replicate}` : ''}${sample && sample > 1 ? `~s${sample}` : ''}`;
}

/**
 * The id of one model's sub-study in a model matrix (`--models a,b`): `<studyId>--<slug>`, the
 * slug being the spec with every character outside [A-Za-z0-9._-] replaced by '-'
 * ("replay:lockin" → "replay-lockin", "openai:Qwen/Qwen2.5" → "openai-Qwen-Qwen2.5").
 */
export function modelStudyId(studyId: string, model: string): string {
  return `${studyId}--${model.replace(/[^A-Za-z0-9._-]+/g, '-')}`;
}

/** Workflow id of a study: `study-<id>`. */
export function studyWorkflowId(studyId: string): string {
  return `study-${studyId}`;
}

/** Workflow id of one task run of a study: `study-<id>/<taskId>[/replicate-<r>][/sample-<k>]` (no suffix for sample 1). */
export function taskWorkflowId(studyWorkflow: string, taskId: string, replicate?: string, sample?: number): string {
  return `${studyWorkflow}/${taskId}${replicate ? `/replicate-${replicate}` : ''}${sample && sample > 1 ? `/sample-${sample}` : ''}`;
}

/** Workflow id of one condition of a task: `<task workflow id>/<condition>`. */
export function conditionWorkflowId(taskWorkflow: string, condition: ConditionId): string {
  return `${taskWorkflow}/${condition}`;
}

/** A task run's folder relative to the study folder: `tasks/<taskId>[/replicate-<r>][/sample-<k>]` (no suffix for sample 1). */
export function taskRelDir(taskId: string, replicate?: string, sample?: number): string {
  const run = replicate ? `tasks/${taskId}/replicate-${replicate}` : `tasks/${taskId}`;
  return sample && sample > 1 ? `${run}/sample-${sample}` : run;
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

/**
 * A condition's folder relative to the study folder: `<taskRelDir>/<condition>` (condition
 * 'snapshot': the shared initial generation).
 */
export function conditionRelDir(run: Pick<RunIdentity<string>, 'taskId' | 'condition' | 'replicate' | 'sample'>): string {
  return `${taskRelDir(run.taskId, run.replicate, run.sample)}/${run.condition}`;
}

/** A model call's file relative to its work folder: `calls/NN-<stage>.json` (NN = callIndex, two digits). */
export function callRelPath(callIndex: number, stage: string): string {
  return `calls/${String(callIndex).padStart(2, '0')}-${stage}.json`;
}

/**
 * The files of one task's reference inside a references folder (`<home>/data/references/sf<S>`
 * or a variant's, activities/common/paths.ts): `<taskId>/reference.arrow`, the reference output,
 * and `<taskId>/schema.json`, its Spark schema (activities/python/references.py writes both).
 */
export function referenceRelPaths(taskId: string): { dir: string; data: string; schema: string } {
  return { dir: taskId, data: `${taskId}/reference.arrow`, schema: `${taskId}/schema.json` };
}

/** Record file name of one (task, sample, condition): `<taskId>[@r][~s<k>]--<condition>.json`. */
export function recordFileName(taskId: string, condition: string, replicate?: string, sample?: number): string {
  return `${taskKey(taskId, replicate, sample)}--${condition}.json`;
}

/** Workflow id of a study's evaluator checks (controls and SQL re-execution): `checks-<id>`. */
export function checksWorkflowId(studyId: string): string {
  return `checks-${studyId}`;
}

/** Workflow id of a study's mutation analysis: `mutation-<id>`. */
export function mutationWorkflowId(studyId: string): string {
  return `mutation-${studyId}`;
}

/** Workflow id of a study's main job (`npm run study`, `lockin study main`): `main-<id>`. */
export function mainJobWorkflowId(studyId: string): string {
  return `main-${studyId}`;
}

/** Workflow id of the database preparation at one scale: `lockin-prepare-sf<scale>` (`lockin-prepare-sf0.01`), shared by every study at that scale. */
export function prepareWorkflowId(scale: number): string {
  return `lockin-prepare-sf${scale}`;
}
