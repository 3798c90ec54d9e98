/**
 * runTask: one shared initial generation (the snapshot), then one child workflow per
 * condition, each in its own directory starting from a copy of the snapshot; after every
 * condition has frozen its artifacts, evaluation (execution on the study database, reference
 * agreement, labels) and one run record per condition, one condition after another
 * (docs/protocol.md §2–4). A condition that fails leaves the others' records standing; it is
 * returned in `failedConditions` (§7 "Failed runs"). Each condition workflow evaluates itself when the task says so, and
 * carries its outcome as search attributes.
 */
import { ApplicationFailure, condition as waitUntil, deprecatePatch, proxyActivities, setHandler, startChild, workflowInfo } from '@temporalio/workflow';
import type { ConditionId } from '../protocol/conditions';
import type { StudyActivities } from '../protocol/activities';
import { contractFirst } from './conditions/contractFirst';
import { frozenOnePass } from './conditions/frozenOnePass';
import { planAuditGuidedRevision } from './conditions/planAuditGuidedRevision';
import { testGuidedRevision } from './conditions/testGuidedRevision';
import { LOCAL_STEP } from './options';
import { modelActivities } from './modelCall';
import { CONDITION_KEY, STATUS_KEY, STUDY_KEY, TASK_KEY } from '../protocol/searchAttributes';
import type { ConditionInput, ConditionOutcome, ConditionResult, TaskInput } from '../protocol/inputs';
import { conditionWorkflowId } from '../protocol/layout';
import { conditionFrozenSignal, evaluateSignal } from '../protocol/queries';
import { recordingStatus } from './status';
import { rootCauseMessage } from './failures';

const local = proxyActivities<StudyActivities>(LOCAL_STEP);

const CONDITION_WORKFLOWS = {
  'one-pass': frozenOnePass,
  'test-guided': testGuidedRevision,
  'plan-audit': planAuditGuidedRevision,
  'contract-first': contractFirst,
} as const;

export interface TaskSummary {
  taskId: string;
  replicate?: string;
  /** Sample index, 1-based. */
  sample: number;
  /** Distinct protocol-level calls: the shared initial generation counted once. */
  callsUsed: number;
  records: ConditionOutcome[];
  /**
   * Conditions that failed (before or during evaluation) while the others finished and kept
   * their records; absent when none failed. A task whose every condition failed throws instead.
   */
  failedConditions?: { condition: ConditionId; error: string }[];
}

export async function runTask(input: TaskInput): Promise<TaskSummary> {
  return recordingStatus(() => runTaskSteps(input));
}

async function runTaskSteps(input: TaskInput): Promise<TaskSummary> {
  const { study, taskId, replicate, manifest } = input;
  const frozen = new Map<ConditionId, ConditionResult>();
  setHandler(conditionFrozenSignal, (r) => void frozen.set(r.condition, r));
  const sample = input.sample ?? 1;
  // Sample 1 sends no `sample` field, as before samples existed (docs/protocol.md §7).
  const base = { studyId: study.studyId, taskId, replicate, ...(sample > 1 ? { sample } : {}) };
  const snapshotDir = await local.prepareConditionDir({ ...base, condition: 'snapshot' });
  const generate = await modelActivities(study.model).callModel({ ...base, condition: 'shared', stage: 'generate', workDir: snapshotDir, callIndex: 1, model: study.model, params: study.params, inputs: {} });
  await local.freezeArtifacts({ dir: snapshotDir });

  // Conditions evaluate themselves once every condition has frozen (retired patch: histories
  // recorded before it, where the task evaluated, no longer replay; docs/architecture-floors.md).
  deprecatePatch('evaluate-in-condition');
  const childOptions = (c: ConditionInput) => ({
    args: [c] as [ConditionInput],
    workflowId: conditionWorkflowId(workflowInfo().workflowId, c.condition),
    typedSearchAttributes: [
      { key: STUDY_KEY, value: study.studyId },
      { key: TASK_KEY, value: taskId },
      { key: CONDITION_KEY, value: c.condition },
      { key: STATUS_KEY, value: 'running' },
    ],
  });
  const inputOf = async (condition: ConditionId): Promise<ConditionInput> => {
    const conditionDir = await local.prepareConditionDir({ ...base, condition, fromDir: snapshotDir });
    return { study, taskId, condition, conditionDir, snapshotDir, sharedCalls: [generate], replicate, ...(sample > 1 ? { sample } : {}), evaluation: { manifest } };
  };

  const outcomes: ConditionOutcome[] = [];
  const failedConditions: { condition: ConditionId; error: string }[] = [];
  deprecatePatch('failed-condition-keeps-siblings');
  // One condition's failure (a missing replay reply, a failed activity) does not take the
  // others down: every condition is waited for until it has frozen or failed, the frozen ones
  // are evaluated and recorded, and the failed ones are named with their cause
  // (docs/protocol.md §7 "Failed runs").
  const handles = await Promise.all(study.conditions.map(async (c) => startChild(CONDITION_WORKFLOWS[c], childOptions(await inputOf(c)))));
  const failedWith = new Map<number, string>();
  const results = handles.map((h, i) =>
    h.result().then(
      (r) => r,
      (err: unknown) => {
        failedWith.set(i, rootCauseMessage(err));
        return null;
      },
    ),
  );
  await waitUntil(() => handles.every((_, i) => frozen.has(study.conditions[i]) || failedWith.has(i)));
  for (const [i, h] of handles.entries()) {
    const condition = study.conditions[i];
    if (!frozen.has(condition)) {
      failedConditions.push({ condition, error: failedWith.get(i)! });
      continue;
    }
    await h.signal(evaluateSignal);
    const r = await results[i];
    if (!r?.outcome) {
      failedConditions.push({ condition, error: failedWith.get(i) ?? `condition ${condition} returned without its outcome` });
      continue;
    }
    outcomes.push(r.outcome);
  }
  if (outcomes.length === 0) throw ApplicationFailure.nonRetryable(`every condition failed: ${failedConditions.map((f) => `${f.condition}: ${f.error}`).join('; ')}`, 'ConditionsFailed');
  const callsUsed = 1 + outcomes.reduce((n, r) => n + r.callsUsed - 1, 0);
  return { taskId, replicate, sample, callsUsed, records: outcomes, ...(failedConditions.length ? { failedConditions } : {}) };
}
