/**
 * The schemas of the files a study folder holds besides its run records, each exactly as its
 * writer writes it: controls.json (the evaluator controls, Table II; activities/compare),
 * reproduce.json (the SQL re-execution, Table V; activities/data reexecuteReferences) and
 * mutation.json (test-suite validity and mutation scores; activities/mutation). The report
 * reads them with these schemas and nothing else; unknown keys are kept.
 */
import { z } from 'zod';
import { FAILURE_CATEGORIES } from './records';
import { ReproduceResult } from './data';

/**
 * Files written before the task was called `taskId` everywhere (controls.json rows, the mutation
 * analysis's equivalence.json caches) name it `qid`: use as a zod preprocess step so that such a
 * file reads as if it said `taskId` (a value that has `taskId`, or is no object, is unchanged).
 */
export function taskIdFromQid(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v) || 'taskId' in v || !('qid' in v)) return v;
  const { qid, ...rest } = v as Record<string, unknown>;
  return { ...rest, taskId: qid };
}

/**
 * One evaluator control (docs/protocol.md §4 "Evaluator controls"). controls.json files written
 * before the task was called `taskId` everywhere name it `qid`; they are read as if it were `taskId`.
 */
export const ControlRecordSchema = z.preprocess(
  taskIdFromQid,
  z.looseObject({
  id: z.string(),
  /** unchanged, row-permutation, or one of the 7 rejection categories. */
  kind: z.string(),
  /** The reference variant it was made from. */
  taskId: z.string(),
  expected: z.enum(['accept', 'reject']),
  /** What the production comparator did; skipped when the reference is missing at this scale. */
  observed: z.enum(['accept', 'reject', 'skipped']),
  asExpected: z.boolean(),
  /** Perturbations only: whether the perturbation was verified to change the data; null for unchanged loads. */
  verified: z.boolean().nullable(),
  categories: z.array(z.enum(FAILURE_CATEGORIES)).optional(),
  summary: z.string().optional(),
  }),
);

/** controls.json. */
export const ControlsFileSchema = z.looseObject({
  referencesDir: z.string().optional(),
  scale: z.number().nullable().optional(),
  missing: z.array(z.string()).optional(),
  counts: z.looseObject({ controls: z.number().int(), asExpected: z.number().int() }),
  allAsExpected: z.boolean(),
  controls: z.array(ControlRecordSchema),
});
export type ControlsFile = z.infer<typeof ControlsFileSchema>;

/** reproduce.json: the re-execution result and the database it ran on. */
export const ReproduceFileSchema = ReproduceResult.extend({
  /** The study database's manifest hash (the re-execution is redone when it changes). */
  databaseManifestHash: z.string().nullable().optional(),
});
export type ReproduceFile = z.infer<typeof ReproduceFileSchema>;

/** One suite's scores in mutation.json (activities/mutation/score.ts SuiteScore). */
export const SuiteScoreSchema = z.looseObject({
  task: z.string(),
  condition: z.string(),
  suiteSha: z.string(),
  validOnGold: z.boolean(),
  goldExitCode: z.number().int().nullable(),
  goldFailure: z.string().optional(),
  /** Non-equivalent mutants the suite ran against. */
  total: z.number().int(),
  /** Of those, how many count as killed (0 for a suite invalid on gold not measured through valid tests). */
  killed: z.number().int(),
  equivalent: z.number().int(),
  undecided: z.number().int(),
  score: z.number().nullable(),
  mutants: z.array(z.looseObject({ id: z.string(), operator: z.string(), detected: z.boolean().nullable(), killed: z.boolean().nullable(), status: z.string() })),
  survivorsByOperator: z.record(z.string(), z.number()),
  /** A suite that fails gold, measured through the tests that pass gold: valid of tests. */
  validTests: z.object({ valid: z.number().int(), tests: z.number().int() }).optional(),
  /** Where its runs came from: run for this study, copied from an identical earlier run, or shared with an identical suite (absent before it was recorded). */
  ran: z.enum(['here', 'cache', 'same-suite']).optional(),
});

/** mutation.json. */
export const MutationFileSchema = z.looseObject({
  studyId: z.string(),
  equivalenceScale: z.number(),
  confirmScale: z.number().nullable(),
  maxPerOperator: z.number().int(),
  suites: z.array(SuiteScoreSchema),
  mutants: z.record(z.string(), z.looseObject({ goldSha: z.string(), scale: z.number(), mutants: z.array(z.looseObject({ id: z.string(), operator: z.string(), verdict: z.string(), summary: z.string().optional() })) })),
});
export type MutationFileShape = z.infer<typeof MutationFileSchema>;

/** Counts of one labeller on known truth (activities/obligations/accuracy.ts LabellerAccuracy). */
export const LabellerAccuracySchema = z.object({
  labeller: z.enum(['executable', 'schema-rule', 'heuristic']),
  /** confusion[truth][label the labeller gave] = count; truth is satisfied or violated. */
  confusion: z.object({ satisfied: z.record(z.string(), z.number()), violated: z.record(z.string(), z.number()) }),
  /** Obligation × variant pairs labelled. */
  n: z.number(),
  /** Of them, labelled as the truth says. */
  correct: z.number(),
  byClass: z.record(z.string(), z.object({ n: z.number(), correct: z.number() })),
  byKind: z.record(z.string(), z.object({ n: z.number(), correct: z.number() })),
});

/**
 * runs/<id>/labeller-accuracy.json: the code labellers measured on gold and the obligation
 * violations of the study's tasks (activities/obligations/studyAccuracy.ts; docs/protocol.md §5).
 */
export const LabellerAccuracyFileSchema = z.looseObject({
  schemaVersion: z.literal(1),
  /** The database the violations were compared with the reference on. */
  scale: z.number(),
  tasks: z.array(
    z.looseObject({
      taskId: z.string(),
      /** false: the task has no executable form yet (counts in no labeller). */
      checked: z.boolean(),
      /** `lockin obligations check` passed (null: not checked). */
      ok: z.boolean().nullable(),
      obligations: z.number().nullable(),
      /** Obligations with a violation and acceptance tests. */
      executable: z.number(),
      /** Obligations marked `executable: false` with a reason. */
      notExecutable: z.number(),
      /** Read from the check cache. */
      cached: z.boolean(),
      labellers: z.array(LabellerAccuracySchema).optional(),
      /** Obligations whose violation agrees with the reference at `scale` (the reference cannot tell it from gold there); absent in files from before it was recorded. */
      equivalentViolations: z.array(z.string()).optional(),
    }),
  ),
  /** The labellers summed over the checked tasks. */
  labellers: z.array(LabellerAccuracySchema),
});
export type LabellerAccuracyFile = z.infer<typeof LabellerAccuracyFileSchema>;

/**
 * runs/<id>/labeller-calibration.json: the code, test, mechanism and plan labellers measured on
 * the realistic faults of the study's tasks (tasks/<id>/faults/, hand-labelled before any
 * labeller ran; activities/obligations/calibration.ts).
 */
export const LabellerCalibrationFileSchema = z.looseObject({
  schemaVersion: z.literal(1),
  tasks: z.array(z.looseObject({ taskId: z.string(), faults: z.array(z.string()), notExecutable: z.array(z.string()), cached: z.boolean(), problems: z.array(z.string()) })),
  labellers: z.array(
    z.looseObject({
      labeller: z.enum(['code', 'test', 'mechanism', 'plan-heuristic']),
      n: z.number(),
      agree: z.number(),
      /** Agreement with its Wilson 95 % interval (fractions; p null when n = 0). */
      agreement: z.looseObject({ x: z.number(), n: z.number(), p: z.number().nullable(), lower: z.number(), upper: z.number() }),
      /** confusion[hand label][labeller's label] = count. */
      confusion: z.record(z.string(), z.record(z.string(), z.number())),
      errors: z.array(z.looseObject({ task: z.string(), fault: z.string(), obligation: z.string(), truth: z.string(), label: z.string(), evidence: z.string().optional() })),
    }),
  ),
  items: z.array(z.looseObject({ task: z.string(), fault: z.string(), obligation: z.string(), labeller: z.string(), truth: z.string(), label: z.string() })),
});
export type LabellerCalibrationFile = z.infer<typeof LabellerCalibrationFileSchema>;
