/**
 * Model stages and the reply protocol (the contract between the gateway, the prompts,
 * the replay corpora and the workflows). Pure data: safe to import from workflows as types.
 *
 * Artifact replies: fenced code blocks whose info string ends with the file name, e.g.
 *   ```python solution.py
 * Audit replies: exactly one fenced ```json block validated by the stage's zod schema.
 */
import { z } from 'zod';

/** Every protocol-level model call has one of these stage names (also the replay file names). */
export const STAGES = [
  'generate',
  'revise-1',
  'revise-2',
  'c1-extract',
  'c2-assess',
  'c2_5-ground',
  'c3-audit',
  'c4-recommend',
  'c5-revise-1',
  'c5-revise-2',
  'c0-contract',
  'cf-revise-1',
  'cf-revise-2',
  'judge',
] as const;
export type Stage = (typeof STAGES)[number];

/** Stages whose reply carries artifacts (plan.md, solution.py, test_solution.py). */
export const ARTIFACT_STAGES: readonly Stage[] = ['generate', 'revise-1', 'revise-2', 'c5-revise-1', 'c5-revise-2', 'c0-contract', 'cf-revise-1', 'cf-revise-2'];
/** Contract-First's revision stages, in order (docs/protocol.md §2 "Contract-First"). */
export const CONTRACT_REVISE_STAGES = ['cf-revise-1', 'cf-revise-2'] as const;

/** C-1 Extract: obligations derived from the task prompt. */
export const C1Reply = z.object({
  obligations: z.array(z.object({ id: z.string(), statement: z.string(), kind: z.string().optional() })).min(1),
});
/** C-2 Assess: does the prompt support each obligation? */
export const C2Reply = z.object({
  assessments: z.array(z.object({ id: z.string(), support: z.enum(['stated', 'inferable', 'ambiguous', 'unsupported']), note: z.string().optional() })),
});
/** C-2.5 Ground: ambiguities resolved with schema metadata (no rows). */
export const C25Reply = z.object({
  groundings: z.array(z.object({ id: z.string(), resolution: z.string(), columns: z.array(z.string()).optional() })),
});
export const COVERAGE = ['covered', 'partial', 'absent', 'contradicted'] as const;
/** C-3 Audit: each obligation against the one-pass plan, code and tests. */
export const C3Reply = z.object({
  audit: z.array(
    z.object({
      id: z.string(),
      plan: z.enum(COVERAGE),
      code: z.enum(COVERAGE),
      tests: z.enum(COVERAGE),
      evidence: z.string().optional(),
    }),
  ),
});
/** C-4 Recommend: actionable repairs; `actionable: false` (or no repairs) skips C-5. */
export const C4Reply = z.object({
  actionable: z.boolean(),
  repairs: z.array(z.object({ id: z.string(), artifact: z.enum(['plan.md', 'solution.py', 'test_solution.py']), action: z.string() })),
});
/** Judge: obligation labels for one condition's frozen artifacts (docs/protocol.md §5). */
export const PLAN_LABELS = ['present', 'partial', 'ambiguous', 'absent', 'contradicted'] as const;
export const CODE_LABELS = ['satisfied', 'partial', 'violated', 'execution-failed'] as const;
export const TEST_LABELS = ['covered', 'partially-covered', 'not-covered'] as const;
/**
 * The test labels a run may record: the judge's three, plus `invalid-on-gold` from the
 * executable labeller when the run's own suite fails on the gold solution (its tests measure
 * nothing, so no coverage is claimed; docs/protocol.md §5).
 */
export const RECORDED_TEST_LABELS = [...TEST_LABELS, 'invalid-on-gold'] as const;
export const JudgeReply = z.object({
  labels: z.array(
    z.object({
      id: z.string(),
      plan: z.enum(PLAN_LABELS),
      code: z.enum(CODE_LABELS),
      test: z.enum(TEST_LABELS),
      rationale: z.string().optional(),
    }),
  ),
});

/** The JSON schema each JSON stage's reply must satisfy. */
export const JSON_STAGE_SCHEMAS = {
  'c1-extract': C1Reply,
  'c2-assess': C2Reply,
  'c2_5-ground': C25Reply,
  'c3-audit': C3Reply,
  'c4-recommend': C4Reply,
  judge: JudgeReply,
} as const;
export type JsonStage = keyof typeof JSON_STAGE_SCHEMAS;
