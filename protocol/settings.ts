/**
 * The Spark settings a study records and passes explicitly to every Python process
 * (docs/protocol.md §6). Never read from ambient defaults.
 */
import { z } from 'zod';
import type { ModelParams } from './model';

export const SparkSettingsSchema = z.object({
  /** spark.master; the paper: local[*]. */
  master: z.string().default('local[*]'),
  /** spark.sql.shuffle.partitions; the paper: 8. */
  shufflePartitions: z.number().int().positive().default(8),
  /** spark.sql.ansi.enabled (Spark 4 default: true). */
  ansi: z.boolean().default(true),
  /** spark.sql.session.timeZone. */
  sessionTimeZone: z.string().default('UTC'),
  /** spark.sql.caseSensitive. */
  caseSensitive: z.boolean().default(false),
  /** spark.sql.adaptive.enabled. */
  adaptive: z.boolean().default(true),
  /** spark.default.parallelism. */
  defaultParallelism: z.number().int().positive().default(2),
  /** spark.driver.memory, e.g. "4g". */
  driverMemory: z.string().default('4g'),
});
export type SparkSettings = z.infer<typeof SparkSettingsSchema>;

/**
 * How Spark jobs get their JVM (warm Spark slots): `warm`, a long-lived JVM per Spark slot that each
 * job's fresh sandboxed process attaches to (activities/execution/slots.ts; the default since the
 * equivalence runs found every verdict identical: README "Tests and benchmarks"), or `cold`, one
 * JVM per job in the job's own sandbox (the path every result before warm Spark slots came from, and
 * where warm slots are not possible). Recorded per study (study.json `sparkMode`; a study.json
 * without it is from before warm Spark slots: cold) and per run (`spark.mode` of each outcome).
 */
export const SPARK_MODES = ['cold', 'warm'] as const;
export const SparkModeSchema = z.enum(SPARK_MODES);
export type SparkMode = z.infer<typeof SparkModeSchema>;

/**
 * Which JIT compilers the JVMs of Spark jobs use (warm Spark slots; activities/common/sparkJit.ts,
 * LOCKIN_SPARK_JIT): `tiered`, the JVM's default, or `quick`, C1 only. Results do not depend on
 * it. Recorded per study (study.json `sparkJit`: what the main job's environment said; a
 * study.json without it is from before the choice existed: tiered) and per job (`spark.jit` of
 * each outcome: what the JVM of the worker that ran it used).
 */
export const SPARK_JITS = ['tiered', 'quick'] as const;
export const SparkJitSchema = z.enum(SPARK_JITS);
export type SparkJit = z.infer<typeof SparkJitSchema>;

/** The study's default Spark settings (the paper's, adapted to this 2-core machine). */
export const DEFAULT_SPARK_SETTINGS: SparkSettings = SparkSettingsSchema.parse({});

/** The pinned versions, recorded in every manifest. */
export const PINNED = {
  sparkVersion: '4.1.2',
  tpcgenCli: '4.0.0',
  temporalBin: '1.9.1',
} as const;

/**
 * The study's intended sampling (docs/protocol.md §6; the paper: temperature 1.0, top-p 1.0,
 * the 1M-token context). Both are recorded; only temperature is sent, because current Claude
 * models reject a request that sets both.
 */
export const STUDY_MODEL_PARAMS: ModelParams = { temperature: 1.0, topP: 1.0, maxTokens: 16000, longContext: true };

/**
 * One model's generation settings as a study's input gives them (`--max-tokens`, `--temperature`,
 * `--top-p`, `--context-size`, `--stop`, or a `--model-settings` file): each field optional, the
 * paper's value (STUDY_MODEL_PARAMS) where absent. Ranges: max tokens a positive integer;
 * temperature 0..1; top-p in (0, 1]; context size an integer ≥ 256 (llama.cpp's smallest
 * context); stop sequences non-empty strings, at most 16.
 */
export const ModelSettingsSchema = z
  .object({
    maxTokens: z.number().int().positive(),
    temperature: z.number().min(0).max(1),
    topP: z.number().gt(0).max(1),
    longContext: z.boolean(),
    contextSize: z.number().int().min(256),
    stop: z.array(z.string().min(1)).max(16),
  })
  .partial()
  .strict();
export type ModelSettings = z.infer<typeof ModelSettingsSchema>;

/**
 * A model's generation settings: `over` on top of `base` (default the paper's). An empty stop
 * list is left out, as an absent context size is, so the params of a study that sets neither
 * equal STUDY_MODEL_PARAMS (and its manifest hash is unchanged). Pure.
 */
export function resolveModelParams(over: ModelSettings, base: ModelParams = STUDY_MODEL_PARAMS): ModelParams {
  const out: ModelParams = { ...base };
  for (const [k, v] of Object.entries(over)) if (v !== undefined) (out as unknown as Record<string, unknown>)[k] = v;
  if (out.stop && out.stop.length === 0) delete out.stop;
  if (out.contextSize === undefined) delete out.contextSize;
  return out;
}
