/**
 * Which task queues a `lockin worker` process serves ("Scale out by adding workers", README;
 * infra/README.md "Which task queue needs which machine"): all of them by default, or the ones
 * named by `--queues` / LOCKIN_WORKER_QUEUES, so that Spark machines serve only `lockin-spark`
 * and a machine with a provider's key only that provider's model queue.
 */
import { MODEL_QUEUES, PROVIDER_MODEL_QUEUES, QUEUES } from '../protocol/queues';

/** Every queue, in the order createWorkers builds them: default, the model queues, Spark. */
export const ALL_QUEUES: readonly string[] = [QUEUES.default, ...MODEL_QUEUES, QUEUES.spark];

/** Short names accepted beside the full queue names. */
const SHORT: Record<string, readonly string[]> = {
  all: ALL_QUEUES,
  default: [QUEUES.default],
  spark: [QUEUES.spark],
  model: [QUEUES.model],
  models: MODEL_QUEUES,
  anthropic: [PROVIDER_MODEL_QUEUES.anthropic],
  openai: [PROVIDER_MODEL_QUEUES.openai],
  local: [PROVIDER_MODEL_QUEUES.local],
};

/**
 * Parses a comma-separated queue selection.
 * Input: e.g. "spark", "default,models", "lockin-model-anthropic"; short names: all, default,
 * spark, model (replay corpora), models (every model queue), anthropic, openai, local (GGUF
 * models on this machine); or full names.
 * Output: the selected full queue names, without duplicates, in ALL_QUEUES order.
 * @throws Error naming `source` (the option or variable) and the unknown name, or when empty.
 */
export function parseQueueSelection(text: string, source = '--queues'): string[] {
  const names = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (!names.length) throw new Error(`${source}: no queue named (one or more of ${Object.keys(SHORT).join(', ')} or full queue names)`);
  const chosen = new Set<string>();
  for (const n of names) {
    const qs = SHORT[n] ?? (ALL_QUEUES.includes(n) ? [n] : null);
    if (!qs) throw new Error(`${source}: unknown queue "${n}" (use ${Object.keys(SHORT).join(', ')} or one of ${ALL_QUEUES.join(', ')})`);
    qs.forEach((q) => chosen.add(q));
  }
  return ALL_QUEUES.filter((q) => chosen.has(q));
}
