/**
 * Contract-First Revision (Table I, fourth row; docs/protocol.md §2 "Contract-First", beyond the
 * paper: its proposed remedy, run). C-0 writes the acceptance tests contract_test.py from the
 * task and its input schemas alone, before any candidate is seen; the suite is sealed. The
 * condition starts from the shared initial generation, runs the sealed contract suite (and the
 * candidate's own suite: recorded, never feedback) and revises solution.py from the contract
 * suite's failures, at most twice, stopping when it passes. Before every pytest run and at
 * freeze the harness checks the suite's sha256: a revision that changed it is a protocol
 * violation, rejected, and the sealed suite restored. Budget: 1 shared + 1 contract + ≤2 calls.
 */
import { proxyActivities } from '@temporalio/workflow';
import { BUDGETS, CONTRACT_SUITE, contractFirstStopReason } from '../../protocol/conditions';
import { CONTRACT_REVISE_STAGES, type Stage } from '../../protocol/stages';
import type { StudyActivities } from '../../protocol/activities';
import type { ContractViolation } from '../../protocol/records';
import type { PytestOutcome } from '../../protocol/types';
import type { ConditionInput, ConditionResult } from '../../protocol/inputs';
import { LOCAL_STEP } from '../options';
import { CallBudget } from './calls';
import { freeze, pytest } from './steps';
import { runCondition } from './lifecycle';

const local = proxyActivities<StudyActivities>(LOCAL_STEP);

export async function contractFirst(input: ConditionInput): Promise<ConditionResult> {
  return runCondition(input, contractFirstSteps);
}

async function contractFirstSteps(input: ConditionInput): Promise<ConditionResult> {
  const budget = new CallBudget(input, 'contract-first');
  const dir = input.conditionDir;
  await budget.call('c0-contract');
  const { sha256 } = await local.sealContract({ dir });
  const violations: ContractViolation[] = [];
  /** The sealed suite is checked (and restored when changed) before it runs and at freeze. */
  const guard = async (after: Stage): Promise<string | null> => {
    if (!sha256) return null;
    const g = await local.guardContract({ dir, sha256 });
    if (!g.intact) violations.push({ stage: after, foundSha256: g.foundSha256, detail: `${after} changed ${CONTRACT_SUITE}: rejected, the suite sealed at C-0 restored` });
    return g.restoredSha256;
  };
  const contractRun = (label: string) => (sha256 ? pytest(input, `contract-${label}`, { file: CONTRACT_SUITE, sha256 }) : Promise.resolve(null));

  let ownSuite = await pytest(input, 'initial');
  let tests: PytestOutcome | null = await contractRun('initial');
  let revisions = 0;
  while (tests && !tests.passed && revisions < BUDGETS['contract-first'].maxRevisions) {
    const stage = CONTRACT_REVISE_STAGES[revisions];
    revisions += 1;
    await budget.call(stage, { feedbackFile: tests.failuresFile });
    await guard(stage);
    ownSuite = await pytest(input, `after-${stage}`);
    tests = await contractRun(`after-${stage}`);
  }
  const sha256AtFreeze = await guard(budget.stages[budget.stages.length - 1].stage);
  const artifacts = { ...(await freeze(input)), [CONTRACT_SUITE]: sha256 ?? 'missing' };
  return {
    condition: 'contract-first',
    conditionDir: dir,
    callsUsed: budget.used,
    stages: budget.stages,
    stopReason: contractFirstStopReason(sha256 !== null, !!tests?.passed, revisions),
    pytest: tests,
    smoke: null,
    artifacts,
    contract: { sha256AtC0: sha256, sha256AtFreeze, violations, ownSuite },
  };
}
