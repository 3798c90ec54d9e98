/**
 * The model gateway: the one activity every stage calls (`callModel`).
 *
 * Order of work for one protocol-level call:
 *  1. render the stage's prompt from ONLY what the stage may see (stageInputs.ts, docs/protocol.md §2);
 *  2. preflight leak check of the condition directory and the outgoing request (§3); a leak fails
 *     the call non-retryably and nothing is sent (skipped for `judge`, an evaluation after freeze);
 *  3. the cache (live backends): a verified entry for the same request and draw (sample,
 *     replicate; cache.ts) is returned unpaid;
 *  4. the backend (anthropic or openai with counted retries and an RPM limit, or replay); a
 *     paid request is announced in the ledger before it goes out and completed after, so a
 *     request lost with a killed worker is recognized when the call runs again and its repeat is
 *     counted (ledger.ts, sends.ts: idempotency key, sent as a header where the API takes one);
 *  5. parse the reply protocol, write returned artifacts into workDir;
 *  6. write `<workDir>/calls/NN-<stage>.json` (with the reply's `provenance`, protocol/provenance.ts:
 *     a replay file's front matter, or `generated` for a live model) and a ledger line; return a
 *     small StageResult.
 * A protocol-breaking reply returns ok:false with protocolError (the call still counts).
 * Backend failures throw ApplicationFailure: non-retryable for 400/401/403, a missing replay file
 * or bad input; retryable when transient errors outlast the retries.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { InputError } from '../common/errors';
import type { StageRequest, StageResult, TokenUsage } from '../../protocol/types';
import { preflight, PreflightReport } from '../preflight/preflight';
import { CONDITIONS } from '../../protocol/conditions';
import { callAnthropic, LONG_CONTEXT_BETA } from './backends/anthropic';
import { callOpenAI, openaiBaseUrl } from './backends/openai';
import { readReplay, resolveReplayFile } from './backends/replay';
import { BackendError, BackendReply, BackendRequest, ZERO_USAGE } from './backends/types';
import { cacheGet, cacheKey, cachePut } from './cache';
import { gatewayConfig } from './config';
import { appendLedger, type LedgerLine } from './ledger';
import { beginSend, endSend, OPENAI_IDEMPOTENCY_HEADER, type CallIdentity, type Send } from './sends';
import { callCost, PRICING_VERSION } from './pricing';
import { renderTemplate, TemplateInfo } from './prompts';
import { parseReply } from './reply';
import { parseModelSpec, ModelSpecError, PAPER_MODEL_ID, type ParsedModelSpec } from '../../protocol/model';
import { replayCorpusDir } from '../common/paths';
import { loadTaskSpec, stageVars } from './stageInputs';
import { STAGES } from '../../protocol/stages';
import type { Provenance } from '../../protocol/provenance';
import { callRelPath } from '../../protocol/layout';

export const CALL_FILE_SCHEMA_VERSION = 1;

/** `<workDir>/calls/NN-<stage>.json` (NN = callIndex, two digits). */
export function callFilePath(workDir: string, callIndex: number, stage: string): string {
  return path.join(workDir, callRelPath(callIndex, stage));
}

/**
 * The directories the preflight compares, from the run layout (activities/store/layout.ts):
 * `<task dir>/snapshot` is the shared initial generation, `<task dir>/<condition>` the conditions.
 */
export function preflightLayout(req: Pick<StageRequest, 'workDir' | 'condition'>): { sharedSnapshotDir: string; otherConditionDirs: string[] } {
  const taskDir = path.dirname(path.resolve(req.workDir));
  if (req.condition === 'shared') return { sharedSnapshotDir: path.resolve(req.workDir), otherConditionDirs: CONDITIONS.map((c) => path.join(taskDir, c)) };
  return { sharedSnapshotDir: path.join(taskDir, 'snapshot'), otherConditionDirs: CONDITIONS.filter((c) => c !== req.condition).map((c) => path.join(taskDir, c)) };
}

/** The ledger fields that identify a call (who asked, for which stage, through which backend). */
function ledgerIdentity(req: StageRequest, backend: string, startedAt: string) {
  return {
    at: startedAt,
    studyId: req.studyId,
    taskId: req.taskId,
    condition: req.condition,
    stage: req.stage,
    replicate: req.replicate,
    sample: req.sample ?? 1,
    callIndex: req.callIndex,
    backend,
    model: req.model,
  };
}

/** The Temporal activity context, or null when called outside an activity (tests, CLI). */
function activityContext(): Context | null {
  try {
    return Context.current();
  } catch {
    return null;
  }
}

/** Heartbeats every 10 s while a call is in flight (MODEL_CALL has a 30 s heartbeat timeout). */
function startHeartbeat(ctx: Context | null, details: unknown): () => void {
  if (!ctx) return () => undefined;
  ctx.heartbeat(details);
  const timer = setInterval(() => ctx.heartbeat(details), 10_000);
  return () => clearInterval(timer);
}

function sha256(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

function writeJsonAtomic(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n');
  fs.renameSync(tmp, file);
}

function writeArtifact(file: string, content: string): void {
  if (fs.existsSync(file)) fs.rmSync(file, { force: true }); // a frozen (0444) copy is replaced, not edited
  fs.writeFileSync(file, content);
}

function validate(req: StageRequest): void {
  if (!(STAGES as readonly string[]).includes(req.stage)) throw new InputError(`unknown stage "${req.stage}"`, undefined, 'stage');
  if (!Number.isInteger(req.callIndex) || req.callIndex < 1 || req.callIndex > 99) throw new InputError(`callIndex must be an integer 1..99, got ${req.callIndex}`, undefined, 'callIndex');
  if (req.sample !== undefined && (!Number.isInteger(req.sample) || req.sample < 1)) throw new InputError(`sample must be an integer ≥ 1, got ${req.sample}`, undefined, 'sample');
  if (!req.workDir || !fs.existsSync(req.workDir)) throw new InputError('workDir does not exist', req.workDir, 'workDir');
  const p = req.params;
  if (!p || !(p.maxTokens > 0) || !(p.temperature >= 0 && p.temperature <= 1) || !(p.topP > 0 && p.topP <= 1)) {
    throw new InputError(`params out of range: ${JSON.stringify(p)}`, undefined, 'params');
  }
}

/** The model id a spec sends ('replay' for a replay corpus). */
function modelIdOf(spec: ParsedModelSpec): string {
  return spec.provider === 'replay' ? 'replay' : spec.model;
}

/** The text the preflight checks: every message of the request, the system prompt included. */
function requestText(request: BackendRequest): string {
  return request.backend === 'openai'
    ? request.body.messages.map((m) => m.content).join('\n\n')
    : `${request.body.system}\n\n${request.body.messages.map((m) => m.content).join('\n\n')}`;
}

/** Builds the request as sent (anthropic, openai) or as it would be sent (replay). */
function buildRequest(spec: ParsedModelSpec, req: StageRequest, system: string, user: string, replayPath: string | null): { request: BackendRequest; notes: string[] } {
  const notes: string[] = [];
  if (spec.provider === 'openai') {
    if (req.params.longContext) notes.push('long context is an Anthropic request header; an OpenAI-compatible server uses its own context window (nothing sent)');
    const request: BackendRequest = {
      backend: 'openai',
      endpoint: `POST ${openaiBaseUrl()}/chat/completions`,
      headers: {},
      body: {
        model: spec.model,
        max_tokens: req.params.maxTokens,
        temperature: req.params.temperature,
        top_p: req.params.topP,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
      },
    };
    return { request, notes };
  }
  const headers: Record<string, string> = {};
  const modelId = modelIdOf(spec);
  if (req.params.longContext) headers['anthropic-beta'] = LONG_CONTEXT_BETA;
  // Current Claude models reject temperature and top_p together: send temperature only.
  notes.push(`top_p ${req.params.topP} is the study's intended setting and is recorded, not sent (the API rejects temperature and top_p together)`);
  if (req.params.longContext) notes.push(`long context requested with anthropic-beta: ${LONG_CONTEXT_BETA}`);
  const request: BackendRequest = {
    backend: spec.provider === 'anthropic' ? 'anthropic' : 'replay',
    endpoint: spec.provider === 'anthropic' ? 'POST /v1/messages' : `replay ${replayPath}`,
    headers,
    body: { model: modelId, max_tokens: req.params.maxTokens, temperature: req.params.temperature, system, messages: [{ role: 'user', content: user }] },
  };
  return { request, notes };
}

function toFailure(err: unknown): Error {
  if (err instanceof ApplicationFailure) return err;
  if (err instanceof BackendError) {
    return err.retryable
      ? ApplicationFailure.retryable(err.message, err.name, { status: err.status, attempts: err.attempts })
      : ApplicationFailure.nonRetryable(err.message, err.name, { status: err.status, attempts: err.attempts });
  }
  if (err instanceof InputError || err instanceof ModelSpecError) return ApplicationFailure.nonRetryable(err.message, err.name);
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * The gateway activity: one protocol-level model call.
 * @param req the stage request (see protocol/types.ts StageRequest).
 * @returns a small StageResult (no bodies): call file path, ok/protocolError, artifact hashes or
 *   validated JSON, cache hit, backend, usage (of the reply; for a cache hit, the original usage),
 *   cost (USD billed by this call: 0 for cache hits, replays and unpriced models), duration.
 * @throws ApplicationFailure (non-retryable) on a leak, bad input, 400/401/403, a missing replay
 *   file; (retryable) when transient API errors outlast the retries.
 */
export async function callModel(req: StageRequest): Promise<StageResult> {
  const ctx = activityContext();
  const stopHeartbeat = startHeartbeat(ctx, { stage: req.stage, callIndex: req.callIndex });
  try {
    return await callModelInner(req, ctx);
  } finally {
    stopHeartbeat();
  }
}

async function callModelInner(req: StageRequest, ctx: Context | null): Promise<StageResult> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  let spec: ParsedModelSpec;
  let system: { text: string; template: TemplateInfo };
  let user: { text: string; template: TemplateInfo };
  let replayPath: string | null = null;
  let replayRepeated = false;
  try {
    validate(req);
    spec = parseModelSpec(req.model);
    const task = loadTaskSpec(req.taskId);
    const { template, vars } = stageVars(req, task);
    user = renderTemplate(template, vars);
    system = renderTemplate('system', {});
    if (spec.provider === 'replay') ({ file: replayPath, repeated: replayRepeated } = resolveReplayFile(replayCorpusDir(spec.model), req.taskId, req.stage, req.condition, req.replicate, req.sample));
  } catch (e) {
    throw toFailure(e);
  }
  const { request, notes } = buildRequest(spec, req, system.text, user.text, replayPath);
  if (replayRepeated) notes.push(`sample ${req.sample}: the corpus declares samples "repeat" (corpus.json), so this replays the sample-1 reply`);
  const callFile = callFilePath(req.workDir, req.callIndex, req.stage);
  const common = {
    schemaVersion: CALL_FILE_SCHEMA_VERSION,
    studyId: req.studyId,
    taskId: req.taskId,
    condition: req.condition,
    stage: req.stage,
    callIndex: req.callIndex,
    replicate: req.replicate ?? null,
    sample: req.sample ?? 1,
    model: req.model,
    backend: spec.provider,
    modelId: modelIdOf(spec),
    intendedParams: req.params,
    paramNotes: notes,
    templates: { user: user.template, system: system.template },
    inputs: req.inputs,
  };

  // 2. Preflight: nothing is sent (or read from the cache) before it passes.
  let preflightReport: PreflightReport | { skipped: string };
  if (req.stage === 'judge') {
    preflightReport = { skipped: 'judge is an evaluation of frozen artifacts after freeze (§3 applies to generation and revision calls)' };
  } else {
    try {
      preflightReport = await preflight({
        conditionDir: req.workDir,
        condition: req.condition,
        ...preflightLayout(req),
        requestText: requestText(request),
        refuseCandidates: req.stage === 'c0-contract',
        taskId: req.taskId,
      });
    } catch (e) {
      writeJsonAtomic(callFile, { ...common, status: 'preflight-failed', error: (e as Error).message, findings: (e as ApplicationFailure).details?.[0] ?? null, timing: { startedAt, durationMs: Date.now() - started } });
      throw toFailure(e);
    }
  }

  // 3-4. Cache, then backend.
  const draw = { sample: req.sample ?? 1, replicate: req.replicate };
  const key = cacheKey(request, draw);
  let reply: BackendReply;
  let provenance: Provenance;
  let cacheHit = false;
  let cachedAt: string | null = null;
  // Paid once: a paid request is announced in the ledger before it goes out (ledger.ts, sends.ts).
  let send: Send | null = null;
  let sendFields: Pick<LedgerLine, 'sendId' | 'idempotencyKey' | 'attempt' | 'idempotencyHeader' | 'repeatOf'> = {};
  const identity: CallIdentity = { studyId: req.studyId, taskId: req.taskId, condition: req.condition, stage: req.stage, callIndex: req.callIndex, replicate: req.replicate ?? null, sample: req.sample ?? 1, model: req.model };
  try {
    if (spec.provider === 'replay') {
      const replayed = readReplay(replayPath!);
      reply = replayed;
      provenance = replayed.provenance;
    } else {
      const hit = cacheGet(key);
      if (hit) {
        reply = hit.reply;
        cacheHit = true;
        cachedAt = hit.storedAt;
      } else {
        send = beginSend(identity, key);
        // Only the openai backend can carry the key (sends.ts: the Messages API has no such header).
        const idempotencyHeader = request.backend === 'openai' ? OPENAI_IDEMPOTENCY_HEADER : null;
        sendFields = { sendId: send.sendId, idempotencyKey: send.idempotencyKey, attempt: send.attempt, idempotencyHeader, ...(send.repeatOf ? { repeatOf: send.repeatOf } : {}) };
        appendLedger({ ...ledgerIdentity(req, spec.provider, new Date().toISOString()), cacheHit: false, status: 'sent', ...ZERO_USAGE, costUsd: null, retries: 0, callFile, ...sendFields });
        reply =
          request.backend === 'openai'
            ? await callOpenAI(request, gatewayConfig(), ctx?.cancellationSignal, undefined, { [OPENAI_IDEMPOTENCY_HEADER]: send.idempotencyKey })
            : await callAnthropic(request, gatewayConfig(), ctx?.cancellationSignal);
        if (reply.stopReason !== 'refusal' && reply.text.trim()) cachePut(request, reply, draw);
        endSend(identity, send, 'paid');
      }
      provenance = { provenance: 'generated', model: reply.responseModel || spec.model || PAPER_MODEL_ID, at: cachedAt ?? startedAt };
    }
  } catch (e) {
    const be = e instanceof BackendError ? e : null;
    const durationMs = Date.now() - started;
    writeJsonAtomic(callFile, {
      ...common,
      status: 'failed',
      request,
      cacheKey: key,
      preflight: preflightReport,
      error: (e as Error).message,
      httpStatus: be?.status ?? null,
      retries: be ? Math.max(0, be.attempts.length - 1) : 0,
      attempts: be?.attempts ?? [],
      ...(send ? { ...sendFields, repeatOf: send.repeatOf ?? null } : {}),
      timing: { startedAt, finishedAt: new Date().toISOString(), durationMs },
    });
    appendLedger({
      ...ledgerIdentity(req, spec.provider, startedAt),
      cacheHit: false,
      status: 'failed',
      ...ZERO_USAGE,
      costUsd: 0,
      retries: be ? Math.max(0, be.attempts.length - 1) : 0,
      callFile,
      ...(send ? { ...sendFields, send: 'failed' as const } : {}),
    });
    if (send) endSend(identity, send, 'failed');
    throw toFailure(e);
  }

  // 5. Parse the reply protocol; write artifacts only when the whole reply is valid.
  const parsed = reply.stopReason === 'refusal' ? ({ ok: false, protocolError: 'the model refused (stop_reason refusal)' } as const) : parseReply(reply.text, req.stage);
  let artifacts: Record<string, string> | undefined;
  if (parsed.ok && parsed.files) {
    artifacts = {};
    for (const [name, content] of Object.entries(parsed.files)) {
      writeArtifact(path.join(req.workDir, name), content);
      artifacts[name] = sha256(content);
    }
  }
  const protocolError = parsed.ok ? undefined : parsed.protocolError;

  // 6. Usage and cost; call file; ledger.
  const usage: TokenUsage = reply.usage;
  const priced =
    spec.provider === 'anthropic'
      ? callCost(reply.responseModel || spec.model || PAPER_MODEL_ID, usage)
      : spec.provider === 'openai'
        ? { costUsd: null, note: `openai-compatible: no price table (tokens recorded; ${spec.model})` }
        : { costUsd: 0, note: 'replay: no cost' };
  const billed = cacheHit ? 0 : priced.costUsd;
  const durationMs = Date.now() - started;
  const status = parsed.ok ? 'ok' : 'protocol-error';
  writeJsonAtomic(callFile, {
    ...common,
    status,
    ok: parsed.ok,
    protocolError: protocolError ?? null,
    request,
    cacheKey: key,
    cacheHit,
    cachedAt,
    preflight: preflightReport,
    reply: { text: reply.text, stopReason: reply.stopReason, responseModel: reply.responseModel, responseId: reply.responseId },
    provenance: provenance!,
    parsed: parsed.ok ? { artifacts: artifacts ?? null, json: parsed.json ?? null } : null,
    usage,
    costUsd: billed,
    replyCostUsd: priced.costUsd,
    costNote: [priced.note, cacheHit ? 'cache hit: nothing billed' : undefined, reply.stopReason === 'max_tokens' ? 'reply stopped at max_tokens' : undefined].filter(Boolean).join('; ') || null,
    pricingVersion: PRICING_VERSION,
    retries: cacheHit ? 0 : reply.retries,
    attempts: cacheHit ? [] : reply.attempts,
    rateLimitWaitMs: cacheHit ? 0 : reply.rateLimitWaitMs,
    ...(send ? { ...sendFields, repeatOf: send.repeatOf ?? null } : {}),
    timing: { startedAt, finishedAt: new Date().toISOString(), durationMs },
  });
  appendLedger({
    ...ledgerIdentity(req, spec.provider, startedAt),
    cacheHit,
    status,
    ...(cacheHit ? ZERO_USAGE : usage),
    costUsd: billed,
    retries: cacheHit ? 0 : reply.retries,
    callFile,
    ...(send ? { ...sendFields, send: 'paid' as const } : {}),
  });

  const result: StageResult = {
    stage: req.stage,
    callFile,
    ok: parsed.ok,
    cacheHit,
    backend: spec.provider,
    usage,
    costUsd: billed ?? 0,
    durationMs,
  };
  if (protocolError) result.protocolError = protocolError;
  if (artifacts) result.artifacts = artifacts;
  if (parsed.ok && parsed.json !== undefined) result.json = parsed.json;
  return result;
}
