/**
 * PlanAudit-Guided Revision (Table I; docs/protocol.md §2): C-1 Extract, C-2 Assess, C-2.5 Ground,
 * C-3 Audit, C-4 Recommend (one call each), then C-5: revise all three artifacts from the
 * feedback and rerun pytest, at most two revisions, stopping when tests pass; C-5 is skipped
 * when C-4 reports no actionable gap. Budget: 1 + 5 + ≤2 calls.
 */
import { AUDIT_STAGES, BUDGETS } from '../../protocol/conditions';
import { CallBudget } from './calls';
import { freeze, pytest } from './steps';
import type { ConditionInput, ConditionResult } from '../../protocol/inputs';
import { runCondition } from './lifecycle';

interface C4 {
  actionable?: boolean;
  repairs?: unknown[];
}

export async function planAuditGuidedRevision(input: ConditionInput): Promise<ConditionResult> {
  return runCondition(input, planAuditGuidedRevisionSteps);
}

async function planAuditGuidedRevisionSteps(input: ConditionInput): Promise<ConditionResult> {
  const budget = new CallBudget(input, 'plan-audit');
  let tests = await pytest(input, 'initial');
  const audit: string[] = [];
  let recommendation: C4 | undefined;
  for (const stage of AUDIT_STAGES) {
    const result = await budget.call(stage, { priorCalls: [...audit] });
    audit.push(result.callFile);
    if (stage === 'c4-recommend') recommendation = result.ok ? (result.json as C4) : undefined;
  }
  const actionable = !!recommendation?.actionable && (recommendation.repairs?.length ?? 0) > 0;
  let stopReason = recommendation ? 'stopped: no actionable gap after C-4' : 'stopped: C-4 reply broke the protocol, no feedback to act on';
  if (actionable) {
    let revisions = 0;
    do {
      revisions += 1;
      await budget.call(revisions === 1 ? 'c5-revise-1' : 'c5-revise-2', { priorCalls: audit.slice(-2), feedbackFile: tests.failuresFile });
      tests = await pytest(input, `after-c5-revise-${revisions}`);
    } while (!tests.passed && revisions < BUDGETS['plan-audit'].maxRevisions);
    stopReason = tests.passed ? `stopped: tests passed after c5-revise-${revisions}` : `stopped: budget spent, tests still failing after c5-revise-${revisions}`;
  }
  const artifacts = await freeze(input);
  return { condition: 'plan-audit', conditionDir: input.conditionDir, callsUsed: budget.used, stages: budget.stages, stopReason, pytest: tests, smoke: null, artifacts };
}
