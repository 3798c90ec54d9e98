/**
 * Table I of the paper (docs/protocol.md §2) as typed constants. The workflows read their
 * limits from here; nothing else hard-codes a budget.
 */

export const CONDITIONS = ['one-pass', 'test-guided', 'plan-audit'] as const;
export type ConditionId = (typeof CONDITIONS)[number];

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
  },
};

/** The PlanAudit audit stages in order (each one model call). */
export const AUDIT_STAGES = ['c1-extract', 'c2-assess', 'c2_5-ground', 'c3-audit', 'c4-recommend'] as const;
