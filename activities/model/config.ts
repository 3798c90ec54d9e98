/**
 * Gateway settings from the environment, parsed once per call into a typed object (zod), so a
 * value is never compared as a string.
 *   LOCKIN_MODEL_RPM            requests per minute to one live model, per worker process (default 50; 0 = unlimited)
 *   LOCKIN_MODEL_QUEUE_RPM      model calls per minute started on each model task queue (one per provider) by
 *                               ALL workers together, enforced by the Temporal server (the task
 *                               queue's activity rate limit; default 0 = none). The per-worker
 *                               LOCKIN_MODEL_RPM stays an upper bound. Temporal keeps the value of the
 *                               worker that polled last, so give every worker the same one.
 *   LOCKIN_MODEL_MAX_RETRIES    retries on 429 / 5xx / 529 / connection errors (default 8)
 *   LOCKIN_MODEL_BACKOFF_MS     first backoff delay, doubled per retry with jitter (default 2000)
 *   LOCKIN_MODEL_BACKOFF_MAX_MS cap of one backoff delay (default 60000)
 *   LOCKIN_MODEL_TIMEOUT_MS     per-request timeout (default 600000; MODEL_CALL allows 15 min per activity)
 */
import { z } from 'zod';
import { InputError } from '../common/errors';

const int = (def: number) => z.coerce.number().int().min(0).default(def);

export const GatewayConfig = z.object({
  rpm: int(50),
  queueRpm: int(0),
  maxRetries: int(8),
  backoffMs: int(2000),
  backoffMaxMs: int(60_000),
  timeoutMs: int(600_000),
});
export type GatewayConfig = z.infer<typeof GatewayConfig>;

/**
 * Reads the gateway settings.
 * @throws InputError naming the variable when a value is not a non-negative integer.
 */
export function gatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const raw = {
    rpm: env.LOCKIN_MODEL_RPM || undefined,
    queueRpm: env.LOCKIN_MODEL_QUEUE_RPM || undefined,
    maxRetries: env.LOCKIN_MODEL_MAX_RETRIES || undefined,
    backoffMs: env.LOCKIN_MODEL_BACKOFF_MS || undefined,
    backoffMaxMs: env.LOCKIN_MODEL_BACKOFF_MAX_MS || undefined,
    timeoutMs: env.LOCKIN_MODEL_TIMEOUT_MS || undefined,
  };
  const out = GatewayConfig.safeParse(raw);
  if (!out.success) {
    const names: Record<string, string> = { rpm: 'LOCKIN_MODEL_RPM', queueRpm: 'LOCKIN_MODEL_QUEUE_RPM', maxRetries: 'LOCKIN_MODEL_MAX_RETRIES', backoffMs: 'LOCKIN_MODEL_BACKOFF_MS', backoffMaxMs: 'LOCKIN_MODEL_BACKOFF_MAX_MS', timeoutMs: 'LOCKIN_MODEL_TIMEOUT_MS' };
    const i = out.error.issues[0];
    throw new InputError(`must be a non-negative integer (${i.message})`, 'environment', names[String(i.path[0])]);
  }
  return out.data;
}
