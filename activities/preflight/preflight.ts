/**
 * The preflight leak check run before every model call (docs/protocol.md §3; the paper's
 * "preflight check excludes reference SQL/outputs, human labels, scores, and other-condition
 * artifacts, except the shared one-pass snapshot").
 *
 * Checks, on the condition directory (recursively) and on the outgoing request text:
 *  - reference-sql: a reference query's text, exact or by token 8-grams (rule in sqlNgrams.ts),
 *    also inside base64, hex, character codes or a word list of string literals (decode.ts);
 *  - reference-output: a file named reference.arrow / reference.parquet / references.json, or any
 *    file whose sha256 equals a file under referencesDir(*) (every scale); or rows of the task's
 *    reference output written as text (CSV, a list of tuples…), plain or encoded as above (rule
 *    in referenceRows.ts);
 *  - label-or-score: labels*.json / labels*.csv, summary.json, records.jsonl, controls.json;
 *  - other-condition-artifact: a file (any name) whose sha256 equals another condition's artifact
 *    (plan.md, solution.py, test_solution.py at any depth) or call record (calls/), unless the same
 *    content is in the shared initial generation or this condition's own model calls produced it (the
 *    artifact hashes in its calls/*.json `parsed.artifacts`: two conditions that revise the same
 *    snapshot can independently write the same file, e.g. a replayed or deterministic model).
 *    Empty files and tool caches (.pytest_cache/, __pycache__/) are not compared: they are
 *    identical everywhere by design.
 *  - candidate-artifact (only when `refuseCandidates` is set: Contract-First's C-0, which must
 *    be written before any candidate exists, docs/protocol.md §2 "Contract-First"): the request
 *    text holds a candidate artifact (plan.md, solution.py, test_solution.py of this condition or
 *    of the shared initial generation) in full or any 3 consecutive non-blank lines of one (rule in
 *    candidateFindings).
 * A leak throws a non-retryable ApplicationFailure (type LeakError) naming what leaked and where;
 * the caller sends nothing.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { ApplicationFailure } from '@temporalio/common';
import { lockinHome, referencePaths } from '../common/paths';
import { ARTIFACTS } from '../../protocol/corpus';
import { referenceSql } from './referenceSql';
import { DEFAULT_SQL_THRESHOLDS, describeOverlap, findSqlLeaks, SqlIndex } from './sqlNgrams';
import { decodedTexts } from './decode';
import { buildRowIndex, findRowLeak, type RowIndex } from './referenceRows';
import { readArrowTable } from '../compare/table';

export interface PreflightInput {
  /** The directory of the condition about to call the model (its artifacts and calls/). */
  conditionDir: string;
  /** Condition id ('one-pass' | 'test-guided' | 'plan-audit' | 'shared'). */
  condition: string;
  /** The shared one-pass snapshot; identical files are allowed in every condition. */
  sharedSnapshotDir?: string;
  /** Sibling conditions' directories (missing ones are skipped). */
  otherConditionDirs: string[];
  /** The request exactly as it will be sent (system + messages), as text. */
  requestText: string;
  /** Refuse any candidate artifact in the request (Contract-First C-0). */
  refuseCandidates?: boolean;
  /** The task: its reference outputs (every scale) are looked for as rows written in text. */
  taskId?: string;
}

export type LeakKind = 'reference-sql' | 'reference-output' | 'label-or-score' | 'other-condition-artifact' | 'candidate-artifact';

export interface LeakFinding {
  kind: LeakKind;
  /** A file path, or "request" for the outgoing request text. */
  where: string;
  detail: string;
}

/** What a clean preflight checked (recorded in the call file). */
export interface PreflightReport {
  ok: true;
  condition: string;
  filesChecked: number;
  sqlTexts: number;
  sqlSource: string;
  thresholds: typeof DEFAULT_SQL_THRESHOLDS;
  durationMs: number;
}

const REFERENCE_NAMES = new Set(['reference.arrow', 'reference.parquet', 'references.json']);
const LABEL_NAMES = new Set(['summary.json', 'records.jsonl', 'controls.json']);
const TOOL_CACHE_DIRS = new Set(['.pytest_cache', '__pycache__']);
/** Text files larger than this are hashed but not scanned for SQL. */
const MAX_SCAN_BYTES = 8 * 1024 * 1024;

interface FileEntry {
  path: string;
  rel: string;
  size: number;
  inToolCache: boolean;
}

function walk(root: string): FileEntry[] {
  const out: FileEntry[] = [];
  if (!fs.existsSync(root)) return out;
  const visit = (dir: string, inToolCache: boolean) => {
    for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, ent.name);
      let st: fs.Stats;
      try {
        st = fs.statSync(p); // follows symlinks: a link to a reference is checked by content
      } catch {
        continue;
      }
      if (st.isDirectory()) visit(p, inToolCache || TOOL_CACHE_DIRS.has(ent.name));
      else if (st.isFile()) out.push({ path: p, rel: path.relative(root, p), size: st.size, inToolCache });
    }
  };
  visit(root, false);
  return out;
}

const hashCache = new Map<string, string>();
function sha256File(p: string): string {
  const st = fs.statSync(p);
  const key = `${p}\0${st.size}\0${st.mtimeMs}`;
  let h = hashCache.get(key);
  if (!h) {
    h = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
    hashCache.set(key, h);
  }
  return h;
}

const rowIndexCache = new Map<string, RowIndex>();

/**
 * The row indexes of a task's reference outputs, one per scale that has one
 * (`<LOCKIN_HOME>/data/references/sf*\/<taskId>/reference.arrow` with its schema.json), cached
 * by file and mtime. A reference that cannot be read is skipped: the hash check above still
 * covers the file itself.
 */
function referenceRowIndexes(taskId: string): { file: string; index: RowIndex }[] {
  const root = path.join(lockinHome(), 'data', 'references');
  if (!fs.existsSync(root)) return [];
  const out: { file: string; index: RowIndex }[] = [];
  for (const scale of fs.readdirSync(root)) {
    const { data: file, schema } = referencePaths(path.join(root, scale), taskId);
    let st: fs.Stats;
    try {
      st = fs.statSync(file);
    } catch {
      continue;
    }
    const key = `${file}\0${st.mtimeMs}\0${st.size}`;
    let index = rowIndexCache.get(key);
    if (!index) {
      try {
        index = buildRowIndex(readArrowTable(file, fs.existsSync(schema) ? schema : undefined).rows);
      } catch {
        continue;
      }
      rowIndexCache.set(key, index);
    }
    out.push({ file, index });
  }
  return out;
}

/** Pure: findings from file names alone (reference outputs, labels, scores). */
export function nameFindings(relPaths: string[], root: string): LeakFinding[] {
  const out: LeakFinding[] = [];
  for (const rel of relPaths) {
    const base = path.basename(rel).toLowerCase();
    const where = path.join(root, rel);
    if (REFERENCE_NAMES.has(base)) out.push({ kind: 'reference-output', where, detail: `reference output file name ${base}` });
    else if (LABEL_NAMES.has(base) || /^labels.*\.(json|csv)$/.test(base)) out.push({ kind: 'label-or-score', where, detail: `label/score file ${base}` });
  }
  return out;
}

/**
 * Files a condition produces through the model: its artifacts (at any depth) and its call records.
 * Derived files (pytest summaries, JUnit XML) are not compared: two conditions that ran pytest on
 * the same snapshot legitimately hold identical summaries.
 */
function isConditionOutput(rel: string): boolean {
  const base = path.basename(rel);
  return (ARTIFACTS as readonly string[]).includes(base) || rel.split(path.sep)[0] === 'calls';
}

/**
 * sha256 of every artifact this condition's own model calls wrote (calls/*.json,
 * `parsed.artifacts` = {name: sha256}). Unreadable call files contribute nothing.
 */
export function ownProducedHashes(conditionDir: string): Set<string> {
  const out = new Set<string>();
  const calls = path.join(conditionDir, 'calls');
  if (!fs.existsSync(calls)) return out;
  for (const f of fs.readdirSync(calls)) {
    if (!f.endsWith('.json')) continue;
    try {
      const rec = JSON.parse(fs.readFileSync(path.join(calls, f), 'utf8')) as { parsed?: { artifacts?: Record<string, unknown> } };
      for (const h of Object.values(rec.parsed?.artifacts ?? {})) if (typeof h === 'string' && /^[0-9a-f]{64}$/.test(h)) out.add(h);
    } catch {
      /* a malformed call file is not evidence of anything */
    }
  }
  return out;
}

function isText(buf: Buffer): boolean {
  return !buf.subarray(0, 8192).includes(0);
}

function sqlFindings(text: string, where: string, index: SqlIndex): LeakFinding[] {
  return findSqlLeaks(text, index).map((o) => ({ kind: 'reference-sql' as const, where, detail: `reference SQL of ${describeOverlap(o)}` }));
}

/**
 * Runs every check and returns the findings (empty = clean). Does not throw on a leak.
 * @param sqlIndex the reference query index (default: loaded once from queries.py / the jar).
 */
export async function findLeaks(input: PreflightInput, sqlIndex?: SqlIndex): Promise<{ findings: LeakFinding[]; filesChecked: number }> {
  const index = sqlIndex ?? (await referenceSql()).index;
  const findings: LeakFinding[] = [];
  const files = walk(input.conditionDir);

  findings.push(...nameFindings(files.map((f) => f.rel), input.conditionDir));

  // Reference SQL and reference rows in the request and in the directory's text files, as
  // written and decoded (decode.ts).
  const rowIndexes = input.taskId ? referenceRowIndexes(input.taskId) : [];
  const scan = (text: string, where: string) => {
    for (const v of [{ how: '', text }, ...decodedTexts(text)]) {
      const as = v.how ? ` (${v.how}-encoded)` : '';
      findings.push(...sqlFindings(v.text, where, index).map((f) => ({ ...f, detail: `${f.detail}${as}` })));
      for (const r of rowIndexes) {
        const leak = findRowLeak(v.text, r.index);
        if (leak) findings.push({ kind: 'reference-output', where, detail: `rows of the reference ${r.file} written as text${as}: ${leak.rows.length} row(s), e.g. line "${leak.example}"` });
      }
    }
  };
  scan(input.requestText, 'request');
  for (const f of files) {
    if (f.size === 0 || f.size > MAX_SCAN_BYTES || f.inToolCache) continue;
    const buf = fs.readFileSync(f.path);
    if (isText(buf)) scan(buf.toString('utf8'), f.path);
  }

  // Reference outputs by content: compare only files whose size equals some reference file's.
  const refRoot = path.join(lockinHome(), 'data', 'references');
  const refsBySize = new Map<number, FileEntry[]>();
  for (const r of walk(refRoot)) {
    if (r.size === 0) continue;
    const list = refsBySize.get(r.size);
    if (list) list.push(r);
    else refsBySize.set(r.size, [r]);
  }
  for (const f of files) {
    const same = refsBySize.get(f.size);
    if (!same) continue;
    const h = sha256File(f.path);
    const hit = same.find((r) => sha256File(r.path) === h);
    if (hit) findings.push({ kind: 'reference-output', where: f.path, detail: `identical to reference file ${hit.path}` });
  }

  // Other conditions' artifacts (the shared initial generation excepted).
  const sharedHashes = new Set<string>();
  if (input.sharedSnapshotDir) for (const s of walk(input.sharedSnapshotDir)) if (s.size > 0) sharedHashes.add(sha256File(s.path));
  for (const h of ownProducedHashes(input.conditionDir)) sharedHashes.add(h);
  const otherHashes = new Map<string, string>();
  const selfResolved = path.resolve(input.conditionDir);
  for (const dir of input.otherConditionDirs) {
    if (path.resolve(dir) === selfResolved) continue;
    for (const o of walk(dir)) {
      if (o.size === 0 || o.inToolCache || !isConditionOutput(o.rel)) continue;
      const h = sha256File(o.path);
      if (!sharedHashes.has(h) && !otherHashes.has(h)) otherHashes.set(h, o.path);
    }
  }
  if (otherHashes.size) {
    for (const f of files) {
      if (f.size === 0 || f.inToolCache) continue;
      const other = otherHashes.get(sha256File(f.path));
      if (other) findings.push({ kind: 'other-condition-artifact', where: f.path, detail: `identical to another condition's file ${other}` });
    }
  }
  if (input.refuseCandidates) findings.push(...candidateFindings(input.requestText, candidateTexts([input.conditionDir, input.sharedSnapshotDir])));
  return { findings, filesChecked: files.length };
}

/** A window of this many consecutive non-blank lines of a candidate counts as the candidate. */
export const CANDIDATE_WINDOW_LINES = 3;
/** Windows shorter than this (characters, lines joined) are too generic to count (e.g. `import x`). */
export const CANDIDATE_WINDOW_MIN_CHARS = 40;

const normLines = (text: string) => text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);

/**
 * Pure: the candidates whose text appears in the request, in full or as any window of
 * CANDIDATE_WINDOW_LINES consecutive non-blank lines (leading/trailing spaces ignored) of at
 * least CANDIDATE_WINDOW_MIN_CHARS characters. Source: docs/protocol.md §2 "Contract-First"
 * (C-0 sees no candidate) and §3.
 */
export function candidateFindings(requestText: string, candidates: { where: string; text: string }[]): LeakFinding[] {
  const request = normLines(requestText).join('\n');
  const out: LeakFinding[] = [];
  for (const c of candidates) {
    const lines = normLines(c.text);
    if (!lines.length) continue;
    const windows = lines.length <= CANDIDATE_WINDOW_LINES ? [lines] : lines.slice(0, lines.length - CANDIDATE_WINDOW_LINES + 1).map((_, i) => lines.slice(i, i + CANDIDATE_WINDOW_LINES));
    const hit = windows.map((w) => w.join('\n')).find((w) => w.length >= CANDIDATE_WINDOW_MIN_CHARS && request.includes(w));
    if (hit) out.push({ kind: 'candidate-artifact', where: 'request', detail: `candidate artifact ${c.where} (lines "${hit.split('\n')[0].slice(0, 60)}" …)` });
  }
  return out;
}

/** The candidate artifacts of a condition directory and the shared initial generation (non-empty ones). */
function candidateTexts(dirs: (string | undefined)[]): { where: string; text: string }[] {
  const out: { where: string; text: string }[] = [];
  for (const dir of dirs) {
    if (!dir) continue;
    for (const name of ARTIFACTS) {
      const p = path.join(dir, name);
      if (fs.existsSync(p)) out.push({ where: p, text: fs.readFileSync(p, 'utf8') });
    }
  }
  return out;
}

/**
 * Formats findings as one error message: what leaked and where. The first line names the first
 * finding and the count, so a summary that shows only first lines still says what leaked;
 * the next lines list up to 20 findings.
 */
export function leakMessage(input: Pick<PreflightInput, 'condition' | 'conditionDir'>, findings: LeakFinding[]): string {
  const one = (f: LeakFinding) => `${f.kind}: ${f.detail} in ${f.where}`;
  const lines = findings.slice(0, 20).map((f) => `  - ${one(f)}`);
  const more = findings.length > 20 ? `\n  ... and ${findings.length - 20} more` : '';
  const first = findings[0] ? `${one(findings[0])}${findings.length > 1 ? ` (and ${findings.length - 1} more finding(s), listed below)` : ''}` : 'no finding';
  return `preflight: leak detected for condition ${input.condition} (${input.conditionDir}); nothing was sent: ${first}\n${lines.join('\n')}${more}`;
}

/**
 * The preflight activity: checks the condition directory and the outgoing request.
 * @returns a small report of what was checked when clean.
 * @throws ApplicationFailure.nonRetryable (type 'LeakError', details = findings) on any leak;
 *   also non-retryable ('PreflightError') when the reference query texts cannot be loaded.
 */
export async function preflight(input: PreflightInput): Promise<PreflightReport> {
  const t0 = Date.now();
  let ref;
  try {
    ref = await referenceSql();
  } catch (e) {
    throw ApplicationFailure.nonRetryable((e as Error).message, 'PreflightError');
  }
  const { findings, filesChecked } = await findLeaks(input, ref.index);
  if (findings.length) throw ApplicationFailure.nonRetryable(leakMessage(input, findings), 'LeakError', findings);
  return {
    ok: true,
    condition: input.condition,
    filesChecked,
    sqlTexts: Object.keys(ref.texts).length,
    sqlSource: ref.source,
    thresholds: DEFAULT_SQL_THRESHOLDS,
    durationMs: Date.now() - t0,
  };
}
