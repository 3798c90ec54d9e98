/**
 * The claude-code backend (`claude-code[:<model-id>]`): one protocol-level call is one Claude Code
 * agent session, the paper's harness ("Claude Code (July 2026) was configured with
 * claude-sonnet-4-6[1m], temperature 1.0, and top-p 1.0"), run with npm's
 * @anthropic-ai/claude-agent-sdk (which starts the Claude Code binary its platform package ships;
 * it honours ANTHROPIC_BASE_URL).
 *
 * A session works in a fresh temporary folder holding exactly what the stage may see
 * (claudeCodePolicy.ts: task.yaml, the condition's artifacts and feedback, prior structured
 * outputs; never references, gold, SQL or other conditions' folders). Its tools are Claude Code's
 * Read, Write and Edit, and (revisions that receive pytest failures) lockin's run_pytest, which
 * runs the folder's own test_solution.py through lockin's sandbox (activities/execution/pytest.ts).
 * Every tool use is decided by claudeCodePolicy.ts decideToolUse before Claude Code runs it: a
 * path outside the folder, a tool not offered, or a write to a file the stage may not change
 * (Test-Guided's plan.md, Contract-First's contract) is refused and recorded
 * (`session.refused`; a refused write is a permission deviation, activities/store/edits.ts).
 * Limits: turns (the SDK's maxTurns), tokens over the whole session (counted from each API
 * reply's usage; the session is stopped when it passes), and a wall clock.
 *
 * The answer is the files the session left in the folder that it may write (the gateway checks
 * them against the stage's reply protocol) and, for JSON stages, the session's final text. The
 * request recorded and hashed for the cache is the whole session's input (AgentRequest: prompt,
 * folder, permissions, tools, limits, harness versions): a cached session is replayed whole,
 * never paid twice. Claude Code sends no temperature or top_p (the API's default, 1.0, is the
 * paper's setting): the notes say so.
 *
 * The SDK is an ES module; the session runs in its own Node process (claudeCode.bridge.mjs)
 * forked with an IPC channel, so the worker (CommonJS) and jest never load it.
 */
import { fork, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { REPO_ROOT } from '../../common/paths';
import { studyDir } from '../../common/layout';
import { clipBytes } from '../../common/bytes';
import { DEFAULT_SPARK_SETTINGS, SparkSettingsSchema, type SparkMode, type SparkSettings } from '../../../protocol/settings';
import type { TokenUsage } from '../../../protocol/types';
import { runPytest } from '../../execution/pytest';
import { callCost } from '../pricing';
import { renderTemplate } from '../prompts';
import { loadTaskSpec } from '../stageInputs';
import { LONG_CONTEXT_BETA } from './anthropic';
import { decideToolUse, FILE_TOOLS, PYTEST_TOOL, sessionFiles, sessionLimits, sessionPlan, writeSessionFolder, type SessionLimits } from './claudeCodePolicy';
import { BackendError, ZERO_USAGE, type AgentRequest, type AgentSession, type BackendReply, type ModelBackend, type PreparedRequest, type RefusedToolUse } from './types';

/** The session process (a plain ES module, read from the sources like the prompt templates). */
export const BRIDGE_FILE = path.join(REPO_ROOT, 'activities', 'model', 'backends', 'claudeCode.bridge.mjs');

/** How one pytest run inside a session is made: the folder, a label for its files, the study (its Spark settings). */
export type SessionPytest = (folder: string, label: string, studyId: string, signal?: AbortSignal) => Promise<{ passed: boolean; summary: string; text: string }>;

/** What the backend needs from the world (tests replace runPytest; no Spark where a stub will do). */
export interface ClaudeCodeDeps {
  runPytest: SessionPytest;
  bridgeFile: string;
  /** Environment read for the API's address and key (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN). */
  env: NodeJS.ProcessEnv;
}

/** The installed versions of the Agent SDK and of the Claude Code it ships (recorded in every request). */
export function harnessVersions(): { agentSdk: string; claudeCode: string } {
  const read = (p: string): Record<string, unknown> => {
    try {
      return JSON.parse(fs.readFileSync(p, 'utf8'));
    } catch {
      return {};
    }
  };
  const sdk = read(path.join(REPO_ROOT, 'node_modules', '@anthropic-ai', 'claude-agent-sdk', 'package.json'));
  const manifest = read(path.join(REPO_ROOT, 'node_modules', '@anthropic-ai', 'claude-agent-sdk', 'manifest.json'));
  return { agentSdk: String(sdk.version ?? 'not installed'), claudeCode: String(manifest.version ?? sdk.claudeCodeVersion ?? 'unknown') };
}

/** The study's Spark settings and mode from runs/<id>/study.json (defaults when there is none: a gateway test). */
function studySpark(studyId: string): { settings: SparkSettings; sparkMode?: SparkMode } {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(studyDir(studyId), 'study.json'), 'utf8')) as { settings?: unknown; sparkMode?: SparkMode };
    return { settings: SparkSettingsSchema.parse(m.settings ?? {}), ...(m.sparkMode ? { sparkMode: m.sparkMode } : {}) };
  } catch {
    return { settings: DEFAULT_SPARK_SETTINGS };
  }
}

/**
 * lockin's pytest on a session folder: its test_solution.py against its solution.py, in the
 * sandbox, with the study's Spark settings (LOCKIN_AGENT_PYTEST_TIMEOUT_MS, default 300000).
 * The text the model receives is the failure summary a revision prompt receives.
 */
export const sandboxPytest: SessionPytest = async (folder, label, studyId) => {
  const outDir = path.join(path.dirname(folder), 'pytest');
  const { settings, sparkMode } = studySpark(studyId);
  const timeoutMs = Number(process.env.LOCKIN_AGENT_PYTEST_TIMEOUT_MS) || 300_000;
  const o = await runPytest({ dir: folder, outDir, settings, timeoutMs, runLabel: label, ...(sparkMode ? { sparkMode } : {}) });
  const text = fs.existsSync(o.failuresFile) ? fs.readFileSync(o.failuresFile, 'utf8') : '(no failure summary)';
  const c = o.counts;
  const summary = `${o.passed ? 'passed' : 'not passed'}: ${c.passed} passed, ${c.failed} failed, ${c.errored} errors, ${c.collectionFailed} collection errors (${o.status})`;
  return { passed: o.passed, summary, text: `${summary}\n\n${clipBytes(text, 32 * 1024)}` };
};

/** The text the preflight checks: the system prompt, the user message, and every file of the folder. Pure. */
export function agentRequestText(request: AgentRequest): string {
  const files = Object.entries(request.body.files).map(([name, content]) => `=== ${name} ===\n${content}`);
  return [request.body.system, ...request.body.messages.map((m) => m.content), ...files].join('\n\n');
}

/** What a file of the folder is, for the session prompt. */
function describe(name: string): string {
  if (name === 'task.yaml') return 'the task (its prompt and, where this stage sees them, the input schemas: names, types, nullability; no rows)';
  if (name === 'pytest_failures.md') return 'the pytest failures of your current artifacts';
  if (name === 'contract_failures.md') return "the failures of the frozen contract suite (the suite itself is not shown)";
  if (name === 'judge_evidence.json') return 'the obligations and the execution evidence';
  if (name.startsWith('prior/')) return 'the validated output of a prior stage';
  return 'your current artifact';
}

/**
 * Builds the session request of one call (AgentRequest): the stage's rendered prompt with the
 * session folder section (template agent-session), the folder's files, the permissions, tools and
 * limits. @throws InputError for a bad spec option or a missing input file.
 */
function prepareSession(spec: { model: string; params: Readonly<Record<string, string>> }, req: Parameters<ModelBackend['prepare']>[1], prompt: { system: string; user: string }): PreparedRequest<AgentRequest> {
  const limits = sessionLimits(spec.params);
  const plan = sessionPlan(req, loadTaskSpec(req.taskId));
  const pytest = plan.pytest && limits.pytest;
  const tools = [...FILE_TOOLS, ...(pytest ? [PYTEST_TOOL] : [])];
  const folder = renderTemplate('agent-session', {
    files: Object.keys(plan.files).sort().map((n) => `- \`${n}\`: ${describe(n)}`).join('\n'),
    writable: plan.writable.length ? plan.writable.map((n) => `\`${n}\``).join(', ') : 'no file (your answer is your final message)',
    tools: tools.map((t) => (t === PYTEST_TOOL ? '`run_pytest` (pytest on test_solution.py against solution.py in the sandbox)' : `\`${t}\``)).join(', '),
    maxTurns: String(limits.maxTurns),
  });
  const betas = req.params.longContext ? [LONG_CONTEXT_BETA] : [];
  const notes = [
    `temperature ${req.params.temperature} and top_p ${req.params.topP} are the study's intended settings and are not sent: Claude Code sends neither (the API default for both is 1.0)`,
    `one call = one Claude Code session: at most ${limits.maxTurns} turns, ${limits.sessionTokens} tokens, ${Math.round(limits.timeoutMs / 1000)} s; max_tokens ${req.params.maxTokens} per API reply (CLAUDE_CODE_MAX_OUTPUT_TOKENS)`,
  ];
  if (betas.length) notes.push(`long context requested with the SDK's betas: ${LONG_CONTEXT_BETA}`);
  if (plan.pytest && !limits.pytest) notes.push('run_pytest withdrawn by the spec option pytest=off');
  const request: AgentRequest = {
    backend: 'claude-code',
    // The API's address is part of the session's identity: a stand-in's session is never served from the cache as the API's.
    endpoint: `claude-agent-sdk query() → POST ${(process.env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com').replace(/\/+$/, '')}/v1/messages`,
    headers: {},
    body: {
      model: spec.model,
      max_tokens: req.params.maxTokens,
      system: prompt.system,
      messages: [{ role: 'user', content: `${prompt.user.trimEnd()}\n\n${folder.text}` }],
      files: plan.files,
      writable: plan.writable,
      tools,
      max_turns: limits.maxTurns,
      session_tokens: limits.sessionTokens,
      betas,
      harness: harnessVersions(),
    },
  };
  return { request, notes, local: { workDir: req.workDir, studyId: req.studyId, stage: req.stage } };
}

/** The environment of the Claude Code process: the API's address and key, a private config folder, no telemetry. */
function sessionEnv(env: NodeJS.ProcessEnv, configDir: string, maxTokens: number): Record<string, string> {
  const out: Record<string, string> = {
    PATH: env.PATH ?? '/usr/bin:/bin',
    HOME: configDir,
    CLAUDE_CONFIG_DIR: configDir,
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_MAX_OUTPUT_TOKENS: String(maxTokens),
    CLAUDE_AGENT_SDK_CLIENT_APP: 'lockin/0.1.0',
  };
  for (const k of ['ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN']) if (env[k]) out[k] = env[k]!;
  return out;
}

/** Sum of usages. Pure. */
function addUsage(rows: TokenUsage[]): TokenUsage {
  return rows.reduce((a, u) => ({ inputTokens: a.inputTokens + u.inputTokens, outputTokens: a.outputTokens + u.outputTokens, cacheReadTokens: a.cacheReadTokens + u.cacheReadTokens, cacheWriteTokens: a.cacheWriteTokens + u.cacheWriteTokens }), { ...ZERO_USAGE });
}

const tokensOf = (u: TokenUsage) => u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;

/** An HTTP status named in an error text ("API Error: 401 …"), or null. Pure. */
export function statusInText(text: string): number | null {
  const m = /\b(?:API Error|status)[: ]+(\d{3})\b/i.exec(text) ?? /\b([45]\d\d)\b/.exec(text);
  return m ? Number(m[1]) : null;
}

interface SdkMessage {
  type: string;
  subtype?: string;
  session_id?: string;
  model?: string;
  message?: { id?: string; model?: string; content?: { type: string; text?: string; name?: string; id?: string; input?: unknown }[] };
  result?: string;
  is_error?: boolean;
  total_cost_usd?: number;
  errors?: string[];
}

/**
 * Runs one session (the forked bridge) in `folder` and gathers its record.
 * @throws BackendError when the session could not start or failed before its first reply.
 */
async function runSession(prepared: PreparedRequest<AgentRequest>, deps: ClaudeCodeDeps, signal: AbortSignal | undefined): Promise<BackendReply> {
  const body = prepared.request.body;
  const limits: SessionLimits = { maxTurns: body.max_turns, sessionTokens: body.session_tokens, timeoutMs: sessionLimits({}, deps.env).timeoutMs, pytest: body.tools.includes(PYTEST_TOOL) };
  if (!deps.env.ANTHROPIC_API_KEY && !deps.env.ANTHROPIC_AUTH_TOKEN) throw new BackendError('ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) is not set: a claude-code session needs it (ANTHROPIC_BASE_URL is honoured)', null, false, []);
  if (!fs.existsSync(deps.bridgeFile)) throw new BackendError(`the session process ${deps.bridgeFile} is missing`, null, false, []);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-session-'));
  const folder = path.join(root, 'work');
  const configDir = path.join(root, 'claude-config');
  fs.mkdirSync(folder);
  fs.mkdirSync(configDir);
  writeSessionFolder(folder, body.files);
  const started = Date.now();
  const transcript: unknown[] = [];
  const refused: RefusedToolUse[] = [];
  const pytestRuns: AgentSession['pytestRuns'] = [];
  const usageByTurn: TokenUsage[] = [];
  const toolCounts: Record<string, number> = {};
  const stderr: string[] = [];
  const seenMessages = new Set<string>();
  let toolUses = 0;
  let stop: string | null = null;
  let result: SdkMessage | null = null;
  let sessionId: string | null = null;
  let responseModel = body.model;
  let lastText = '';
  let failure: string | null = null;
  const plan = { writable: body.writable, pytest: limits.pytest };

  let child: ChildProcess | null = null;
  try {
    // Its own process group (detached), so that the session process and the Claude Code it starts end together (killGroup).
    child = fork(deps.bridgeFile, [], { cwd: folder, env: sessionEnv(deps.env, configDir, body.max_tokens), stdio: ['ignore', 'ignore', 'pipe', 'ipc'], detached: true });
    const proc = child;
    const send = (m: unknown) => {
      if (proc.connected) proc.send(m as never);
    };
    /**
     * Stops the session. A limit (`hard` false): the reply in flight is the last one; each of its
     * tool uses is denied with `continue: false`, so Claude Code makes no further request (a reply
     * without a tool use ends the session by itself); the process is ended 30 s later if it is
     * still there. The wall clock or a cancelled activity (`hard`): the session is aborted and its
     * process group ended.
     */
    const stopSession = (why: string, hard: boolean) => {
      if (stop) return;
      stop = why;
      if (hard) {
        send({ type: 'abort', reason: why });
        setTimeout(() => killGroup(proc, 'SIGTERM'), 500).unref();
      }
      setTimeout(() => killGroup(proc, 'SIGKILL'), hard ? 5_000 : 30_000).unref();
    };
    const timer = setTimeout(() => stopSession('timeout', true), limits.timeoutMs);
    const onAbort = () => stopSession('cancelled', true);
    signal?.addEventListener('abort', onAbort);
    proc.stderr?.on('data', (d: Buffer) => stderr.push(d.toString()));
    await new Promise<void>((resolve) => {
      proc.on('message', (raw: unknown) => {
        const msg = raw as { type: string; id?: number; message?: SdkMessage; event?: { type: string; message?: { usage?: Record<string, number> }; usage?: Record<string, number> }; tool?: string; input?: Record<string, unknown>; name?: string; text?: string };
        const turn = usageByTurn.length;
        switch (msg.type) {
          case 'message': {
            const m = msg.message!;
            transcript.push(m);
            if (m.type === 'system' && m.subtype === 'init') {
              sessionId = m.session_id ?? null;
              if (m.model) responseModel = m.model;
            }
            if (m.type === 'assistant') {
              if (m.message?.model) responseModel = m.message.model;
              for (const b of m.message?.content ?? []) {
                if (b.type === 'tool_use' && b.id && !seenMessages.has(b.id)) {
                  seenMessages.add(b.id);
                  toolUses += 1;
                  toolCounts[b.name ?? '?'] = (toolCounts[b.name ?? '?'] ?? 0) + 1;
                  // Every attempt is judged as it is asked, whoever stops it: lockin's hook (below),
                  // or Claude Code itself before the hook runs (a tool it does not have, a file
                  // that does not exist), so that each refused attempt is recorded once.
                  const d = decideToolUse(plan, folder, b.name ?? '?', (b.input ?? {}) as Record<string, unknown>);
                  if (!d.allow) refused.push({ turn, ...d.refusal });
                }
                if (b.type === 'text' && b.text) lastText = b.text;
              }
            }
            if (m.type === 'result') {
              result = m;
              sessionId = m.session_id ?? sessionId;
            }
            break;
          }
          case 'usage': {
            const e = msg.event!;
            if (e.type === 'message_start') {
              const u = e.message?.usage ?? {};
              usageByTurn.push({ inputTokens: u.input_tokens ?? 0, outputTokens: u.output_tokens ?? 0, cacheReadTokens: u.cache_read_input_tokens ?? 0, cacheWriteTokens: u.cache_creation_input_tokens ?? 0 });
            } else if (e.type === 'message_delta' && usageByTurn.length) {
              const last = usageByTurn[usageByTurn.length - 1];
              if (typeof e.usage?.output_tokens === 'number') last.outputTokens = e.usage.output_tokens;
            }
            if (tokensOf(addUsage(usageByTurn)) > limits.sessionTokens) stopSession('session_tokens', false);
            break;
          }
          case 'preToolUse': {
            // The enforcement: Claude Code runs the tool only on an allow.
            const d = stop ? ({ allow: false, refusal: { tool: msg.tool ?? '?', target: targetOf(msg.input), kind: 'tool-not-offered', reason: `the session was stopped (${stop})` } } as const) : decideToolUse(plan, folder, msg.tool ?? '?', msg.input ?? {});
            transcript.push({ type: 'lockin_decision', turn, tool: msg.tool, input: msg.input, allow: d.allow, ...(d.allow ? {} : { refusal: d.refusal }) });
            send({ type: 'decision', id: msg.id, allow: d.allow, reason: d.allow ? 'allowed by the session permissions' : `refused by lockin: ${d.refusal.reason}`, stop: !!stop });
            break;
          }
          case 'tool': {
            const label = `session-${pytestRuns.length + 1}`;
            deps.runPytest(folder, label, prepared.local?.studyId ?? '', signal).then(
              (r) => {
                pytestRuns.push({ turn, passed: r.passed, summary: r.summary });
                transcript.push({ type: 'lockin_pytest', turn, label, passed: r.passed, summary: r.summary });
                send({ type: 'toolResult', id: msg.id, text: r.text, isError: false });
              },
              (e: unknown) => {
                const text = `pytest could not run: ${(e as Error).message}`;
                pytestRuns.push({ turn, passed: false, summary: text });
                send({ type: 'toolResult', id: msg.id, text, isError: true });
              },
            );
            break;
          }
          case 'stderr':
            stderr.push(msg.text ?? '');
            break;
          case 'error':
            failure = String((msg as { message?: unknown }).message ?? 'the session process failed');
            break;
          default:
            break;
        }
      });
      proc.on('exit', (code, sig) => {
        if (!result && !failure && !stop) failure = `the session process exited (${code ?? sig}) before the session ended: ${stderr.join('').slice(-500)}`;
        resolve();
      });
      proc.on('error', (e) => {
        failure = `the session process could not start: ${e.message}`;
        resolve();
      });
      send({ type: 'start', prompt: body.messages[0].content, options: { cwd: folder, model: body.model, system: body.system, maxTurns: body.max_turns, betas: body.betas, tools: [...FILE_TOOLS], pytest: limits.pytest, env: sessionEnv(deps.env, configDir, body.max_tokens) } });
    });
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    if (signal?.aborted) throw new Error('the model call was cancelled');

    const res = result as SdkMessage | null;
    const errorText = failure ?? (res?.is_error ? `${res.subtype ?? 'error'}: ${res.result ?? (res.errors ?? []).join('; ')}` : null);
    if (usageByTurn.length === 0 && stop === 'timeout') {
      // No reply in the whole wall clock (an API that keeps failing, which Claude Code retries): nothing was paid.
      throw new BackendError(`claude-code session had no reply within ${Math.round(limits.timeoutMs / 1000)} s: ${(errorText ?? stderr.join('')).slice(-500)}`, null, true, [{ attempt: 1, status: null, error: 'timeout before the first reply', retryable: true, backoffMs: 0 }]);
    }
    if (usageByTurn.length === 0 && errorText && !stop) {
      const status = statusInText(errorText);
      const retryable = status === null || status === 429 || status === 408 || status >= 500;
      throw new BackendError(`claude-code session failed before its first reply: ${errorText.slice(0, 500)}`, status, retryable, [{ attempt: 1, status, error: errorText.slice(0, 500), retryable, backoffMs: 0 }]);
    }
    const finalStop = stop ?? (res?.subtype === 'error_max_turns' ? 'max_turns' : res?.subtype === 'success' ? 'end_turn' : res ? `error: ${res.subtype}` : `error: ${errorText ?? 'no result'}`);
    const usage = addUsage(usageByTurn);
    const session: AgentSession = {
      sessionId,
      stop: finalStop,
      turns: usageByTurn.length,
      toolUses,
      toolCounts,
      refused,
      pytestRuns,
      usageByTurn,
      harnessCostUsd: typeof res?.total_cost_usd === 'number' ? res.total_cost_usd : null,
      limits: { maxTurns: limits.maxTurns, sessionTokens: limits.sessionTokens, timeoutMs: limits.timeoutMs },
      durationMs: Date.now() - started,
      transcript,
    };
    const text = typeof res?.result === 'string' && res.subtype === 'success' ? res.result : lastText;
    return { text, stopReason: finalStop, responseModel, responseId: sessionId, usage, retries: 0, attempts: [], rateLimitWaitMs: 0, files: sessionFiles(folder, body.writable), session };
  } finally {
    if (child) killGroup(child, 'SIGKILL');
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

/** Signals the session's process group (the session process and the Claude Code it started); a group already gone is no error. */
function killGroup(proc: ChildProcess, sig: NodeJS.Signals): void {
  if (proc.pid === undefined) return;
  try {
    process.kill(-proc.pid, sig);
  } catch {
    // the group has ended
  }
}

/** The file or command a tool input names, for the refusal record. */
function targetOf(input: unknown): string {
  const o = (input ?? {}) as Record<string, unknown>;
  const v = o.file_path ?? o.command ?? o.url ?? o.pattern ?? o.path;
  return typeof v === 'string' ? v : JSON.stringify(o).slice(0, 200);
}

/** The claude-code backend with its world replaced where given (tests: a stub pytest). */
export function createClaudeCodeBackend(over: Partial<ClaudeCodeDeps> = {}): ModelBackend<AgentRequest> {
  const deps = (): ClaudeCodeDeps => ({ runPytest: sandboxPytest, bridgeFile: BRIDGE_FILE, env: process.env, ...over });
  return {
    live: true,
    idempotencyHeader: null, // the Messages API takes no idempotency key (sends.ts)
    promptPartials: { '_reply-artifacts': '_reply-agent-files' },
    prepare: (spec, req, prompt) => prepareSession(spec, req, prompt),
    requestText: agentRequestText,
    answer: async (prepared, opts) => ({ reply: await runSession(prepared, deps(), opts.signal), provenance: null }),
    price: (reply, spec) => {
      const rows = reply.session?.usageByTurn ?? [reply.usage];
      let usd = 0;
      for (const u of rows) {
        const c = callCost(reply.responseModel || spec.model, u);
        if (c.costUsd === null) return c;
        usd += c.costUsd;
      }
      return { costUsd: Math.round(usd * 1e6) / 1e6, note: `a session of ${rows.length} API replies, each priced` };
    },
  };
}

/** The claude-code backend (`claude-code[:<model-id>]`). */
export const claudeCodeBackend: ModelBackend<AgentRequest> = createClaudeCodeBackend();
