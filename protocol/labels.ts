/**
 * Obligation labels (docs/protocol.md §5; the paper, "Obligation scores and paired analysis").
 *
 * A label says, for one run (task × condition) and one obligation, how the plan, the code and
 * the tests treat it. Automated labels are written by `labelObligations` into
 * `<conditionDir>/labels.json`; final labels come from adjudication (`runs/<id>/labels/final.csv`)
 * and default to the automated ones.
 */
import { z } from 'zod';
import { PLAN_LABELS, CODE_LABELS, TEST_LABELS, RECORDED_TEST_LABELS } from './stages';

export { PLAN_LABELS, CODE_LABELS, TEST_LABELS, RECORDED_TEST_LABELS };
export type PlanLabel = (typeof PLAN_LABELS)[number];
export type CodeLabel = (typeof CODE_LABELS)[number];
export type TestLabel = (typeof RECORDED_TEST_LABELS)[number];

/**
 * Where an automated label came from (its labeller):
 * - `executable`: the obligation's acceptance tests on the candidate (code) or the candidate's
 *   suite on the obligation's violation (test) (activities/obligations/labels.ts);
 * - `schema-rule`: decided from the candidate output's Spark schema (an obligation `rule`);
 *   recorded as `rule` before executable labels, read as schema-rule;
 * - `execution`: the candidate did not execute, so the code label is execution-failed;
 * - `judge`: the model-judge stage (through the gateway or a replay corpus);
 * - `heuristic`: the deterministic fallback of heuristic.ts (no judge reply available);
 * - `adjudicated`: a final label imported from an adjudication CSV.
 */
export const LABEL_SOURCES = ['executable', 'schema-rule', 'execution', 'judge', 'heuristic', 'adjudicated'] as const;
export type LabelSource = (typeof LABEL_SOURCES)[number];

/** A label source; the pre-issue-17 name `rule` is read as `schema-rule`. */
const Source = z.preprocess((v) => (v === 'rule' ? 'schema-rule' : v), z.enum(LABEL_SOURCES));

/** One obligation's labels in one run, with the source of each dimension. */
export const ObligationLabel = z.object({
  obligation: z.string().regex(/^O\d+$/),
  plan: z.enum(PLAN_LABELS),
  code: z.enum(CODE_LABELS),
  test: z.enum(RECORDED_TEST_LABELS),
  source: z.object({ plan: Source, code: Source, test: Source }),
  /** Short evidence: the rule checked, the key terms found, or the judge's rationale. */
  evidence: z.string().optional(),
  /**
   * The executable test label's finding that tests of the suite fail gold and pass a program
   * violating this obligation (they assert its wrong value; Table VI "repeats incorrect logic"):
   * the tests, and the program (the violation's id or a column swap).
   */
  repeats: z.object({ tests: z.array(z.string()).min(1), via: z.string() }).optional(),
});
export type ObligationLabel = z.infer<typeof ObligationLabel>;

/** `<conditionDir>/labels.json`: the automated labels of one run. */
export const LabelsFile = z.object({
  schemaVersion: z.literal(1),
  studyId: z.string(),
  taskId: z.string(),
  condition: z.string(),
  /** How the non-rule labels were obtained: 'judge' or 'heuristic' (documented in heuristic.ts). */
  method: z.enum(['judge', 'heuristic']),
  /** The judge's call file when method = judge through the gateway. */
  judgeCallFile: z.string().optional(),
  labels: z.array(ObligationLabel),
});
export type LabelsFile = z.infer<typeof LabelsFile>;

/**
 * Where a final label came from (docs/protocol.md §5 "Final labels"), per dimension:
 * - `adjudicated`: the item has a decided row in `labels/final.csv` (`lockin labels adjudicate
 *   --decided` or `lockin labels import FILE`);
 * - `raters-agreed`: no decided row, and two or more raters labelled the dimension and all who
 *   did gave the same label (one rater's label alone is not agreement);
 * - `automated`: otherwise (no rater, one rater, or an undecided disagreement).
 */
export const FINAL_ORIGINS = ['raters-agreed', 'adjudicated', 'automated'] as const;
export type FinalOrigin = (typeof FINAL_ORIGINS)[number];

/** A final (adjudicated, agreed or defaulted) label triple for one obligation of one run. */
export interface FinalLabel {
  plan: PlanLabel;
  code: CodeLabel;
  test: TestLabel;
  /** The origin of each dimension's final label. */
  origins: { plan: FinalOrigin; code: FinalOrigin; test: FinalOrigin };
  /**
   * The row's origin (labels.parquet `final_origin`): the dimensions' common origin, or, when
   * they differ, each named: `plan=raters-agreed;code=raters-agreed;test=automated`.
   */
  origin: string;
}

/** Plan weights (the paper): present 1, partial/ambiguous 0.5, absent/contradicted 0. */
export const PLAN_WEIGHTS: Record<PlanLabel, number> = { present: 1, partial: 0.5, ambiguous: 0.5, absent: 0, contradicted: 0 };
/** Code weights: satisfied 1; partial, violated, execution-failed 0. */
export const CODE_WEIGHTS: Record<CodeLabel, number> = { satisfied: 1, partial: 0, violated: 0, 'execution-failed': 0 };
/** Test weights: covered 1, partially-covered 0.5, not-covered 0; invalid-on-gold 0 (no coverage is claimed for a suite that rejects gold). */
export const TEST_WEIGHTS: Record<TestLabel, number> = { covered: 1, 'partially-covered': 0.5, 'not-covered': 0, 'invalid-on-gold': 0 };
