/**
 * The model a study asks: its spec as given to `--model`, parsed once into an object, and the
 * sampling parameters of a call. Pure (no Node built-ins): workflows, activities and the CLI
 * parse a spec here and look at the object, never at the spec's text.
 *
 * Grammar of a model spec: `<provider>[:<model>][?<name>=<value>[&…]]`
 *   anthropic[:<model-id>]   the Messages API; no model id = the paper's model (claude-sonnet-4-6)
 *   openai:<model-id>        an OpenAI-compatible chat-completions server (OPENAI_BASE_URL,
 *                            OPENAI_API_KEY); the model id is required
 *   replay:<dir>             stored reply files (each states its provenance): <dir> absolute, or
 *                            with a '/' relative to the repository, or a bare name under replay/
 *                            ("replay:lockin" = replay/lockin; activities/model/backends/replay.ts)
 *   local[:<path-or-name>]   a GGUF model run on the worker's machine with node-llama-cpp
 *                            (activities/model/backends/local.ts): a path (absolute, or with a '/'
 *                            relative to the repository) to a .gguf file, or the name of one in
 *                            <LOCKIN_HOME>/models ("local:gemma3-270m" = models/gemma3-270m.gguf,
 *                            the small base model `npm run setup` installs, and the default)
 *   claude-code[:<model-id>] one protocol-level call = one Claude Code agent session (the paper's
 *                            harness; npm @anthropic-ai/claude-agent-sdk) in a folder holding what
 *                            the stage may see; no model id = claude-sonnet-4-6
 *                            (activities/model/backends/claudeCode.ts)
 * `?name=value` pairs are the backend's own options (`params`): claude-code reads `maxTurns`,
 * `sessionTokens` and `pytest` (activities/model/backends/claudeCodePolicy.ts sessionLimits).
 */

/** Which model backend answers: a model spec as the user wrote it ("anthropic:claude-sonnet-4-6", "replay:lockin"). */
export type ModelSpec = string;

/**
 * A model's generation settings as the study intends them (the paper: temperature 1.0, top-p
 * 1.0, 16,000 tokens at most, the 1M-token context, no stop sequence; protocol/settings.ts
 * STUDY_MODEL_PARAMS). Each backend sends what its API takes and records the rest in the call
 * file's `paramNotes`. The two optional fields are absent unless set, so the manifests of studies
 * recorded before they existed keep their hash.
 */
export interface ModelParams {
  /** Sampling temperature, 0..1. */
  temperature: number;
  /** Nucleus sampling, (0, 1]; not sent to Anthropic (current Claude models reject it beside temperature). */
  topP: number;
  /** The most tokens one reply may have; a reply that reaches it is cut (the call file's `cut`). */
  maxTokens: number;
  /** Request the 1M-token context window (the paper's "[1m]" suffix; an Anthropic request header). */
  longContext: boolean;
  /**
   * The context window in tokens, prompt and reply together, for a backend that sets its own (a
   * local model's llama.cpp context; absent: the model's training context, at most 32,768). A
   * server's context is the server's: not sent, noted.
   */
  contextSize?: number;
  /** Stop sequences: generation ends before any of them (absent or empty: none, the paper's). */
  stop?: string[];
}

/** The model the paper sampled, and the default model id of the `anthropic` provider. */
export const PAPER_MODEL_ID = 'claude-sonnet-4-6';

/** The prefix lockin's Messages API stand-in (infra/messagesStandin.ts) puts before the model name of every reply it scripts, so call files and reports can say no model answered. */
export const STANDIN_MODEL_PREFIX = 'standin-';

/** The name of the local test model `npm run setup` installs (infra/setup.js): Gemma 3 270M, a base model, Q4_K_M. */
export const LOCAL_TEST_MODEL = 'gemma3-270m';

/**
 * The providers a spec may name, each with what its model part must hold. Each has a backend
 * (activities/model/backends/index.ts); a live provider's calls (anthropic and openai over the
 * network, local on the worker's machine) have their own task queue (protocol/queues.ts).
 */
export const PROVIDERS = {
  anthropic: { form: 'anthropic:<model-id>', defaultModel: PAPER_MODEL_ID, modelHint: undefined },
  openai: { form: 'openai:<model-id>', defaultModel: undefined, modelHint: 'openai spec needs a model id, e.g. openai:gpt-4.1 or openai:Qwen/Qwen2.5-Coder-32B-Instruct' },
  replay: { form: 'replay:<dir>', defaultModel: undefined, modelHint: 'replay spec needs a directory, e.g. replay:lockin' },
  local: { form: 'local:<gguf-path-or-name>', defaultModel: LOCAL_TEST_MODEL, modelHint: undefined },
  'claude-code': { form: 'claude-code:<model-id>', defaultModel: PAPER_MODEL_ID, modelHint: undefined },
} as const satisfies Record<string, ProviderRules>;

/** What the grammar knows of one provider. */
interface ProviderRules {
  /** How its spec is written, for error messages. */
  form: string;
  /** The model when the spec names none (undefined: the model part is required). */
  defaultModel: string | undefined;
  /** The error when the model part is missing and there is no default. */
  modelHint: string | undefined;
}

export type Provider = keyof typeof PROVIDERS;

/** A model spec parsed once. */
export interface ParsedModelSpec {
  /** Who answers. */
  provider: Provider;
  /** The provider's model id (anthropic, openai) or the corpus directory as written (replay). */
  model: string;
  /** The backend's own options from `?name=value&…` ({} when none). */
  params: Readonly<Record<string, string>>;
}

/**
 * A spec that does not follow the grammar above. `field` is always "model" (the flag or input
 * field). Named "InputError" like every bad-input error (activities/common/errors.ts,
 * RecordError), so a failed activity's type reads the same whichever check refused the input.
 */
export class ModelSpecError extends Error {
  readonly field = 'model';
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/** The spec of the paper's model: `anthropic:claude-sonnet-4-6`. */
export const PAPER_MODEL_SPEC: ModelSpec = `anthropic:${PAPER_MODEL_ID}`;

/** The replay corpus a study uses without an API key: `replay:lockin`. */
export const DEFAULT_REPLAY_SPEC: ModelSpec = 'replay:lockin';

/**
 * Parses a model spec (grammar in this file's header).
 * @returns provider, model (the provider's default where it has one and none is written) and params.
 * @throws ModelSpecError for an unknown provider, a missing model part, or a malformed `?name=value`.
 */
export function parseModelSpec(spec: ModelSpec): ParsedModelSpec {
  const [head, query, ...rest] = spec.split('?');
  const colon = head.indexOf(':');
  const provider = colon < 0 ? head : head.slice(0, colon);
  const model = colon < 0 ? '' : head.slice(colon + 1).trim();
  if (!Object.hasOwn(PROVIDERS, provider)) {
    const forms = Object.values(PROVIDERS).map((p) => p.form);
    throw new ModelSpecError(`unknown model spec "${spec}" (expected ${forms.slice(0, -1).join(', ')}, or ${forms[forms.length - 1]})`);
  }
  const rules: ProviderRules = PROVIDERS[provider as Provider];
  const chosen = model || rules.defaultModel;
  if (!chosen) throw new ModelSpecError(rules.modelHint ?? `${provider} spec needs a model`);
  if (rest.length > 0) throw new ModelSpecError(`model spec "${spec}": one '?' at most`);
  return { provider: provider as Provider, model: chosen, params: parseSpecParams(spec, query) };
}

/** The `name=value&…` part of a spec. @throws ModelSpecError for a pair without '=' or a repeated name. */
function parseSpecParams(spec: string, query: string | undefined): Readonly<Record<string, string>> {
  const params: Record<string, string> = {};
  if (query === undefined) return params;
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? '' : pair.slice(0, eq).trim();
    if (!name) throw new ModelSpecError(`model spec "${spec}": "${pair}" is not name=value`);
    if (Object.hasOwn(params, name)) throw new ModelSpecError(`model spec "${spec}": "${name}" is given twice`);
    params[name] = pair.slice(eq + 1).trim();
  }
  return params;
}

/** parseModelSpec, or null for a spec that does not parse (for code that must not throw: workflows, reports of old studies). */
export function tryParseModelSpec(spec: ModelSpec): ParsedModelSpec | null {
  try {
    return parseModelSpec(spec);
  } catch {
    return null;
  }
}

/** Whether a spec names a local GGUF model (`local:`). False for a spec that does not parse. */
export function isLocalSpec(spec: ModelSpec): boolean {
  return tryParseModelSpec(spec)?.provider === 'local';
}

/** Whether a spec names a replay corpus (its replies are stored files, not sampled from a model). False for a spec that does not parse. */
export function isReplaySpec(spec: ModelSpec): boolean {
  return tryParseModelSpec(spec)?.provider === 'replay';
}
