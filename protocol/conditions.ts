/**
 * Table I of the paper (docs/protocol.md §2) as typed constants. The workflows read their
 * limits from here; nothing else hard-codes a budget.
 */

export const CONDITIONS = ['one-pass', 'test-guided', 'plan-audit', 'contract-first'] as const;
export type ConditionId = (typeof CONDITIONS)[number];
/** The paper's three conditions (Table I as published); Contract-First is beyond the paper. */
export const PAPER_CONDITIONS = ['one-pass', 'test-guided', 'plan-audit'] as const satisfies readonly ConditionId[];

export interface ConditionSpec {
  id: ConditionId;
  /** The paper's name for the condition. */
  name: string;
  grounding: string;
  feedback: string;
  /** Which artifacts a revision may change (intent-to-treat: deviations are recorded, not blocked). */
  mayRevise: { plan: boolean; solution: boolean; tests: 'no' | 'fixtures-only' | 'yes' };
  /** Protocol-level model calls, including the shared initial generation. */
  callBudget: number;
  /** At most this many revision calls. */
  maxRevisions: number;
  /** Audit calls (PlanAudit only: C-1, C-2, C-2.5, C-3, C-4). */
  auditCalls: number;
  /** Contract calls (Contract-First only: C-0, which writes the frozen contract_test.py). */
  contractCalls: number;
}

export const BUDGETS: Record<ConditionId, ConditionSpec> = {
  'one-pass': {
    id: 'one-pass',
    name: 'Frozen One-Pass',
    grounding: 'task + input schemas',
    feedback: 'none',
    mayRevise: { plan: false, solution: false, tests: 'no' },
    callBudget: 1,
    maxRevisions: 0,
    auditCalls: 0,
    contractCalls: 0,
  },
  'test-guided': {
    id: 'test-guided',
    name: 'Test-Guided Revision',
    grounding: 'task + input schemas',
    feedback: 'pytest failures',
    mayRevise: { plan: false, solution: true, tests: 'fixtures-only' },
    callBudget: 3,
    maxRevisions: 2,
    auditCalls: 0,
    contractCalls: 0,
  },
  'plan-audit': {
    id: 'plan-audit',
    name: 'PlanAudit-Guided Revision',
    grounding: 'task + input schemas + schema metadata (C-2.5)',
    feedback: 'structured audit',
    mayRevise: { plan: true, solution: true, tests: 'yes' },
    callBudget: 8,
    maxRevisions: 2,
    auditCalls: 5,
    contractCalls: 0,
  },
  // Beyond the paper (docs/protocol.md §2 "Contract-First"): the paper's proposed remedy, run.
  'contract-first': {
    id: 'contract-first',
    name: 'Contract-First Revision',
    grounding: 'task + input schemas',
    feedback: 'failures of the frozen contract suite',
    mayRevise: { plan: false, solution: true, tests: 'no' },
    callBudget: 4,
    maxRevisions: 2,
    auditCalls: 0,
    contractCalls: 1,
  },
};

/**
 * The conditions among `present` (the conditions of a table's rows or keys), in Table I
 * (protocol) order; unknown names are dropped. Which conditions a study has is
 * studyConditions' answer; the report's tables show the keys they are given. Pure.
 */
export function reportedConditions(present: Iterable<string>): ConditionId[] {
  const have = new Set(present);
  return CONDITIONS.filter((c) => have.has(c));
}

/**
 * The conditions a study's report shows, in Table I order: exactly the study's conditions,
 * study.json `conditions` (the study input, written since the first study workflow), plus any
 * condition a record holds that the manifest does not name (no run is hidden). A manifest
 * without the field (a hand-built fixture) means the paper's three, plus the records' others.
 * A declared condition without a record is still shown (its runs are reported as missing).
 * Input: the manifest's `conditions` (undefined: not recorded) and the records' conditions.
 * Source: docs/protocol.md §2 (four conditions; a study may run any subset). Pure.
 */
export function studyConditions(declared: readonly string[] | undefined, present: Iterable<string>): ConditionId[] {
  return reportedConditions([...(declared ?? PAPER_CONDITIONS), ...present]);
}

/** The conditions that revise the snapshot, each compared with one-pass (Table IV, trajectories). */
export const REVISION_BRANCHES = ['test-guided', 'plan-audit', 'contract-first'] as const satisfies readonly ConditionId[];

/** The file C-0 writes and the harness holds fixed (Contract-First). */
export const CONTRACT_SUITE = 'contract_test.py';

/**
 * The suite whose outcome is a condition's test outcome and whose kills are its mutation score:
 * the frozen contract suite for Contract-First, the candidate's own test_solution.py otherwise
 * (docs/protocol.md §2 "Contract-First", §4). Pure.
 */
export function scoredSuite(condition: ConditionId): 'test_solution.py' | typeof CONTRACT_SUITE {
  return condition === 'contract-first' ? CONTRACT_SUITE : 'test_solution.py';
}

/**
 * Why a Contract-First run stopped (recorded in its run record). `revisions` is how many
 * revision calls were made. Pure.
 */
export function contractFirstStopReason(contractWritten: boolean, passed: boolean, revisions: number): string {
  if (!contractWritten) return 'stopped: C-0 reply broke the protocol, no contract suite to test against';
  if (passed) return revisions === 0 ? 'stopped: contract suite passed on the snapshot' : `stopped: contract suite passed after cf-revise-${revisions}`;
  return `stopped: budget spent, contract suite still failing after cf-revise-${revisions}`;
}

/** The PlanAudit audit stages in order (each one model call). */
export const AUDIT_STAGES = ['c1-extract', 'c2-assess', 'c2_5-ground', 'c3-audit', 'c4-recommend'] as const;
