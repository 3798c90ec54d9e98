/**
 * The usage ledger: one JSON line per model call at `<LOCKIN_HOME>/ledger.jsonl` (study, task,
 * condition, stage, backend, cache hit, tokens billed by this call, cost of this call). A cache
 * hit bills nothing: its tokens and cost are 0 (the reply's original usage is in the call file).
 *
 * Paid once (issue 21): a request to a paid backend is announced by a `sent` line (and an
 * in-flight marker `<LOCKIN_HOME>/inflight/<cache key>.json`) written *before* it goes out; the
 * call's final line completes it (same `sendId`). A worker killed while the request was in
 * flight leaves a `sent` line with no completion: a payment whose reply was lost. When the
 * call runs again after resume it finds the marker, and its lines carry `repeatOf` (the sendId
 * of the lost request): the repeat is counted (ledgerRepeats) instead of passing unseen.
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
  /** 'ok' | 'protocol-error' | 'failed' */
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
}

/** What the ledger says about requests paid more than once. */
export interface LedgerRepeats {
  /** Requests announced as sent that no line completed (their replies were lost, e.g. a worker killed mid-call). */
  lostSends: LedgerLine[];
  /** Requests sent again for a call whose earlier request was lost. */
  repeats: LedgerLine[];
}

/** Counts lost sends and repeats in `lines` (default: the whole ledger). Pure over its input. */
export function ledgerRepeats(lines: LedgerLine[] = readLedger()): LedgerRepeats {
  const completed = new Set(lines.filter((l) => l.status !== 'sent' && l.sendId).map((l) => l.sendId));
  return {
    lostSends: lines.filter((l) => l.status === 'sent' && !completed.has(l.sendId)),
    repeats: lines.filter((l) => l.status !== 'sent' && l.repeatOf),
  };
}

/** The in-flight marker of a request (by cache key). */
export function inflightFile(key: string): string {
  return path.join(lockinHome(), 'inflight', `${key}.json`);
}

/** Reads the in-flight marker left by an earlier, unfinished send of the same request, if any. */
export function readInflight(key: string): { sendId: string; at: string } | null {
  try {
    return JSON.parse(fs.readFileSync(inflightFile(key), 'utf8')) as { sendId: string; at: string };
  } catch {
    return null;
  }
}

/** Writes the in-flight marker (before the request is sent). */
export function writeInflight(key: string, marker: { sendId: string; at: string }): void {
  fs.mkdirSync(path.dirname(inflightFile(key)), { recursive: true });
  fs.writeFileSync(inflightFile(key), JSON.stringify(marker));
}

/** Removes the in-flight marker (the reply arrived or the call failed for good). */
export function clearInflight(key: string): void {
  fs.rmSync(inflightFile(key), { force: true });
}

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
