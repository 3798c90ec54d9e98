/**
 * zod schemas for the task corpus: tasks/<taskId>/task.yaml and tasks/<taskId>/obligations.yaml
 * (docs/protocol.md §1). These are the contract between the corpus, the prompts, the
 * audit stages and scoring.
 */
import { z } from 'zod';

/** Spark SQL type names as written in task.yaml, e.g. "int", "bigint", "decimal(7,2)", "date", "string", "double". */
export const SparkTypeName = z
  .string()
  .regex(/^(int|bigint|smallint|tinyint|double|float|string|date|timestamp|boolean|decimal\(\d+,\d+\))$/, 'not a Spark type name such as int, bigint, decimal(7,2), date, string, double');

export const ColumnSpec = z.object({
  name: z.string().min(1),
  type: SparkTypeName,
  nullable: z.boolean(),
});

export const InputTable = z.object({
  name: z.string().min(1),
  columns: z.array(ColumnSpec).min(1),
});

/** One output column as a careful spec would describe it; `name` only where the spec gives one. */
export const OutputColumn = z.object({
  name: z.string().min(1).optional(),
  description: z.string().min(1),
  type: SparkTypeName.optional(),
});

export const ARTIFACTS = ['plan.md', 'solution.py', 'test_solution.py'] as const;
export type ArtifactName = (typeof ARTIFACTS)[number];

export const TaskSpec = z.object({
  id: z.string().regex(/^q\d+[ab]?$/),
  title: z.string().min(1),
  question: z.string().min(1),
  tables: z.array(InputTable).min(1),
  joins: z.array(z.string().min(1)),
  filters: z.array(z.string().min(1)),
  aggregations: z.array(z.string().min(1)),
  output: z.object({ columns: z.array(OutputColumn).min(1) }),
  ordering: z.array(z.string().min(1)),
  limit: z.number().int().positive().nullable(),
  notes: z.array(z.string()).optional(),
  artifacts: z.tuple([z.literal('plan.md'), z.literal('solution.py'), z.literal('test_solution.py')]),
});
export type TaskSpec = z.infer<typeof TaskSpec>;

export const OBLIGATION_CLASSES = ['prompt-inferable', 'schema-grounded', 'hidden-reference'] as const;
export const OBLIGATION_KINDS = [
  'schema',
  'alias',
  'type-precision',
  'join',
  'filter',
  'grouping-grain',
  'aggregation-metric',
  'null-rollup',
  'channel-label',
  'ordering',
  'limit',
] as const;

/**
 * A machine-checkable rule on the candidate output's schema, used for automated labels
 * where the obligation is decidable from the schema (docs/protocol.md §5).
 * Positions are 0-based; names compare lower-cased.
 */
export const ObligationRule = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('column-name'), position: z.number().int().min(0), name: z.string() }),
  // position: the reference's position of the column, used when no output column has the name (an alias error is not a type error).
  z.object({ kind: z.literal('column-type'), name: z.string(), type: SparkTypeName, position: z.number().int().min(0).optional() }),
  // exact: the output's columns are exactly `names`, in that order, and no other (the obligation says "exactly … in that order").
  z.object({ kind: z.literal('columns'), names: z.array(z.string()).min(1), exact: z.boolean().optional() }),
]);
export type ObligationRule = z.infer<typeof ObligationRule>;

export const Obligation = z
  .object({
    id: z.string().regex(/^O\d+$/),
    statement: z.string().min(1),
    class: z.enum(OBLIGATION_CLASSES),
    kind: z.enum(OBLIGATION_KINDS),
    /** For prompt-inferable: the exact task.yaml passage it follows from (a substring of the file). */
    passage: z.string().min(1).optional(),
    /** For hidden-reference: what in the reference decides it. */
    decided_by: z.string().min(1).optional(),
    rule: ObligationRule.optional(),
    /**
     * The input columns the obligation is about, when its statement names others in passing or
     * none (activities/tasks/columns.ts obligationColumns; default: the input columns its
     * statement names). The discrimination check swaps each for its same-typed alternatives.
     */
    columns: z.array(z.string().min(1)).optional(),
    /**
     * `false` for an obligation with no executable form (no violation, no acceptance test),
     * e.g. a plan-only obligation; `reason` then says why. Absent: the obligation is meant to
     * have a violation `obligations/<id>/violation.diff` (a diff against gold) and acceptance tests marked with its id
     * (tasks/README.md "Executable obligations").
     */
    executable: z.literal(false).optional(),
    /** Why the obligation has no executable form (required with `executable: false`). */
    reason: z.string().min(1).optional(),
  })
  .superRefine((o, ctx) => {
    if (o.executable === false && !o.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'an obligation with executable: false must give its reason' });
    if (o.reason && o.executable !== false)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'a reason is only given with executable: false' });
    if (o.class === 'prompt-inferable' && !o.passage)
      ctx.addIssue({ code: 'custom', path: ['passage'], message: 'a prompt-inferable obligation must quote its task.yaml passage' });
    if (o.class === 'hidden-reference' && !o.decided_by)
      ctx.addIssue({ code: 'custom', path: ['decided_by'], message: 'a hidden-reference obligation must say what in the reference decides it' });
  });
export type Obligation = z.infer<typeof Obligation>;

export const ObligationsFile = z.object({
  task: z.string().regex(/^q\d+[ab]?$/),
  obligations: z.array(Obligation).min(8).max(13),
});
export type ObligationsFile = z.infer<typeof ObligationsFile>;

/** The 30 study tasks (docs/protocol.md §1). */
export const STUDY_TASKS = [
  'q2', 'q4', 'q5', 'q11', 'q13', 'q14a', 'q14b', 'q17', 'q33', 'q35', 'q47', 'q69', 'q77', 'q78', 'q80',
  'q1', 'q3', 'q7', 'q12', 'q18', 'q22', 'q27', 'q36', 'q38', 'q49', 'q51', 'q70', 'q87', 'q94', 'q98',
] as const;

/** The reference inventory: the 30 plus q23b, q54, q85 (docs/protocol.md §1). */
export const REFERENCE_INVENTORY = [...STUDY_TASKS, 'q23b', 'q54', 'q85'] as const;
