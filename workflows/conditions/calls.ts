/**
 * The call budget as a first-class value: every protocol-level model call in a condition goes
 * through `CallBudget.call`, which refuses a call beyond the condition's budget (Table I).
 */
import { ApplicationFailure, setHandler } from '@temporalio/workflow';
import type { StageRequest, StageResult } from '../../protocol/types';
import type { Stage } from '../../protocol/stages';
import { BUDGETS, ConditionId } from '../../protocol/conditions';
import { modelActivities } from '../modelCall';
import type { CallsUsed, ConditionInput } from '../../protocol/inputs';
import { callsQuery } from '../../protocol/queries';

export type { CallsUsed };

export class CallBudget {
  readonly stages: StageResult[];
  private readonly limit: number;

  constructor(
    private readonly input: ConditionInput,
    condition: ConditionId,
  ) {
    this.stages = [...input.sharedCalls];
    this.limit = BUDGETS[condition].callBudget;
    // A query handler adds nothing to the history: safe for histories recorded before it.
    setHandler(callsQuery, () => ({ condition, used: this.used, budget: this.limit }));
  }

  /** Protocol-level calls used so far, including the shared initial generation. */
  get used(): number {
    return this.stages.length;
  }

  /** Makes one model call for `stage`; throws (non-retryable) if it would exceed the budget. */
  async call(stage: Stage, inputs: StageRequest['inputs'] = {}): Promise<StageResult> {
    if (this.used + 1 > this.limit) {
      throw ApplicationFailure.nonRetryable(`call budget exceeded: ${this.input.condition} allows ${this.limit} calls`, 'BudgetExceeded');
    }
    const { study, taskId, condition, conditionDir, replicate, sample } = this.input;
    const result = await modelActivities(study.model).callModel({
      studyId: study.studyId,
      taskId,
      condition,
      stage,
      workDir: conditionDir,
      callIndex: this.used + 1,
      model: study.model,
      params: study.params,
      inputs,
      replicate,
      ...(sample && sample > 1 ? { sample } : {}),
    });
    this.stages.push(result);
    return result;
  }
}
