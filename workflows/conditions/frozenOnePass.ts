/**
 * Frozen One-Pass (Table I; docs/protocol.md §2): the shared initial generation's artifacts, produced once.
 * pytest and a DataFrame smoke check run; nothing is revised. Budget: 1 call (the shared one).
 */
import { CallBudget } from './calls';
import { freeze, pytest, smokeCheck } from './steps';
import type { ConditionInput, ConditionResult } from '../../protocol/inputs';
import { runCondition } from './lifecycle';

export async function frozenOnePass(input: ConditionInput): Promise<ConditionResult> {
  return runCondition(input, frozenOnePassSteps);
}

async function frozenOnePassSteps(input: ConditionInput): Promise<ConditionResult> {
  const budget = new CallBudget(input, 'one-pass');
  const tests = await pytest(input, 'initial');
  const smoke = await smokeCheck(input);
  const artifacts = await freeze(input);
  return {
    condition: 'one-pass',
    conditionDir: input.conditionDir,
    callsUsed: budget.used,
    stages: budget.stages,
    stopReason: 'one pass: no revision',
    pytest: tests,
    smoke,
    artifacts,
  };
}
