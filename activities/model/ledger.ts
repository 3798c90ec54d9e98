/**
 * The usage ledger: one JSON line per model call at `<LOCKIN_HOME>/ledger.jsonl` (study, task,
 * condition, stage, backend, cache hit, tokens billed by this call, cost of this call). A cache
 * hit bills nothing: its tokens and cost are 0 (the reply's original usage is in the call file).
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
