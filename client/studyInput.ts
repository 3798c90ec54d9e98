/** Builds a StudyInput from CLI options, with the study's recorded defaults (docs/protocol.md §6). */
import * as fs from 'fs';
import YAML from 'yaml';
import { DEFAULT_SPARK_SETTINGS, ModelSettingsSchema, resolveModelParams, STUDY_MODEL_PARAMS, type ModelSettings } from '../protocol/settings';
import { canonicalJson } from '../activities/common/hash';
import { STUDY_TASKS } from '../protocol/corpus';
import { CONDITIONS, ConditionId, PAPER_CONDITIONS } from '../protocol/conditions';
import type { StudyInput } from '../protocol/inputs';
import { DEFAULT_REPLAY_SPEC, PAPER_MODEL_SPEC } from '../protocol/model';
import { sparkModeFromEnv } from '../activities/common/sparkMode';
import { sparkJitFromEnv } from '../activities/common/sparkJit';


/** The model used when none is named: the live model with ANTHROPIC_API_KEY, else the replay corpus. */
export function defaultModel(): string {
  return process.env.ANTHROPIC_API_KEY ? PAPER_MODEL_SPEC : DEFAULT_REPLAY_SPEC;
}

/** Parses "q1,q4" or "all" into task ids. @throws on an unknown task id (names it). */
export function parseTasks(spec: string | undefined, known: readonly string[] = STUDY_TASKS): string[] {
  if (!spec || spec === 'all') return [...known];
  const ids = spec.split(',').map((s) => s.trim()).filter(Boolean);
  for (const id of ids) if (!known.includes(id)) throw new Error(`--tasks: unknown task "${id}" (known: ${known.join(' ')})`);
  return ids;
}

/**
 * Parses "one-pass,test-guided", "all" or nothing (the default: the four conditions of
 * protocol/conditions.ts, Contract-First included; docs/protocol.md §2) or "paper" (the paper's
 * three, Table I as published).
 * @throws on an unknown condition id.
 */
export function parseConditions(spec: string | undefined): ConditionId[] {
  if (!spec || spec === 'all') return [...CONDITIONS];
  if (spec === 'paper') return [...PAPER_CONDITIONS];
  const ids = spec.split(',').map((s) => s.trim());
  for (const id of ids) if (!(CONDITIONS as readonly string[]).includes(id)) throw new Error(`--conditions: unknown condition "${id}" (one of ${CONDITIONS.join(', ')})`);
  return ids as ConditionId[];
}

/**
 * Parses `--models a,b,c`: model specs (each as `--model`), comma-separated, distinct.
 * @param validate checks one spec (protocol/model.ts parseModelSpec); its error is
 *   reported with the flag.
 * @throws Error naming `--models` for an empty list, a repeated spec or an invalid one.
 */
export function parseModels(spec: string, validate: (m: string) => unknown): string[] {
  const models = spec.split(',').map((s) => s.trim()).filter(Boolean);
  if (models.length === 0) throw new Error('--models: no model spec given');
  const seen = new Set<string>();
  for (const m of models) {
    if (seen.has(m)) throw new Error(`--models: "${m}" is named twice`);
    seen.add(m);
    try {
      validate(m);
    } catch (e) {
      throw new Error(`--models: ${(e as Error).message}`);
    }
  }
  return models;
}

/** The most samples per task `--samples` accepts (a study of 30 tasks × 3 conditions × 100 samples is 9,000 runs). */
export const MAX_SAMPLES = 100;

/**
 * Parses `--samples K`: independent generations per task, an integer 1..MAX_SAMPLES (default 1).
 * @throws Error naming `--samples` and the value when it is not such an integer.
 */
export function parseSamples(spec: string | undefined): number {
  if (spec === undefined || spec === '') return 1;
  const k = Number(spec);
  if (!Number.isInteger(k) || k < 1 || k > MAX_SAMPLES) throw new Error(`--samples: "${spec}" is not an integer from 1 to ${MAX_SAMPLES}`);
  return k;
}

/**
 * Tasks in flight at once by default (`--concurrency`). Spark jobs are bounded apart from this,
 * by the workers' Spark jobs at once (LOCKIN_SPARK_CONCURRENCY, default warm one per two cores:
 * activities/common/sparkConcurrency.ts), and a task's own steps wait on each other (pytest, then
 * its executions, then its labels), so with as many tasks in flight as Spark jobs at once a job
 * place often idled while another ran a task's last step (the three-task SF=1 bench, two jobs at
 * once then: 110 s of q98's steps alone at the end). Four keeps the Spark queue full for up to two
 * jobs at once; the extra tasks' activities wait in the Spark queue and hold no memory. Model calls of live models are
 * bounded by their own queue and rate limit (README "Ports, logs, state").
 */
export const DEFAULT_TASK_CONCURRENCY = 4;

/**
 * Parses `--concurrency`: a positive integer, else Error naming the option and the value.
 */
export function parseTaskConcurrency(value: string): number {
  const n = /^\s*[0-9]+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1) throw new Error(`--concurrency: "${value}" is not a positive integer (tasks in flight at once)`);
  return n;
}

export function buildStudyInput(o: Partial<StudyInput> & { studyId: string }): StudyInput {
  return {
    tasks: [...STUDY_TASKS],
    conditions: parseConditions(undefined),
    model: defaultModel(),
    params: STUDY_MODEL_PARAMS,
    scale: 1,
    settings: DEFAULT_SPARK_SETTINGS,
    sparkMode: sparkModeFromEnv(),
    sparkJit: sparkJitFromEnv(),
    taskConcurrency: DEFAULT_TASK_CONCURRENCY,
    limits: { pytestTimeoutMs: 300_000, executionTimeoutMs: 900_000, memoryMb: 4096 }, // 4g heap + 4096 + 1024 resident + 1024 scratch: two slots fit 24 GiB
    report: true,
    ...o,
  };
}

/**
 * Parses a scale factor given on the command line or in LOCKIN_SCALE, once.
 * Returns the positive finite number; throws Error naming `source` (e.g. "--scale") and the
 * value when it is not one ("abc", "0", "-1", "").
 */
export function parseScale(value: string, source = '--scale'): number {
  const n = /^\s*[0-9]*\.?[0-9]+(e[-+]?[0-9]+)?\s*$/i.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${source}: "${value}" is not a positive number (a TPC-DS scale factor such as 1 or 0.01)`);
  return n;
}

/** The scale option's default and its source: LOCKIN_SCALE when set, else 1. */
export function scaleDefault(): { value: string; source: string } {
  return process.env.LOCKIN_SCALE !== undefined ? { value: process.env.LOCKIN_SCALE, source: 'LOCKIN_SCALE' } : { value: '1', source: '--scale' };
}

/** How assertCorpusValid runs the corpus check: the tasks' problems, "taskId: file field: message". */
export type CorpusCheckRunner = (input: { scale: number; tasks: string[] }) => Promise<{ problems: string[] }>;

/**
 * The `lockin tasks check` rules (activities/tasks/corpus.ts checkCorpus: schema, passages, ids,
 * SQL leak, tables and types against the database manifest, reference schema) for the tasks a
 * study is about to run, before its first model call, run by the corpusCheck workflow (`run`:
 * studyRunner.ts runCorpusCheck; tests run it on their own Temporal environment). Throws Error listing every problem (file,
 * field, message) when one task has any; returns quietly otherwise.
 */
export async function assertCorpusValid(scale: number, taskIds: readonly string[], run: CorpusCheckRunner): Promise<void> {
  const { problems } = await run({ scale, tasks: [...new Set(taskIds)] });
  if (!problems.length) return;
  throw new Error(`the task corpus has ${problems.length} problem(s) (\`lockin tasks check\` rules); nothing was started:\n${problems.map((p) => `  ${p}`).join('\n')}`);
}

/** The generation-setting options of `lockin study run` and `study main` as commander gives them. */
export interface GenerationOpts {
  maxTokens?: string;
  temperature?: string;
  topP?: string;
  contextSize?: string;
  /** `--stop`, repeatable. */
  stop?: string[];
  /** `--model-settings <file>`. */
  modelSettings?: string;
}

/** Adds the generation-setting options (GenerationOpts) to a command. */
export function addGenerationOptions<T extends { option(flags: string, description: string, ...rest: any[]): T }>(cmd: T): T {
  return cmd
    .option('--max-tokens <n>', `the most tokens one reply may have (default ${STUDY_MODEL_PARAMS.maxTokens}, the paper's)`)
    .option('--temperature <t>', `sampling temperature 0..1 (default ${STUDY_MODEL_PARAMS.temperature})`)
    .option('--top-p <p>', `nucleus sampling (0, 1] (default ${STUDY_MODEL_PARAMS.topP}; recorded, not sent, for Anthropic)`)
    .option('--context-size <n>', "a local model's context in tokens, prompt and reply (default: its training context, at most 32768)")
    .option('--stop <text>', 'a stop sequence (repeatable; default none)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--model-settings <file>', 'YAML or JSON: per model spec, its settings (maxTokens, temperature, topP, longContext, contextSize, stop) over the flags');
}

/**
 * Parses the generation-setting flags into settings (protocol/settings.ts ModelSettingsSchema).
 * @throws Error naming the flag and the value when it is not a number in range.
 */
export function parseGenerationFlags(o: GenerationOpts): ModelSettings {
  const num = (v: string | undefined) => (v === undefined ? undefined : /^\s*[0-9]*\.?[0-9]+(e[-+]?[0-9]+)?\s*$/i.test(v) ? Number(v) : NaN);
  const raw = { maxTokens: num(o.maxTokens), temperature: num(o.temperature), topP: num(o.topP), contextSize: num(o.contextSize), stop: o.stop };
  const flags: Record<string, string> = { maxTokens: '--max-tokens', temperature: '--temperature', topP: '--top-p', contextSize: '--context-size', stop: '--stop' };
  const given = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
  const r = ModelSettingsSchema.safeParse(given);
  if (!r.success) {
    const i = r.error.issues[0];
    const key = String(i.path[0]);
    throw new Error(`${flags[key]}: "${(o as Record<string, unknown>)[key === 'stop' ? 'stop' : key]}" is not valid (${i.message})`);
  }
  return r.data;
}

/**
 * Reads a `--model-settings` file: a YAML (or JSON) mapping of model spec to settings.
 * @param models the study's model specs: every key must be one of them.
 * @returns settings per spec.
 * @throws Error naming the file and the field (`<spec>.<setting>`) for unreadable YAML, a spec the
 *   study does not run, an unknown setting or a value out of range.
 */
export function readModelSettingsFile(file: string, models: readonly string[]): Record<string, ModelSettings> {
  let doc: unknown;
  try {
    doc = YAML.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`--model-settings ${file}: ${(e as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`--model-settings ${file}: expected a mapping of model spec to settings`);
  const out: Record<string, ModelSettings> = {};
  for (const [spec, value] of Object.entries(doc as Record<string, unknown>)) {
    if (!models.includes(spec)) throw new Error(`--model-settings ${file}: "${spec}" is not a model of this study (${models.join(', ')})`);
    const r = ModelSettingsSchema.safeParse(value ?? {});
    if (!r.success) {
      const i = r.error.issues[0];
      throw new Error(`--model-settings ${file} (${[spec, ...i.path.map(String), ...((i as { keys?: string[] }).keys ?? [])].join('.')}): ${i.message}`);
    }
    out[spec] = r.data;
  }
  return out;
}

/**
 * The study input's generation settings: `params` of the first model and, for a model matrix
 * whose settings differ per model, `modelParams`. The flags apply to every model; a
 * `--model-settings` entry applies over them to its model.
 * @throws Error from parseGenerationFlags or readModelSettingsFile.
 */
export function generationSettings(o: GenerationOpts, models: readonly string[]): Pick<StudyInput, 'params' | 'modelParams'> {
  const flags = parseGenerationFlags(o);
  const perModel = o.modelSettings ? readModelSettingsFile(o.modelSettings, models) : {};
  const resolved = Object.fromEntries(models.map((m) => [m, resolveModelParams({ ...flags, ...perModel[m] })]));
  const params = resolved[models[0]];
  const differ = models.some((m) => canonicalJson(resolved[m]) !== canonicalJson(params));
  return differ && models.length > 1 ? { params, modelParams: resolved } : { params };
}
