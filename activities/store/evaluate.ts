/**
 * Evaluation of one frozen run (docs/protocol.md §4–5): reference agreement of the candidate
 * output (with the robustness analyses), then the automated obligation labels.
 */
import * as fs from 'fs';
import * as path from 'path';
import YAML from 'yaml';
import { compareWithReference } from '../compare/activity';
import { labelObligations } from '../scoring/labelActivity';
import { referencesDir, tasksRoot } from '../common/paths';
import type { ComparisonOutcome, ExecutionOutcome, ModelParams } from '../../protocol/types';
import type { ConditionId } from '../../protocol/conditions';
import { evaluationDir } from '../../protocol/layout';

export interface EvaluateRunRequest {
  studyId: string;
  taskId: string;
  condition: ConditionId;
  conditionDir: string;
  scale: number;
  execution: ExecutionOutcome;
  /** The targeted-replication label and the sample index (1-based) of the run: the judge reply is theirs. */
  replicate?: string;
  sample?: number;
  /** The judge's model (the study's model); labels fall back to the documented heuristic without a reply. */
  model?: string;
  params?: ModelParams;
}

/**
 * Task-specific key columns for the key-aligned tolerance comparison, from the optional
 * `tasks/<qid>/evaluation.yaml` (`keys: [a, b]`); undefined when the task has none.
 * (Kept out of task.yaml: it is evaluation configuration, never shown to the model.)
 */
export function robustnessKeys(taskId: string): string[] | undefined {
  const file = path.join(tasksRoot(), taskId, 'evaluation.yaml');
  if (!fs.existsSync(file)) return undefined;
  const doc = YAML.parse(fs.readFileSync(file, 'utf8')) as { keys?: string[] };
  return doc?.keys?.length ? doc.keys : undefined;
}

/**
 * Activity: compares the candidate output in `<conditionDir>/../evaluation/<condition>/` with
 * the reference of the task at the study's scale, writes comparison.json there, then labels the
 * obligations. @returns the small ComparisonOutcome.
 */
export async function evaluateRun(req: EvaluateRunRequest): Promise<ComparisonOutcome> {
  const evalDir = evaluationDir(req.conditionDir, req.condition);
  const comparison = await compareWithReference({
    candidateDir: evalDir,
    referenceDir: path.join(referencesDir(req.scale), req.taskId),
    keys: robustnessKeys(req.taskId),
    outDir: evalDir,
    execution: { status: req.execution.status, reason: req.execution.reason },
  });
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
