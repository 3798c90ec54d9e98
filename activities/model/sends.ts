/**
 * Paid once: the send state of one model call to a paid backend.
 *
 * A call is identified by its study, task, condition, stage, call index, replicate, sample and
 * model spec (CallIdentity). Each time the gateway sends it to a paid backend it opens a *send*:
 *  - attempt: 1 for the call's first send; a send that completed as `failed` (no reply) is
 *    followed by attempt + 1; a send whose worker died before any completion (a *lost* send) is
 *    followed by a repeat with the *same* attempt;
 *  - idempotencyKey: derived from the identity and the attempt (idempotencyKey()), so a repeat
 *    of a lost send carries the lost send's key, and a new attempt after a recorded failure a
 *    fresh one (a server that stores a key's first answer would otherwise replay the failure);
 *  - sendId: unique per request sent (a repeat has its own sendId and `repeatOf` = the lost one's).
 * The state lives in `<LOCKIN_HOME>/sends/<sha256 of the identity>.json`, written *before* the
 * request goes out, so a SIGKILLed worker leaves it behind: `{attempts, inflight}`. It is
 * removed when a send is paid (the reply is then in the cache, so the call is not sent again).
 *
 * Which APIs can use the key (checked against the installed SDK and the APIs' documentation):
 * the Anthropic Messages API documents no idempotency header, and @anthropic-ai/sdk 1.14.0
 * marks its `idempotencyKey` request option "@deprecated This option has no effect": the key
 * is recorded, not sent, and a repeat is paid twice (counted and reported). OpenAI documents `Idempotency-Key` for no chat-completions
 * endpoint; the openai backend sends `Idempotency-Key: <key>` (the IETF httpapi draft's header)
 * anyway, harmless where ignored, and a server or proxy that honours it answers the repeat from
 * its first answer (not billed twice). See OPENAI_IDEMPOTENCY_HEADER.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { lockinHome } from '../common/paths';

/** The header the openai backend sends the key in (IETF draft-ietf-httpapi-idempotency-key-header). */
export const OPENAI_IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** What identifies one protocol-level model call (the same fields as its ledger line). */
export interface CallIdentity {
  studyId: string;
  taskId: string;
  condition: string;
  stage: string;
  callIndex: number;
  /** Replication label, null for the primary run. */
  replicate: string | null;
  /** Sample index, 1-based. */
  sample: number;
  /** The model spec as given (`anthropic:<id>`, `openai:<id>`). */
  model: string;
}

/** One send of a call (see the module doc). */
export interface Send {
  sendId: string;
  idempotencyKey: string;
  attempt: number;
  /** The sendId of the lost send this one repeats. */
  repeatOf?: string;
}

/** The stored state of a call's sends. */
interface SendState {
  identity: CallIdentity;
  /** Sends completed so far (paid or failed). */
  attempts: number;
  /** The send in flight (written before the request; a leftover one is a lost send). */
  inflight: (Send & { cacheKey: string; at: string }) | null;
}

/** The identity fields in a fixed order (so equal identities serialize equally). */
function canonical(id: CallIdentity): string {
  return JSON.stringify([id.studyId, id.taskId, id.condition, id.stage, id.callIndex, id.replicate ?? null, id.sample, id.model]);
}

/**
 * The idempotency key of a call's attempt: `lockin-` + the first 40 hex digits of
 * sha256(identity fields in a fixed order, attempt). Pure. Equal identities and attempts give
 * equal keys; anything else differs.
 * @param id the call identity; @param attempt 1-based. @throws Error when attempt is not an integer ≥ 1.
 */
export function idempotencyKey(id: CallIdentity, attempt: number): string {
  if (!Number.isInteger(attempt) || attempt < 1) throw new Error(`idempotencyKey: attempt must be an integer ≥ 1, got ${attempt}`);
  return `lockin-${crypto.createHash('sha256').update(`${canonical(id)}#${attempt}`).digest('hex').slice(0, 40)}`;
}

/** `<LOCKIN_HOME>/sends/<sha256 of the identity>.json`. */
export function sendStateFile(id: CallIdentity): string {
  return path.join(lockinHome(), 'sends', `${crypto.createHash('sha256').update(canonical(id)).digest('hex')}.json`);
}

function readState(id: CallIdentity): SendState | null {
  try {
    return JSON.parse(fs.readFileSync(sendStateFile(id), 'utf8')) as SendState;
  } catch {
    return null;
  }
}

function writeState(state: SendState): void {
  const file = sendStateFile(state.identity);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(state));
  fs.renameSync(tmp, file); // a kill mid-write leaves the old state, never half a file
}

/**
 * Opens a send of the call, recording it before the request goes out.
 * @param id the call; @param cacheKey the request's cache key (a lost send of a *different*
 *   request is still repeated, but under a new attempt: one key must never cover two bodies).
 * @returns the send: a repeat of a lost send carries its key and attempt and `repeatOf`.
 */
export function beginSend(id: CallIdentity, cacheKey: string): Send {
  const state = readState(id);
  const lost = state?.inflight ?? null;
  const completed = state?.attempts ?? 0;
  const attempt = lost && lost.cacheKey === cacheKey ? lost.attempt : Math.max(completed, lost?.attempt ?? 0) + 1;
  const send: Send = { sendId: crypto.randomUUID(), idempotencyKey: idempotencyKey(id, attempt), attempt, ...(lost ? { repeatOf: lost.sendId } : {}) };
  writeState({ identity: id, attempts: completed, inflight: { ...send, cacheKey, at: new Date().toISOString() } });
  return send;
}

/**
 * Completes the call's open send: `paid` (a reply arrived: the state is removed) or `failed`
 * (no reply: the next send is a new attempt with a new key).
 */
export function endSend(id: CallIdentity, send: Send, outcome: 'paid' | 'failed'): void {
  if (outcome === 'paid') {
    fs.rmSync(sendStateFile(id), { force: true });
    return;
  }
  writeState({ identity: id, attempts: send.attempt, inflight: null });
}
