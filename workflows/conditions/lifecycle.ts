/**
 * What every condition workflow does around its protocol: LockinStatus at the end, and (when
 * its task asks, ConditionInput.evaluation) the hand-over for evaluation: tell the task the
 * artifacts are frozen, wait until every condition of the task has frozen (docs/protocol.md
 * §3), evaluate, and record the outcome as search attributes of this workflow.
 */
import { condition, getExternalWorkflowHandle, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { ConditionInput, ConditionResult } from '../../protocol/inputs';
import { conditionFrozenSignal, evaluateSignal, phaseQuery } from '../../protocol/queries';
import { FALSE_PASS_KEY, MODEL_KEY, REFERENCE_AGREEMENT_KEY, TEST_PASSED_KEY } from '../../protocol/searchAttributes';
import { evaluateCondition } from '../evaluation';
import { recordingStatus } from '../status';

/**
 * A condition workflow's phases, in order (its `phase` query): calls = its protocol (model calls
 * and pytest runs); waiting = frozen, for the task's other conditions (docs/protocol.md §3); then
 * the evaluation's activities (workflows/evaluation.ts): execute, labels (executable labels),
 * compare (comparison, judge and labels), variants (differential execution), record; done.
 */
export const CONDITION_PHASES = ['calls', 'waiting', 'execute', 'labels', 'compare', 'variants', 'record', 'done'] as const;
export type ConditionPhase = (typeof CONDITION_PHASES)[number];

/**
 * Runs a condition's protocol `steps` (which end with frozen artifacts), then its evaluation
 * when the task asks for it. @returns the condition's result, with its outcome when evaluated.
 */
export async function runCondition(input: ConditionInput, steps: (input: ConditionInput) => Promise<ConditionResult>): Promise<ConditionResult> {
  let evaluateNow = false;
  setHandler(evaluateSignal, () => {
    evaluateNow = true;
  });
  // What the workflow is doing, for the CLI's progress line (a query adds nothing to the history).
  let phase: ConditionPhase = 'calls';
  setHandler(phaseQuery, () => phase);
  return recordingStatus(async () => {
    const result = await steps(input);
    if (!input.evaluation) {
      phase = 'done';
      return result;
    }
    const parent = workflowInfo().parent;
    if (!parent) throw new Error('a condition workflow that evaluates itself must have a task workflow as its parent');
    phase = 'waiting';
    await getExternalWorkflowHandle(parent.workflowId, parent.runId).signal(conditionFrozenSignal, result);
    await condition(() => evaluateNow);
    const outcome = await evaluateCondition({ study: input.study, manifest: input.evaluation.manifest, taskId: input.taskId, replicate: input.replicate, sample: input.sample, snapshotDir: input.snapshotDir }, result, (p) => (phase = p));
    phase = 'done';
    upsertSearchAttributes([
      { key: TEST_PASSED_KEY, value: outcome.testPassed },
      { key: REFERENCE_AGREEMENT_KEY, value: outcome.referenceAgreement },
      { key: FALSE_PASS_KEY, value: outcome.falsePass },
      { key: MODEL_KEY, value: input.study.model },
    ]);
    return { ...result, outcome };
  });
}
