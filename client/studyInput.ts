/** Builds a StudyInput from CLI options, with the study's recorded defaults (docs/protocol.md §6). */
import { DEFAULT_SPARK_SETTINGS, STUDY_MODEL_PARAMS } from '../protocol/settings';
import { STUDY_TASKS } from '../activities/tasks/schema';
import { CONDITIONS, ConditionId } from '../protocol/conditions';
import type { StudyInput } from '../protocol/inputs';


/** The model used when none is named: the live model with ANTHROPIC_API_KEY, else the replay corpus. */
export function defaultModel(): string {
  return process.env.ANTHROPIC_API_KEY ? 'anthropic:claude-sonnet-4-6' : 'replay:lockin';
}

/** Parses "q1,q4" or "all" into task ids. @throws on an unknown task id (names it). */
export function parseTasks(spec: string | undefined, known: readonly string[] = STUDY_TASKS): string[] {
  if (!spec || spec === 'all') return [...known];
  const ids = spec.split(',').map((s) => s.trim()).filter(Boolean);
  for (const id of ids) if (!known.includes(id)) throw new Error(`--tasks: unknown task "${id}" (known: ${known.join(' ')})`);
  return ids;
}

/** Parses "one-pass,test-guided" or "all". @throws on an unknown condition id. */
export function parseConditions(spec: string | undefined): ConditionId[] {
  if (!spec || spec === 'all') return [...CONDITIONS];
  const ids = spec.split(',').map((s) => s.trim());
  for (const id of ids) if (!(CONDITIONS as readonly string[]).includes(id)) throw new Error(`--conditions: unknown condition "${id}" (one of ${CONDITIONS.join(', ')})`);
  return ids as ConditionId[];
}

/**
 * Parses `--models a,b,c`: model specs (each as `--model`), comma-separated, distinct.
 * @param validate checks one spec (activities/model/spec.ts parseModelSpec); its error is
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

export function buildStudyInput(o: Partial<StudyInput> & { studyId: string }): StudyInput {
  return {
    tasks: [...STUDY_TASKS],
    conditions: [...CONDITIONS],
    model: defaultModel(),
    params: STUDY_MODEL_PARAMS,
    scale: 1,
    settings: DEFAULT_SPARK_SETTINGS,
    taskConcurrency: 2,
    limits: { pytestTimeoutMs: 300_000, executionTimeoutMs: 900_000, memoryMb: 6144 },
    report: true,
    ...o,
  };
}
