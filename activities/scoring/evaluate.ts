/**
 * Evaluation of one frozen run (docs/protocol.md §4–5): reference agreement of the candidate
 * output (with the robustness analyses), then the automated obligation labels.
 */
import * as path from 'path';
import { compareWithReference } from '../compare/activity';
import { labelObligations } from './labelActivity';
import { judgeEvidence, judgeFromResult, judgeStageRequest } from './judge';
import { loadObligations, readOutputSchema } from './corpusFiles';
import { STUDY_MODEL_PARAMS } from '../../protocol/settings';
import { referencesDir } from '../common/paths';
import { InputError, nonRetryable } from '../common/errors';
import { loadEvaluationSpec } from '../tasks/evaluation';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';
import { evaluationDir } from '../../protocol/layout';

/** The input of evaluateRun as its contract declares it (protocol/activities.ts). */
export type EvaluateRunRequest = ActivityInput<'evaluateRun'>;

/**
 * Task-specific key columns for the key-aligned tolerance comparison, from the optional
 * `tasks/<taskId>/evaluation.yaml` (activities/tasks/evaluation.ts); undefined when the task has
 * none, [] when the whole output is one key group.
 * @throws TaskLoadError naming the file and field when the file is invalid
 */
export function robustnessKeys(taskId: string): string[] | undefined {
  return loadEvaluationSpec(taskId)?.keys;
}

/**
 * Activity: compares the candidate output in `<conditionDir>/../evaluation/<condition>/` with
 * the reference of the task at the study's scale, writes comparison.json there, then labels the
 * obligations. @returns the small ComparisonOutcome.
 */
export async function evaluateRun(req: EvaluateRunRequest): Promise<ActivityOutput<'evaluateRun'>> {
  const evalDir = evaluationDir(req.conditionDir, req.condition);
  let keys: string[] | undefined;
  try {
    keys = robustnessKeys(req.taskId);
  } catch (e) {
    if (e instanceof InputError) throw nonRetryable(e); // a bad evaluation.yaml: retrying cannot help
    throw e;
  }
  const comparison = await compareWithReference({
    candidateDir: evalDir,
    referenceDir: path.join(referencesDir(req.scale), req.taskId),
    keys,
    outDir: evalDir,
    execution: { status: req.execution.status, reason: req.execution.reason },
  });
  if (req.labels === false) return comparison;
  await labelObligations({
    studyId: req.studyId,
    taskId: req.taskId,
    condition: req.condition,
    conditionDir: req.conditionDir,
    replicate: req.replicate,
    sample: req.sample,
    execution: req.execution,
    comparison,
    model: req.model,
    params: req.params,
  });
  return comparison;
}

/**
 * Activity: the judge call of one evaluated run (docs/protocol.md §5), for the workflow to send
 * through `callModel` on the model queue: writes `<conditionDir>/judge-input.json` (the evidence
 * of scoring/judge.ts judgeEvidence) and returns the StageRequest, or null when there is no judge
 * (no model, or a replay corpus without the run's judge file: labels fall back to the heuristic).
 */
export async function judgeRequest(req: ActivityInput<'judgeRequest'>): Promise<ActivityOutput<'judgeRequest'>> {
  if (!req.model) return null;
  const obligations = loadObligations(req.taskId);
  const schema = req.execution.status === 'ok' ? readOutputSchema(req.execution.schemaFile) : null;
  return judgeStageRequest({
    studyId: req.studyId, taskId: req.taskId, condition: req.condition, conditionDir: req.conditionDir, replicate: req.replicate, sample: req.sample,
    model: req.model, params: req.params ?? STUDY_MODEL_PARAMS, evidence: judgeEvidence(obligations, req.execution, schema, req.comparison),
  });
}

/**
 * Activity: labels one run's obligations (scoring/labelActivity.ts) with the judge's reply the
 * workflow obtained (`judged`: the callModel result, null when there was no judge call), the
 * executable labels and the documented heuristic; writes `<conditionDir>/labels.json`.
 * @returns the labelling method and the obligation count.
 */
export async function labelRun(req: ActivityInput<'labelRun'>): Promise<ActivityOutput<'labelRun'>> {
  const r = await labelObligations({
    studyId: req.studyId, taskId: req.taskId, condition: req.condition, conditionDir: req.conditionDir, replicate: req.replicate, sample: req.sample,
    execution: req.execution, comparison: req.comparison, judged: req.judged ? judgeFromResult(req.judged) : { labels: null },
  });
  return { method: r.method, obligations: r.obligations, ...(r.judgeError ? { judgeError: r.judgeError } : {}) };
}
