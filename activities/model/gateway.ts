/**
 * The model gateway: the one activity every stage calls (`callModel`). One protocol-level call
 * is a short pipeline (the workflow has checked the call budget before scheduling it,
 * workflows/conditions/calls.ts):
 *  1. prepare: validate the request, parse the model spec (protocol/model.ts), render the stage's
 *     prompt from ONLY what the stage may see (stageInputs.ts, docs/protocol.md §2), and have the
 *     provider's backend build the request (backends/index.ts);
 *  2. preflight: the leak check of the condition folder and the outgoing request (§3); a leak
 *     fails the call non-retryably and nothing is sent (skipped for `judge`, an evaluation after
 *     freeze);
 *  3. cache or send: a live backend's verified cache entry for the same request and draw
 *     (sample, replicate; cache.ts) is returned unpaid; otherwise the request is announced in the
 *     ledger, sent and completed (ledger.ts, sends.ts); a local backend (replay) answers itself;
 *  4. record: parse the reply protocol (an agent session's files, reply.files, are checked by the
 *     same rules), write the returned artifacts into workDir, write an agent session's transcript
 *     beside the call file, write
 *     `<workDir>/calls/NN-<stage>.json` (with the reply's `provenance`, protocol/provenance.ts: a
 *     replay file's front matter, or `generated` for a live model) and a ledger line, and return a
 *     small StageResult.
 * A protocol-breaking reply returns ok:false with protocolError (the call still counts).
 * Backend failures throw ApplicationFailure: non-retryable for 400/401/403, a missing replay file
 * or bad input; retryable when transient errors outlast the retries.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { InputError } from '../common/errors';
import type { StageRequest, StageResult } from '../../protocol/types';
import { preflight, PreflightReport } from '../preflight/preflight';
import { CONDITIONS } from '../../protocol/conditions';
import { BACKENDS } from './backends';
import { BackendError, ZERO_USAGE, type AgentSession, type Answered, type BackendReply, type ModelBackend, type PreparedRequest } from './backends/types';
import { cacheGet, cacheKey, cachePut, type Draw } from './cache';
import { appendLedger, type LedgerLine } from './ledger';
import { beginSend, endSend, type CallIdentity, type Send } from './sends';
import { PRICING_VERSION } from './pricing';
import { renderTemplate } from './prompts';
import { isCutReply, parseFiles, parseReply } from './reply';
import { parseModelSpec, ModelSpecError, type ParsedModelSpec } from '../../protocol/model';
import { sha256 } from '../common/hash';
import { loadTaskSpec, stageVars } from './stageInputs';
import { ARTIFACT_STAGES, STAGES } from '../../protocol/stages';
import type { Provenance } from '../../protocol/provenance';
import { callRelPath } from '../../protocol/layout';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

export const CALL_FILE_SCHEMA_VERSION = 1;

/** `<workDir>/calls/NN-<stage>.json` (NN = callIndex, two digits). */
export function callFilePath(workDir: string, callIndex: number, stage: string): string {
  return path.join(workDir, callRelPath(callIndex, stage));
}

/**
 * The directories the preflight compares, from the run layout (activities/common/layout.ts):
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

/** One call on its way through the pipeline: what each step reads, and what it leaves for the next. */
interface Call {
  req: StageRequest;
  spec: ParsedModelSpec;
  backend: ModelBackend;
  prepared: PreparedRequest;
  callFile: string;
  started: number;
  startedAt: string;
  /** The fields every call file starts with: who asked, which backend, what was rendered. */
  head: Record<string, unknown>;
  key: string;
  draw: Draw;
  identity: CallIdentity;
  /** Set by the preflight step. */
  preflight: PreflightReport | { skipped: string } | null;
  /** Set when a paid request was announced (sends.ts): its send and the ledger fields naming it. */
  paid: { send: Send; fields: SendFields } | null;
}

type SendFields = Pick<LedgerLine, 'sendId' | 'idempotencyKey' | 'attempt' | 'idempotencyHeader' | 'repeatOf'>;

/** The reply of a call and where it came from. */
interface Answer extends Answered {
  cacheHit: boolean;
  cachedAt: string | null;
}

/**
 * The gateway activity: one protocol-level model call, as a pipeline (the call budget was
 * checked by the workflow before it scheduled the call, workflows/conditions/calls.ts):
 * prepare → preflight → cache or send → record.
 * @param req the stage request (see protocol/types.ts StageRequest).
 * @returns a small StageResult (no bodies): call file path, ok/protocolError, artifact hashes or
 *   validated JSON, cache hit, backend, usage (of the reply; for a cache hit, the original usage),
 *   cost (USD billed by this call: 0 for cache hits, replays and unpriced models), duration.
 * @throws ApplicationFailure (non-retryable) on a leak, bad input, 400/401/403, a missing replay
 *   file; (retryable) when transient API errors outlast the retries.
 */
export async function callModel(req: ActivityInput<'callModel'>): Promise<ActivityOutput<'callModel'>> {
  const ctx = activityContext();
  const stopHeartbeat = startHeartbeat(ctx, { stage: req.stage, callIndex: req.callIndex });
  try {
    const call = prepareCall(req);
    await checkPreflight(call);
    const answer = await obtainAnswer(call, ctx);
    return recordCall(call, answer);
  } finally {
    stopHeartbeat();
  }
}

/** Step 1: validates the request, parses its model spec, renders the prompt from only what the stage may see, and has the backend build the request. */
function prepareCall(req: StageRequest): Call {
  const started = Date.now();
  try {
    validate(req);
    const spec = parseModelSpec(req.model);
    const backend = BACKENDS[spec.provider];
    const { template, vars } = stageVars(req, loadTaskSpec(req.taskId));
    const user = renderTemplate(template, vars, backend.promptPartials);
    const system = renderTemplate('system', {}, backend.promptPartials);
    const prepared = backend.prepare(spec, req, { system: system.text, user: user.text });
    const head = {
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
      modelId: prepared.request.body.model,
      intendedParams: req.params,
      paramNotes: prepared.notes,
      templates: { user: user.template, system: system.template },
      inputs: req.inputs,
    };
    const draw = { sample: req.sample ?? 1, replicate: req.replicate };
    const identity: CallIdentity = { studyId: req.studyId, taskId: req.taskId, condition: req.condition, stage: req.stage, callIndex: req.callIndex, replicate: req.replicate ?? null, sample: req.sample ?? 1, model: req.model };
    const callFile = callFilePath(req.workDir, req.callIndex, req.stage);
    return { req, spec, backend, prepared, callFile, started, startedAt: new Date(started).toISOString(), head, key: cacheKey(prepared.request, draw), draw, identity, preflight: null, paid: null };
  } catch (e) {
    throw toFailure(e);
  }
}

/**
 * Step 2: the preflight leak check of the condition folder and the outgoing request (docs/protocol.md
 * §3): nothing is sent, or read from the cache, before it passes. Skipped for the judge, an
 * evaluation of frozen artifacts. A leak writes a `preflight-failed` call file and fails the call.
 */
async function checkPreflight(call: Call): Promise<void> {
  const { req } = call;
  if (req.stage === 'judge') {
    call.preflight = { skipped: 'judge is an evaluation of frozen artifacts after freeze (§3 applies to generation and revision calls)' };
    return;
  }
  try {
    call.preflight = await preflight({
      conditionDir: req.workDir,
      condition: req.condition,
      ...preflightLayout(req),
      requestText: call.backend.requestText(call.prepared.request),
      refuseCandidates: req.stage === 'c0-contract',
      taskId: req.taskId,
    });
  } catch (e) {
    writeJsonAtomic(call.callFile, { ...call.head, status: 'preflight-failed', error: (e as Error).message, findings: (e as ApplicationFailure).details?.[0] ?? null, timing: { startedAt: call.startedAt, durationMs: Date.now() - call.started } });
    throw toFailure(e);
  }
}

/**
 * Step 3: the reply. A live backend's verified cache entry for the same request and draw is
 * returned unpaid (cache.ts); otherwise the request is sent, paid once (sendPaid). A local
 * backend answers itself. A failure writes a `failed` call file and ledger line (recordFailure).
 */
async function obtainAnswer(call: Call, ctx: Context | null): Promise<Answer> {
  try {
    const hit = call.backend.live ? cacheGet(call.key) : null;
    if (hit) return { reply: hit.reply, provenance: generated(call, hit.reply, hit.storedAt), cacheHit: true, cachedAt: hit.storedAt };
    const answered = call.backend.live ? await sendPaid(call, ctx) : await call.backend.answer(call.prepared, { signal: ctx?.cancellationSignal, idempotencyKey: null });
    return { reply: answered.reply, provenance: answered.provenance ?? generated(call, answered.reply, null), cacheHit: false, cachedAt: null };
  } catch (e) {
    recordFailure(call, e);
    throw toFailure(e);
  }
}

/** The provenance of a live model's reply (protocol/provenance.ts): generated by the model that answered, when it was first answered. */
function generated(call: Call, reply: BackendReply, cachedAt: string | null): Provenance {
  const modelSha256 = call.backend.modelSha256?.(call.prepared.request);
  return { provenance: 'generated', model: reply.responseModel || call.spec.model, at: cachedAt ?? call.startedAt, ...(modelSha256 ? { modelSha256 } : {}) };
}

/**
 * A paid request, paid once: announced in the ledger before it goes out, so a request lost with
 * a killed worker is recognized when the call runs again and its repeat is counted (ledger.ts,
 * sends.ts: the idempotency key, sent as a header where the API takes one); cached after, unless
 * refused or empty.
 */
async function sendPaid(call: Call, ctx: Context | null): Promise<Answered> {
  const send = beginSend(call.identity, call.key);
  const fields: SendFields = { sendId: send.sendId, idempotencyKey: send.idempotencyKey, attempt: send.attempt, idempotencyHeader: call.backend.idempotencyHeader, ...(send.repeatOf ? { repeatOf: send.repeatOf } : {}) };
  call.paid = { send, fields };
  appendLedger({ ...ledgerIdentity(call.req, call.spec.provider, new Date().toISOString()), cacheHit: false, status: 'sent', ...ZERO_USAGE, costUsd: null, retries: 0, callFile: call.callFile, ...fields });
  const answered = await call.backend.answer(call.prepared, { signal: ctx?.cancellationSignal, idempotencyKey: send.idempotencyKey });
  if (answered.reply.stopReason !== 'refusal' && (answered.reply.text.trim() || Object.keys(answered.reply.files ?? {}).length)) cachePut(call.prepared.request, answered.reply, call.draw);
  endSend(call.identity, send, 'paid');
  return answered;
}

/** A call whose backend failed: its `failed` call file (with the attempts) and ledger line; a paid send is closed as failed. */
function recordFailure(call: Call, e: unknown): void {
  const be = e instanceof BackendError ? e : null;
  const retries = be ? Math.max(0, be.attempts.length - 1) : 0;
  const paid = call.paid;
  writeJsonAtomic(call.callFile, {
    ...call.head,
    status: 'failed',
    request: call.prepared.request,
    cacheKey: call.key,
    preflight: call.preflight,
    error: (e as Error).message,
    httpStatus: be?.status ?? null,
    retries,
    attempts: be?.attempts ?? [],
    ...(paid ? { ...paid.fields, repeatOf: paid.send.repeatOf ?? null } : {}),
    timing: { startedAt: call.startedAt, finishedAt: new Date().toISOString(), durationMs: Date.now() - call.started },
  });
  appendLedger({ ...ledgerIdentity(call.req, call.spec.provider, call.startedAt), cacheHit: false, status: 'failed', ...ZERO_USAGE, costUsd: 0, retries, callFile: call.callFile, ...(paid ? { ...paid.fields, send: 'failed' as const } : {}) });
  if (paid) endSend(call.identity, paid.send, 'failed');
}

/**
 * Step 4: the record. Parses the reply protocol and writes the returned artifacts only when the
 * whole reply is valid (a protocol-breaking reply is ok:false with protocolError, and still
 * counts), prices it, writes `<workDir>/calls/NN-<stage>.json` and a ledger line, and returns the
 * small StageResult.
 */
function recordCall(call: Call, answer: Answer): StageResult {
  const { req, spec } = call;
  const reply = answer.reply;
  const parsed = reply.stopReason === 'refusal' ? ({ ok: false, protocolError: 'the model refused (stop_reason refusal)' } as const) : reply.files && ARTIFACT_STAGES.includes(req.stage) ? parseFiles(reply.files, req.stage) : parseReply(reply.text, req.stage);
  const session = reply.session ? recordSession(call, reply.session) : undefined;
  const artifacts = parsed.ok && parsed.files ? writeArtifacts(req.workDir, parsed.files) : undefined;
  // A reply cut at its token limit is marked for every backend (reply.ts CUT_STOP_REASONS).
  const cut = isCutReply(reply.stopReason);
  const protocolError = parsed.ok ? undefined : cut ? `${parsed.protocolError} (the reply was cut at its token limit: stop reason ${reply.stopReason})` : parsed.protocolError;
  const priced = call.backend.price(reply, spec);
  const billed = answer.cacheHit ? 0 : priced.costUsd;
  const durationMs = Date.now() - call.started;
  const status = parsed.ok ? 'ok' : 'protocol-error';
  writeJsonAtomic(call.callFile, {
    ...call.head,
    paramNotes: [...call.prepared.notes, ...(reply.notes ?? [])],
    status,
    ok: parsed.ok,
    cut,
    protocolError: protocolError ?? null,
    request: call.prepared.request,
    cacheKey: call.key,
    cacheHit: answer.cacheHit,
    cachedAt: answer.cachedAt,
    preflight: call.preflight,
    reply: { text: reply.text, stopReason: reply.stopReason, responseModel: reply.responseModel, responseId: reply.responseId, ...(reply.files ? { files: Object.fromEntries(Object.entries(reply.files).map(([n, c]) => [n, sha256(c)])) } : {}) },
    ...(session ? { session } : {}),
    provenance: answer.provenance,
    parsed: parsed.ok ? { artifacts: artifacts ?? null, json: parsed.json ?? null } : null,
    usage: reply.usage,
    costUsd: billed,
    replyCostUsd: priced.costUsd,
    costNote: [priced.note, answer.cacheHit ? 'cache hit: nothing billed' : undefined, cut ? `reply cut at its token limit (stop reason ${reply.stopReason})` : undefined].filter(Boolean).join('; ') || null,
    pricingVersion: PRICING_VERSION,
    ...attemptFields(answer),
    ...(call.paid ? { ...call.paid.fields, repeatOf: call.paid.send.repeatOf ?? null } : {}),
    timing: { startedAt: call.startedAt, finishedAt: new Date().toISOString(), durationMs },
  });
  const { retries } = attemptFields(answer);
  appendLedger({ ...ledgerIdentity(req, spec.provider, call.startedAt), cacheHit: answer.cacheHit, status, ...(answer.cacheHit ? ZERO_USAGE : reply.usage), costUsd: billed, retries, callFile: call.callFile, ...(call.paid ? { ...call.paid.fields, send: 'paid' as const } : {}) });
  const result: StageResult = { stage: req.stage, callFile: call.callFile, ok: parsed.ok, cacheHit: answer.cacheHit, backend: spec.provider, usage: reply.usage, costUsd: billed ?? 0, durationMs };
  if (protocolError) result.protocolError = protocolError;
  if (cut) result.cut = true;
  if (artifacts) result.artifacts = artifacts;
  if (parsed.ok && parsed.json !== undefined) result.json = parsed.json;
  return result;
}

/**
 * An agent session's record for the call file: its transcript written to
 * `calls/NN-<stage>.transcript.jsonl` (one SDK message or lockin decision a line; a cache hit
 * writes the cached session's transcript again) and replaced by its path, sha256 and length.
 * Payloads never carry a transcript (Temporal refuses payloads over 2 MB).
 */
function recordSession(call: Call, session: AgentSession): AgentSession {
  const { transcript, ...rest } = session;
  if (!transcript) return rest;
  const file = call.callFile.replace(/\.json$/, '.transcript.jsonl');
  const text = transcript.map((m) => JSON.stringify(m)).join('\n') + '\n';
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return { ...rest, transcriptFile: { path: file, sha256: sha256(text), entries: transcript.length } };
}

/** The retries, attempts and rate-limit wait of a reply (none for a cache hit: nothing was sent). */
function attemptFields(answer: Answer): { retries: number; attempts: BackendReply['attempts']; rateLimitWaitMs: number } {
  return answer.cacheHit ? { retries: 0, attempts: [], rateLimitWaitMs: 0 } : { retries: answer.reply.retries, attempts: answer.reply.attempts, rateLimitWaitMs: answer.reply.rateLimitWaitMs };
}

/** Writes a valid reply's files into the work folder. @returns file name → sha256 of the content. */
function writeArtifacts(workDir: string, files: Record<string, string>): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const [name, content] of Object.entries(files)) {
    writeArtifact(path.join(workDir, name), content);
    hashes[name] = sha256(content);
  }
  return hashes;
}
