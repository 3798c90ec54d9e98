/**
 * Cost per call from token usage (docs/protocol.md §6: the paper recorded no token counts;
 * lockin records them and the cost). Prices are USD per million tokens, list prices of the
 * Anthropic API at the time of writing; update the table when prices change (the table's
 * version is recorded with each cost).
 */
import type { TokenUsage } from '../../protocol/types';

export const PRICING_VERSION = '2026-11';

interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/** Model-id prefix -> price; the longest matching prefix wins. */
const PRICES: Record<string, Price> = {
  'claude-sonnet-4': { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
  'claude-opus-4-5': { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
  'claude-opus-4-6': { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
  'claude-opus-4': { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 },
  'claude-haiku-4': { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
};

/** Long-context surcharge of the Sonnet 4 family when a request's input exceeds 200K tokens. */
const LONG_CONTEXT = { threshold: 200_000, prefixes: ['claude-sonnet-4'], inputFactor: 2, outputFactor: 1.5 };

/**
 * USD cost of one call, or null (with a note) for a model id not in the table.
 * @param usage tokens of the call (input excludes cache reads/writes, as the API reports them).
 */
export function callCost(modelId: string, usage: TokenUsage): { costUsd: number | null; note?: string } {
  const key = Object.keys(PRICES)
    .filter((p) => modelId.startsWith(p))
    .sort((a, b) => b.length - a.length)[0];
  if (!key) return { costUsd: null, note: `no price for model ${modelId} in pricing table ${PRICING_VERSION}` };
  const p = PRICES[key];
  const totalInput = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const long = LONG_CONTEXT.prefixes.some((x) => modelId.startsWith(x)) && totalInput > LONG_CONTEXT.threshold;
  const fi = long ? LONG_CONTEXT.inputFactor : 1;
  const fo = long ? LONG_CONTEXT.outputFactor : 1;
  const usd =
    (usage.inputTokens * p.input * fi + usage.cacheWriteTokens * p.cacheWrite * fi + usage.cacheReadTokens * p.cacheRead * fi + usage.outputTokens * p.output * fo) / 1e6;
  return { costUsd: Math.round(usd * 1e6) / 1e6, note: long ? 'long-context pricing (input > 200K tokens)' : undefined };
}
