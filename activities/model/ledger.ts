/**
 * The usage ledger: one JSON line per model call at `<LOCKIN_HOME>/ledger.jsonl` (study, task,
 * condition, stage, backend, cache hit, tokens billed by this call, cost of this call). A cache
 * hit bills nothing: its tokens and cost are 0 (the reply's original usage is in the call file).
 *
 * Paid once (the send state is sends.ts): a request to a paid backend is
 * announced by a line with status `sent` (the call's identity, `sendId`, `idempotencyKey`,
 * `attempt`) written *before* it goes out; the call's final line completes it (same `sendId`)
 * with `send: "paid"` (a reply arrived: status ok or protocol-error, its tokens billed) or
 * `send: "failed"` (no reply; a timed-out request may still have been billed by the provider).
 * A worker killed while the request was in flight leaves a `sent` line with no completion: a
 * payment whose reply was lost. When the call runs again after resume, its lines carry
 * `repeatOf` (the sendId of the lost request) and the lost request's idempotency key: the
 * repeat is counted (ledgerRepeats) and reported instead of passing unseen.
 */
import * as fs from 'fs';
import * as path from 'path';
import { lockinHome } from '../common/paths';

export interface LedgerLine {
  at: string;
  studyId: string;
  taskId: string;
  condition: string;
  stage: string;
  replicate?: string;
  /** Sample index, 1-based (absent in lines written before `--samples`, meaning 1). */
  sample?: number;
  callIndex: number;
  backend: string;
  model: string;
  cacheHit: boolean;
  /** 'sent' (announcement of a paid request) | 'ok' | 'protocol-error' | 'failed' */
  status: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** USD billed by this call; null when the model has no price. */
  costUsd: number | null;
  retries: number;
  callFile: string;
  /** Identifies one request sent to a paid backend: its `sent` line and its final line share it. */
  sendId?: string;
  /** The sendId of an earlier request for the same call that was sent and never completed (this one repeats it). */
  repeatOf?: string;
  /** The send's idempotency key (sends.ts: derived from the call identity, sample and attempt). */
  idempotencyKey?: string;
  /** The send's attempt (1-based; a repeat of a lost send keeps its attempt). */
  attempt?: number;
  /** On the line completing a send: 'paid' (a reply arrived) or 'failed' (none). */
  send?: 'paid' | 'failed';
  /** Whether the idempotency key went out with the request (header name), or null (recorded only). */
  idempotencyHeader?: string | null;
}

/** What the ledger says about requests paid more than once. */
export interface LedgerRepeats {
  /** Requests announced as sent that no line completed (their replies were lost, e.g. a worker killed mid-call). */
  lostSends: LedgerLine[];
  /** Requests sent again for a call whose earlier request was lost. */
  repeats: LedgerLine[];
}

/**
 * Counts lost sends and repeats (module doc). Pure over its input.
 * @param lines ledger lines (default: the whole ledger; callers filter by study).
 * @returns lostSends: the `sent` lines no line completed (same sendId); repeats: the completion
 *   lines (status ≠ sent) that carry `repeatOf`.
 */
export function ledgerRepeats(lines: LedgerLine[] = readLedger()): LedgerRepeats {
  const completed = new Set(lines.filter((l) => l.status !== 'sent' && l.sendId).map((l) => l.sendId));
  return {
    lostSends: lines.filter((l) => l.status === 'sent' && !completed.has(l.sendId)),
    repeats: lines.filter((l) => l.status !== 'sent' && l.repeatOf),
  };
}

/** `<LOCKIN_HOME>/ledger.jsonl`. */
export function ledgerFile(): string {
  return path.join(lockinHome(), 'ledger.jsonl');
}

/** Appends one line (a single appendFileSync write, so concurrent writers do not interleave lines). */
export function appendLedger(line: LedgerLine): void {
  fs.mkdirSync(lockinHome(), { recursive: true });
  fs.appendFileSync(ledgerFile(), JSON.stringify(line) + '\n');
}

/** Reads the ledger (tests, reports). Missing ledger = []. */
export function readLedger(): LedgerLine[] {
  if (!fs.existsSync(ledgerFile())) return [];
  return fs
    .readFileSync(ledgerFile(), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as LedgerLine);
}
