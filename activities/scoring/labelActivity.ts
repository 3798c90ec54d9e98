/**
 * The `labelObligations` activity: automated labels for one run, written to
 * `<conditionDir>/labels.json` (docs/protocol.md §5). Runs after the artifacts froze and the
 * candidate was executed and compared.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { ComparisonOutcome, ExecutionOutcome, ModelParams } from '../../protocol/types';
import { scoredSuite } from '../../protocol/conditions';
import { LabelsFile } from '../../protocol/labels';
import { autoLabels } from './autoLabels';
import { obtainJudge, judgeEvidence } from './judge';
import type { JudgeLabel } from './autoLabels';
import { loadObligations, readArtifacts, readOutputSchema } from './corpusFiles';
import { STUDY_MODEL_PARAMS } from '../../protocol/settings';
import { readExecutableLabels } from '../obligations/labels';
import type { RunIdentity } from '../../protocol/run';

/**
 * The run to label (RunIdentity: a replicate's judge reply is looked up under replicate-<r>/, sample
 * k ≥ 2's is `judge/<condition>.s<k>.md`) and what labelling reads.
 */
export interface LabelObligationsInput extends RunIdentity {
  /** runs/<studyId>/tasks/<taskId>/<condition>/ with the frozen plan.md, solution.py, test_solution.py. */
  conditionDir: string;
  execution: ExecutionOutcome | null;
  comparison: ComparisonOutcome | null;
  /** The judge's model spec (e.g. "replay:lockin", "anthropic:claude-sonnet-4-6"); absent = heuristic only. */
  model?: string;
  params?: ModelParams;
  /** Folder holding <taskId>/obligations.yaml (default: tasksRoot()). */
  tasksDir?: string;
  /**
   * The judge's reply when the workflow obtained it itself (a `callModel` on the model queue,
   * workflows/evaluation.ts): its labels (null: none usable), call file and error. Given, no
   * judge is called here; absent, the judge is obtained in-process as before (`model`).
   */
  judged?: { labels: JudgeLabel[] | null; callFile?: string; error?: string };
}

export interface LabelObligationsResult {
  labelsFile: string;
  method: 'judge' | 'heuristic';
  obligations: number;
  /** Why the judge was not used, when it was asked for and unavailable. */
  judgeError?: string;
}


/**
 * Labels every obligation of one run and writes `<conditionDir>/labels.json` (LabelsFile).
 * Output: the file path, the method used ('judge' when a judge reply was available, else
 * 'heuristic'), the obligation count and any judge error.
 * @throws InputError for a bad obligations.yaml or schema.json.
 */
export async function labelObligations(input: LabelObligationsInput): Promise<LabelObligationsResult> {
  const obligations = loadObligations(input.taskId, input.tasksDir);
  // The test dimension is the scored suite's: contract_test.py for Contract-First (docs/protocol.md §2).
  const artifacts = readArtifacts(input.conditionDir, scoredSuite(input.condition));
  const executed = input.execution?.status === 'ok';
  const outputSchema = executed ? readOutputSchema(input.execution?.schemaFile) : null;
  const comparison = input.comparison ? { agree: input.comparison.agree, categories: input.comparison.categories } : null;
  let judge: Awaited<ReturnType<typeof obtainJudge>> = input.judged ?? { labels: null };
  if (!input.judged && input.model) {
    judge = await obtainJudge({
      studyId: input.studyId,
      taskId: input.taskId,
      condition: input.condition,
      conditionDir: input.conditionDir,
      replicate: input.replicate,
      sample: input.sample,
      model: input.model,
      params: input.params ?? STUDY_MODEL_PARAMS,
      evidence: judgeEvidence(obligations, input.execution, outputSchema, input.comparison),
    });
  }
  // Executable labels, when the executableLabels activity ran for this run (Spark queue).
  const executable = readExecutableLabels(input.conditionDir);
  const labels = autoLabels({ obligations, artifacts, executed, outputSchema, comparison, judge: judge.labels, executable });
  const file: LabelsFile = LabelsFile.parse({
    schemaVersion: 1,
    studyId: input.studyId,
    taskId: input.taskId,
    condition: input.condition,
    method: judge.labels ? 'judge' : 'heuristic',
    ...(judge.callFile ? { judgeCallFile: judge.callFile } : {}),
    labels,
  });
  const labelsFile = path.join(input.conditionDir, 'labels.json');
  fs.writeFileSync(labelsFile, JSON.stringify(file, null, 2) + '\n');
  return { labelsFile, method: file.method, obligations: labels.length, ...(judge.error ? { judgeError: judge.error } : {}) };
}
