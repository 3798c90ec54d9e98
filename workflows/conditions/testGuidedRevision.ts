/**
 * Test-Guided Revision (Table I; docs/protocol.md §2): run pytest on the snapshot; if it passes, stop.
 * Otherwise revise with the failures and rerun, at most twice. Budget: 1 + ≤2 calls.
 */
import { BUDGETS } from '../../protocol/conditions';
import { CallBudget } from './calls';
import { freeze, pytest } from './steps';
import type { ConditionInput, ConditionResult } from '../../protocol/inputs';
import { runCondition } from './lifecycle';

export async function testGuidedRevision(input: ConditionInput): Promise<ConditionResult> {
  return runCondition(input, testGuidedRevisionSteps);
}

async function testGuidedRevisionSteps(input: ConditionInput): Promise<ConditionResult> {
  const budget = new CallBudget(input, 'test-guided');
  let tests = await pytest(input, 'initial');
  let revisions = 0;
  while (!tests.passed && revisions < BUDGETS['test-guided'].maxRevisions) {
    revisions += 1;
    await budget.call(revisions === 1 ? 'revise-1' : 'revise-2', { feedbackFile: tests.failuresFile });
    tests = await pytest(input, `after-revise-${revisions}`);
  }
  const stopReason = tests.passed
    ? revisions === 0
      ? 'stopped: tests passed on the snapshot'
      : `stopped: tests passed after revise-${revisions}`
    : `stopped: budget spent, tests still failing after revise-${revisions}`;
  const artifacts = await freeze(input);
  return { condition: 'test-guided', conditionDir: input.conditionDir, callsUsed: budget.used, stages: budget.stages, stopReason, pytest: tests, smoke: null, artifacts };
}
