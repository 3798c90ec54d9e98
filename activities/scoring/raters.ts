/**
 * Human raters (issue 17 "Human adjudication with agreement"; docs/protocol.md §5):
 *   export     `runs/<id>/labels/raters/<rater>/`: a blinded CSV to fill (one row per primary run
 *              and obligation, the run named by an opaque id, no condition, no automated label,
 *              no other rater's label) and a copy of each run's artifacts under `runs/<run id>/`;
 *              the key from run id to task and condition is `labels/blind-key.json`, outside it;
 *   import     the filled CSV is validated and kept byte for byte as `labels.csv` in the rater's
 *              folder; a rater's labels are never overwritten (a different second file is refused);
 *   agreement  Cohen's kappa (agreement.ts) per dimension between every two raters and between
 *              each rater and each automated labeller, on the items both labelled;
 *   disagreements and adjudication: the items where raters disagree, and the final labels decided
 *              for them, recorded with the labels they resolved (`labels/adjudication.csv`) and
 *              merged into `labels/final.csv` (finalLabels.ts).
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { InputError } from '../common/errors';
import { parseCsv, toCsv } from './csv';
import { PLAN_LABELS, CODE_LABELS, RECORDED_TEST_LABELS } from './labels';
import { cohenKappa, type Kappa } from './agreement';
import { FINAL_COLUMNS, importFinalLabels, labelKey, parseFinalLabels } from './finalLabels';
import type { LoadedStudy } from './study';

export const DIMENSIONS = ['plan', 'code', 'test'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** The columns of a rater's CSV, in order; the rater fills plan, code and test. */
export const RATER_COLUMNS = ['run', 'task', 'obligation', 'statement', 'plan', 'code', 'test'] as const;

/** The artifacts copied for a rater, when the run has them. */
const ARTIFACTS = ['plan.md', 'solution.py', 'test_solution.py', 'contract_test.py'];

const RATER_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;

/** `labels/raters/<rater>` of a study folder. @throws InputError for a name that is not a plain word. */
export function raterDir(studyDir: string, rater: string): string {
  if (!RATER_NAME.test(rater)) throw new InputError(`rater name "${rater}" must be a word of letters, digits, - or _ (starting with a letter)`, undefined, '--rater');
  return path.join(studyDir, 'labels', 'raters', rater);
}

/** `labels/blind-key.json`: run id → task and condition. */
export function blindKeyPath(studyDir: string): string {
  return path.join(studyDir, 'labels', 'blind-key.json');
}

/** The opaque id of a run for raters: 10 hex of sha256(study, task, condition). Pure. */
export function blindRunId(studyId: string, taskId: string, condition: string): string {
  return crypto.createHash('sha256').update(`lockin blind run\n${studyId}\n${taskId}\n${condition}`).digest('hex').slice(0, 10);
}

/**
 * Writes the blinded labelling folder of `rater` for the study's primary runs that have labels.
 * Rows are sorted by run id (which hides the condition order) and then obligation.
 * Output: {dir, file, runs, rows}. The blind key is (re)written; it is the same for every rater.
 */
export function exportForRater(study: LoadedStudy, rater: string): { dir: string; file: string; runs: number; rows: number } {
  const studyId = study.manifest.studyId;
  const dir = raterDir(study.studyDir, rater);
  const key: Record<string, { task: string; condition: string }> = {};
  const rows: Record<string, unknown>[] = [];
  for (const r of study.runs.filter((x) => x.labels.length > 0)) {
    const id = blindRunId(studyId, r.taskId, r.condition);
    key[id] = { task: r.taskId, condition: r.condition };
    const runDir = path.join(dir, 'runs', id);
    fs.mkdirSync(runDir, { recursive: true });
    for (const f of ARTIFACTS) if (r.conditionDir && fs.existsSync(path.join(r.conditionDir, f))) fs.copyFileSync(path.join(r.conditionDir, f), path.join(runDir, f));
    for (const l of r.labels) rows.push({ run: id, task: r.taskId, obligation: l.obligation.id, statement: l.obligation.statement, plan: '', code: '', test: '' });
  }
  rows.sort((a, b) => `${a.run}|${a.obligation}`.localeCompare(`${b.run}|${b.obligation}`, 'en', { numeric: true }));
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'to-label.csv');
  fs.writeFileSync(file, toCsv([...RATER_COLUMNS], rows));
  fs.writeFileSync(blindKeyPath(study.studyDir), JSON.stringify(Object.fromEntries(Object.entries(key).sort()), null, 1) + '\n');
  return { dir, file, runs: Object.keys(key).length, rows: rows.length };
}

/** One rater label, keyed back to its run. Empty = not labelled. */
export interface RaterLabel {
  task: string;
  condition: string;
  obligation: string;
  plan: string;
  code: string;
  test: string;
}

function readKey(studyDir: string): Record<string, { task: string; condition: string }> {
  const file = blindKeyPath(studyDir);
  if (!fs.existsSync(file)) throw new InputError('no blind key: export a rater file first (lockin labels export <study> --rater NAME)', file);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/**
 * Parses a rater's filled CSV against the study's blind key. Empty labels are allowed (not
 * labelled); any other value must be a label of its dimension.
 * @throws InputError naming the file, line and field: a missing column, an unknown run id, a
 *   task that is not the run's, an invalid label, a duplicated run × obligation.
 */
export function parseRaterLabels(text: string, file: string, key: Record<string, { task: string; condition: string }>): RaterLabel[] {
  const rows = parseCsv(text);
  if (rows.length === 0) throw new InputError('empty CSV', file);
  const header = rows[0].map((h) => h.trim().toLowerCase());
  for (const c of ['run', 'task', 'obligation', ...DIMENSIONS]) if (!header.includes(c)) throw new InputError(`missing column ${c} (the exported file's header: ${RATER_COLUMNS.join(',')})`, file, c);
  const col = (r: string[], c: string) => (r[header.indexOf(c)] ?? '').trim();
  const allowed: Record<Dimension, readonly string[]> = { plan: PLAN_LABELS, code: CODE_LABELS, test: RECORDED_TEST_LABELS };
  const seen = new Set<string>();
  return rows.slice(1).filter((r) => r.some((v) => v.trim() !== '')).map((r, i) => {
    const line = `line ${i + 2}`;
    const run = col(r, 'run');
    const k = key[run];
    if (!k) throw new InputError(`unknown run id "${run}" (not in the study's blind key)`, file, `${line}: run`);
    if (col(r, 'task') !== k.task) throw new InputError(`task "${col(r, 'task')}" is not run ${run}'s (${k.task})`, file, `${line}: task`);
    const out: RaterLabel = { task: k.task, condition: k.condition, obligation: col(r, 'obligation'), plan: col(r, 'plan'), code: col(r, 'code'), test: col(r, 'test') };
    for (const d of DIMENSIONS) if (out[d] && !allowed[d].includes(out[d])) throw new InputError(`invalid ${d} label "${out[d]}" (expected ${allowed[d].join(', ')}, or empty)`, file, `${line}: ${d}`);
    const id = `${run}|${out.obligation}`;
    if (seen.has(id)) throw new InputError(`run ${run} obligation ${out.obligation} labelled twice`, file, line);
    seen.add(id);
    return out;
  });
}

/**
 * Keeps a rater's filled CSV, unchanged, as `labels/raters/<rater>/labels.csv` after validating it.
 * A rater's labels are never overwritten: importing the same bytes again is a no-op; other bytes
 * are refused. Output: {file, rows, labelled (rows with at least one label), again}.
 * @throws InputError (invalid file; a different file already imported for this rater).
 */
export function importRaterLabels(studyDir: string, rater: string, file: string): { file: string; rows: number; labelled: number; again: boolean } {
  if (!fs.existsSync(file)) throw new InputError('file not found', file);
  const bytes = fs.readFileSync(file);
  const rows = parseRaterLabels(bytes.toString('utf8'), file, readKey(studyDir));
  const dest = path.join(raterDir(studyDir, rater), 'labels.csv');
  const labelled = rows.filter((r) => DIMENSIONS.some((d) => r[d])).length;
  if (fs.existsSync(dest)) {
    if (Buffer.compare(fs.readFileSync(dest), bytes) === 0) return { file: dest, rows: rows.length, labelled, again: true };
    throw new InputError(`rater ${rater} has labels already (${dest}); a rater's labels are never overwritten: import the new file under another rater name`, file);
  }
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.writeFileSync(dest, bytes);
  return { file: dest, rows: rows.length, labelled, again: false };
}

/** Every imported rater's labels, keyed by labelKey(task, condition, obligation). */
export function readRaters(studyDir: string): Map<string, Map<string, RaterLabel>> {
  const out = new Map<string, Map<string, RaterLabel>>();
  const root = path.join(studyDir, 'labels', 'raters');
  if (!fs.existsSync(root)) return out;
  for (const rater of fs.readdirSync(root).sort()) {
    const f = path.join(root, rater, 'labels.csv');
    if (!fs.existsSync(f)) continue;
    const rows = parseRaterLabels(fs.readFileSync(f, 'utf8'), f, readKey(studyDir));
    out.set(rater, new Map(rows.map((r) => [labelKey(r.task, r.condition, r.obligation), r])));
  }
  return out;
}

/** One kappa of the agreement table. */
export interface AgreementRow {
  dimension: Dimension;
  /** "rater A" vs "rater B", or "rater A" vs an automated labeller ("executable", "judge", …). */
  a: string;
  b: string;
  kappa: Kappa;
}

/**
 * Cohen's kappa per dimension between every two raters, and between each rater and each
 * automated labeller (on the items whose automated label that labeller produced). Pure.
 * Inputs: the study (its primary runs' automated labels) and readRaters' map.
 */
export function agreementRows(study: LoadedStudy, raters: Map<string, Map<string, RaterLabel>>): AgreementRow[] {
  const names = [...raters.keys()];
  const items = study.runs.flatMap((r) => r.labels.map((l) => ({ key: labelKey(r.taskId, r.condition, l.obligation.id), automated: l.automated })));
  const out: AgreementRow[] = [];
  for (const dimension of DIMENSIONS) {
    for (let i = 0; i < names.length; i++)
      for (let j = i + 1; j < names.length; j++) {
        const a = raters.get(names[i])!;
        const b = raters.get(names[j])!;
        out.push({ dimension, a: names[i], b: names[j], kappa: cohenKappa(items.map((x) => a.get(x.key)?.[dimension] ?? null), items.map((x) => b.get(x.key)?.[dimension] ?? null)) });
      }
    const labellers = [...new Set(items.map((x) => x.automated.source[dimension]))].sort();
    for (const name of names)
      for (const labeller of labellers) {
        const these = items.filter((x) => x.automated.source[dimension] === labeller);
        const rater = raters.get(name)!;
        out.push({ dimension, a: name, b: labeller, kappa: cohenKappa(these.map((x) => rater.get(x.key)?.[dimension] ?? null), these.map((x) => x.automated[dimension])) });
      }
  }
  return out;
}

/** The columns of the disagreements file: the final label columns and each rater's labels. */
export function disagreementColumns(raters: string[]): string[] {
  return [...FINAL_COLUMNS, ...raters.flatMap((r) => DIMENSIONS.map((d) => `${r}_${d}`))];
}

/**
 * The items where at least two raters gave different labels in some dimension, as rows of the
 * disagreements file: plan/code/test pre-filled where the raters agree and empty where they
 * differ (the adjudicator fills those), then every rater's labels. Pure.
 */
export function disagreements(studyId: string, raters: Map<string, Map<string, RaterLabel>>): Record<string, string>[] {
  const names = [...raters.keys()];
  const keys = [...new Set(names.flatMap((n) => [...raters.get(n)!.keys()]))].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const rows: Record<string, string>[] = [];
  for (const key of keys) {
    const given = names.map((n) => raters.get(n)!.get(key)).filter((x): x is RaterLabel => !!x);
    if (given.length < 2) continue;
    const differ = DIMENSIONS.filter((d) => new Set(given.map((g) => g[d]).filter(Boolean)).size > 1);
    if (differ.length === 0) continue;
    const [task, condition, obligation] = key.split('|');
    const row: Record<string, string> = { study: studyId, task, condition, obligation };
    for (const d of DIMENSIONS) row[d] = differ.includes(d) ? '' : (given.find((g) => g[d])?.[d] ?? '');
    for (const n of names) for (const d of DIMENSIONS) row[`${n}_${d}`] = raters.get(n)!.get(key)?.[d] ?? '';
    rows.push(row);
  }
  return rows;
}

/**
 * Records adjudicated final labels: every row of `file` (the disagreements file with plan, code
 * and test filled) goes into `labels/final.csv` (finalLabels.ts importFinalLabels) and, with the
 * raters' labels it resolved, into `labels/adjudication.csv` (appended; earlier lines kept).
 * Output: {finalFile, adjudicationFile, rows}.
 * @throws InputError for an invalid row (parseFinalLabels' errors, naming file, line and field).
 */
export function recordAdjudication(studyDir: string, studyId: string, file: string): { finalFile: string; adjudicationFile: string; rows: number } {
  const text = fs.readFileSync(file, 'utf8');
  const finals = parseFinalLabels(text, file);
  const raters = readRaters(studyDir);
  const names = [...raters.keys()];
  const res = importFinalLabels(studyDir, studyId, finals, file);
  const adjudicationFile = path.join(studyDir, 'labels', 'adjudication.csv');
  const columns = [...FINAL_COLUMNS, 'resolved', 'decidedFrom'];
  const old = fs.existsSync(adjudicationFile) ? parseCsv(fs.readFileSync(adjudicationFile, 'utf8')).slice(1).map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i] ?? '']))) : [];
  const rows = finals.map((f) => {
    const key = labelKey(f.task, f.condition, f.obligation);
    const resolved = names.map((n) => { const l = raters.get(n)!.get(key); return `${n}: ${l ? DIMENSIONS.map((d) => l[d] || '-').join('/') : 'not labelled'}`; }).join('; ');
    return { ...f, resolved, decidedFrom: path.basename(file) };
  });
  fs.writeFileSync(adjudicationFile, toCsv(columns, [...old, ...rows]));
  return { finalFile: res.file, adjudicationFile, rows: finals.length };
}
