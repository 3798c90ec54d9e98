/**
 * Human raters (docs/protocol.md §5 "Human raters"
 * and "Final labels"):
 *   export     `runs/<id>/labels/raters/<rater>/`: a blinded CSV to fill (one row per primary run
 *              and obligation, the run named by an opaque id, no condition, no automated label,
 *              no other rater's label), a README.md with the allowed values, and each run's
 *              plan.md, solution.py and scored suite as tests.py under `runs/<run id>/` (the same
 *              names for every condition); the key from run id to task and condition is
 *              `labels/blind-key.json`, outside the rater's folder (never given to raters);
 *   import     the filled CSV is validated and kept byte for byte as `labels.csv` in the rater's
 *              folder; a different second file is refused unless --replace (the old one kept);
 *   agreement  Cohen's kappa (agreement.ts) per dimension between every two raters and between
 *              each rater and each automated labeller, on the items both labelled;
 *   final      per item and dimension: the decided label (labels/final.csv), else the label all
 *              raters who labelled it agree on (two or more), else automated (finalLabels.ts
 *              mergeFinalLabel, applied by study.ts loadStudy);
 *   disagreements and adjudication: the items where raters disagree, and the final labels decided
 *              for them, recorded with the labels they resolved (`labels/adjudication.csv`) and
 *              merged into `labels/final.csv` (finalLabels.ts).
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { InputError } from '../common/errors';
import { parseCsv, toCsv } from '../common/csv';
import { PLAN_LABELS, CODE_LABELS, TEST_LABELS } from '../../protocol/labels';
import { cohenKappa, type Kappa } from './agreement';
import { FINAL_COLUMNS, importFinalLabels, labelKey, parseFinalLabels } from './finalLabels';
import type { LoadedStudy } from './loadedStudy';
import { scoredSuite, type ConditionId } from '../../protocol/conditions';

export const DIMENSIONS = ['plan', 'code', 'test'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** The columns of a rater's CSV, in order; the rater fills plan, code and test. */
export const RATER_COLUMNS = ['run', 'task', 'obligation', 'statement', 'plan', 'code', 'test'] as const;

/**
 * The files of a blinded run folder, the same names whatever the condition (docs/protocol.md §5
 * "Human raters"): plan.md and solution.py copied when the run has them, and the suite the test
 * label is about (protocol/conditions.ts scoredSuite: Contract-First's frozen contract_test.py,
 * otherwise test_solution.py) copied as tests.py. No other file is copied, so no condition-
 * specific name reaches the rater.
 */
export const BLINDED_FILES = ['plan.md', 'solution.py', 'tests.py'] as const;

/** The run's file copied as `blinded` (one of BLINDED_FILES) for `condition`. Pure. */
export function blindedSource(blinded: (typeof BLINDED_FILES)[number], condition: string): string {
  return blinded === 'tests.py' ? scoredSuite(condition as ConditionId) : blinded;
}

/** One-line meanings of the labels a rater gives (the judge's definitions, activities/model/prompts/judge.md; weights docs/protocol.md §5). */
export const LABEL_MEANINGS: Record<Dimension, Record<string, string>> = {
  plan: {
    present: 'plan.md states the obligation (weight 1)',
    partial: 'plan.md states part of it (weight 0.5)',
    ambiguous: 'plan.md mentions it in a way that can be read more than one way (weight 0.5)',
    absent: 'plan.md does not state it (weight 0)',
    contradicted: 'plan.md states something that contradicts it (weight 0)',
  },
  code: {
    satisfied: 'solution.py implements it (weight 1)',
    partial: 'solution.py implements part of it (weight 0)',
    violated: 'solution.py does not implement it or does the opposite (weight 0)',
    'execution-failed': 'solution.py did not run, so the obligation cannot hold (weight 0)',
  },
  test: {
    covered: 'a test in tests.py checks it: a solution violating it would fail (weight 1)',
    'partially-covered': 'tests.py checks part of it (weight 0.5)',
    'not-covered': 'no test in tests.py checks it (weight 0)',
  },
};

/** The README.md written beside a rater's to-label.csv: columns, allowed values and their meanings, the files, and what not to read. Pure. */
export function raterReadme(rater: string, studyId: string): string {
  const values = (d: Dimension) => RATER_LABELS[d].map((v) => `  - \`${v}\`: ${LABEL_MEANINGS[d][v]}`).join('\n');
  return `# Labelling instructions for ${rater} (study ${studyId})

Fill \`to-label.csv\` (one row per run and obligation) and return it; it is imported with
\`lockin labels import <file> --rater ${rater} --study ${studyId}\`. Label independently: do not look at
another rater's file or at any automated label.

## Columns

- \`run\`: the run's opaque id; its files are in \`runs/<run>/\` beside this file. Do not change it.
- \`task\`, \`obligation\`, \`statement\`: the task, the obligation's id and what it requires. Do not change them.
- \`plan\`, \`code\`, \`test\`: your labels, one allowed value each (below). Leave a cell empty when you
  cannot decide; an empty cell is "not labelled" (a dimension only one rater labels keeps the automated label).

## Allowed values

- \`plan\`: does \`runs/<run>/plan.md\` state the obligation?
${values('plan')}
- \`code\`: does \`runs/<run>/solution.py\` implement it?
${values('code')}
- \`test\`: does \`runs/<run>/tests.py\` check it? \`tests.py\` is the suite the run is scored on (whatever
  the condition, it is copied under this one name).
${values('test')}

## Files

Every \`runs/<run>/\` folder holds the same names: \`plan.md\`, \`solution.py\` and \`tests.py\` (a file
the run did not produce is missing). Nothing in this folder names the run's condition.

The blind key (\`labels/blind-key.json\` in the study folder, beside \`raters/\`) maps run ids to
conditions: it must not be given to raters. Give a rater only \`labels/raters/${rater}/\`.
`;
}

/**
 * The labels a rater may give, per dimension: the judge's (protocol/stages.ts). `invalid-on-gold`
 * is not among them: it is the executable labeller's finding that a suite fails on gold, not a
 * judgement a rater makes from the artifacts (docs/protocol.md §5).
 */
export const RATER_LABELS: Record<Dimension, readonly string[]> = { plan: PLAN_LABELS, code: CODE_LABELS, test: TEST_LABELS };

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
 * Each run folder holds BLINDED_FILES only; README.md beside to-label.csv gives the columns and
 * the allowed values (raterReadme). Output: {dir, file, readme, runs, rows}. The blind key is
 * (re)written outside the rater's folder; it is the same for every rater.
 */
export function exportForRater(study: LoadedStudy, rater: string): { dir: string; file: string; readme: string; runs: number; rows: number } {
  const studyId = study.manifest.studyId;
  const dir = raterDir(study.studyDir, rater);
  const key: Record<string, { task: string; condition: string }> = {};
  const rows: Record<string, unknown>[] = [];
  for (const r of study.runs.filter((x) => x.labels.length > 0)) {
    const id = blindRunId(studyId, r.taskId, r.condition);
    key[id] = { task: r.taskId, condition: r.condition };
    const runDir = path.join(dir, 'runs', id);
    fs.mkdirSync(runDir, { recursive: true });
    for (const f of BLINDED_FILES) {
      const src = r.conditionDir ? path.join(r.conditionDir, blindedSource(f, r.condition)) : '';
      if (src && fs.existsSync(src)) fs.copyFileSync(src, path.join(runDir, f));
    }
    for (const l of r.labels) rows.push({ run: id, task: r.taskId, obligation: l.obligation.id, statement: l.obligation.statement, plan: '', code: '', test: '' });
  }
  rows.sort((a, b) => `${a.run}|${a.obligation}`.localeCompare(`${b.run}|${b.obligation}`, 'en', { numeric: true }));
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'to-label.csv');
  fs.writeFileSync(file, toCsv([...RATER_COLUMNS], rows));
  const readme = path.join(dir, 'README.md');
  fs.writeFileSync(readme, raterReadme(rater, studyId));
  fs.writeFileSync(blindKeyPath(study.studyDir), JSON.stringify(Object.fromEntries(Object.entries(key).sort()), null, 1) + '\n');
  return { dir, file, readme, runs: Object.keys(key).length, rows: rows.length };
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
  const allowed = RATER_LABELS;
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
 * A rater's labels are never silently overwritten: importing the same bytes again is a no-op;
 * other bytes are refused, unless `replace` (`lockin labels import --replace`, docs/protocol.md
 * §5 "Human raters"): then the current labels.csv is kept as `labels.<n>.csv` (n = 1, 2, … the
 * first unused) and the replacement recorded in `replaced.csv` of the rater's folder
 * (replaced_at, kept_as, sha256 of the old and new file, source). Only labels.csv is read.
 * Output: {file, rows, labelled (rows with at least one label), again, keptAs (the old file's
 * new path when replaced)}.
 * @throws InputError (invalid file; a different file already imported for this rater without replace).
 */
export function importRaterLabels(studyDir: string, rater: string, file: string, opts: { replace?: boolean; now?: Date } = {}): { file: string; rows: number; labelled: number; again: boolean; keptAs?: string } {
  if (!fs.existsSync(file)) throw new InputError('file not found', file);
  const bytes = fs.readFileSync(file);
  const rows = parseRaterLabels(bytes.toString('utf8'), file, readKey(studyDir));
  const dir = raterDir(studyDir, rater);
  const dest = path.join(dir, 'labels.csv');
  const labelled = rows.filter((r) => DIMENSIONS.some((d) => r[d])).length;
  let keptAs: string | undefined;
  if (fs.existsSync(dest)) {
    const old = fs.readFileSync(dest);
    if (Buffer.compare(old, bytes) === 0) return { file: dest, rows: rows.length, labelled, again: true };
    if (!opts.replace)
      throw new InputError(`rater ${rater} has labels already (${dest}); a rater's labels are not overwritten: to supersede them, import again with --replace (the old file is kept as labels.<n>.csv)`, file);
    let n = 1;
    while (fs.existsSync(path.join(dir, `labels.${n}.csv`))) n++;
    keptAs = path.join(dir, `labels.${n}.csv`);
    fs.renameSync(dest, keptAs);
    const log = path.join(dir, 'replaced.csv');
    const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
    const columns = ['replaced_at', 'kept_as', 'old_sha256', 'new_sha256', 'source'];
    const prev = fs.existsSync(log) ? parseCsv(fs.readFileSync(log, 'utf8')).slice(1).map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i] ?? '']))) : [];
    fs.writeFileSync(log, toCsv(columns, [...prev, { replaced_at: (opts.now ?? new Date()).toISOString(), kept_as: path.basename(keptAs), old_sha256: sha(old), new_sha256: sha(bytes), source: path.resolve(file) }]));
  }
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(dest, bytes);
  return { file: dest, rows: rows.length, labelled, again: false, ...(keptAs ? { keptAs } : {}) };
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
  /**
   * Items left out of this pair because the automated labeller's value is one a rater cannot
   * give (not in RATER_LABELS, e.g. test `invalid-on-gold`); 0 between raters.
   */
  leftOut: number;
  /** The labeller(s) of the pair that gave a single category on the compared items (kappa's prevalence problem); empty when none. */
  singleCategory: string[];
}

/** The labellers among (a, b) whose non-empty labels over the compared items take one value. Pure. */
function singleCategoryOf(a: string, b: string, la: ReadonlyArray<string | null>, lb: ReadonlyArray<string | null>): string[] {
  const both = la.map((x, i) => (x && lb[i] ? i : -1)).filter((i) => i >= 0);
  if (both.length === 0) return [];
  return [[a, la], [b, lb] as const].filter(([, l]) => new Set(both.map((i) => l[i])).size === 1).map(([n]) => n as string);
}

/**
 * Cohen's kappa per dimension between every two raters, and between each rater and each
 * automated labeller (on the items whose automated label that labeller produced, leaving out
 * those whose automated value a rater cannot give: `leftOut`). `singleCategory` names a side that
 * used one category on the compared items, where kappa is uninformative (prevalence: kappa is 0
 * or undefined however high the observed agreement). Pure.
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
        const la = items.map((x) => a.get(x.key)?.[dimension] ?? null);
        const lb = items.map((x) => b.get(x.key)?.[dimension] ?? null);
        out.push({ dimension, a: names[i], b: names[j], kappa: cohenKappa(la, lb), leftOut: 0, singleCategory: singleCategoryOf(names[i], names[j], la, lb) });
      }
    const labellers = [...new Set(items.map((x) => x.automated.source[dimension]))].sort();
    for (const name of names)
      for (const labeller of labellers) {
        const rater = raters.get(name)!;
        const all = items.filter((x) => x.automated.source[dimension] === labeller);
        const givable = (x: (typeof items)[number]) => RATER_LABELS[dimension].includes(x.automated[dimension]);
        // Left out: items the rater labelled whose automated value no rater can give.
        const leftOut = all.filter((x) => !givable(x) && !!rater.get(x.key)?.[dimension]).length;
        const these = all.filter(givable);
        const la = these.map((x) => rater.get(x.key)?.[dimension] ?? null);
        const lb = these.map((x) => x.automated[dimension]);
        out.push({ dimension, a: name, b: labeller, kappa: cohenKappa(la, lb), leftOut, singleCategory: singleCategoryOf(name, labeller, la, lb) });
      }
  }
  return out;
}

/** The note printed beside a kappa: the prevalence warning and the items left out, or ''. Pure. */
export function agreementNote(r: AgreementRow): string {
  const notes: string[] = [];
  if (r.singleCategory.length) notes.push(`${r.singleCategory.join(' and ')} used a single category: kappa uninformative (prevalence)`);
  if (r.leftOut) notes.push(`${r.leftOut} left out: ${r.b}'s label is one a rater cannot give`);
  return notes.join('; ');
}

/**
 * The agreement table of `lockin labels agreement`: the report's columns and a Note column
 * (agreementNote), then one line per pair with items left out. Pure.
 */
export function formatAgreementCli(rows: ReadonlyArray<AgreementRow>): string {
  const f = (x: number | null) => (x === null ? '—' : x.toFixed(3));
  const lines = ['| Dimension | Labeller A | Labeller B | Items | Observed agreement | Cohen\'s kappa | Note |', '|---|---|---|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.dimension} | ${r.a} | ${r.b} | ${r.kappa.n} | ${r.kappa.n ? f(r.kappa.observed) : '—'} | ${f(r.kappa.kappa)} | ${agreementNote(r)} |`);
  const left = rows.filter((r) => r.leftOut > 0);
  const total = left.reduce((s, r) => s + r.leftOut, 0);
  if (total) lines.push('', `${total} rater labels left out of rater × labeller pairs because the labeller's value is one a rater cannot give (e.g. test invalid-on-gold: the suite fails on gold): ${left.map((r) => `${r.dimension} ${r.a}×${r.b} ${r.leftOut}`).join(', ')}`);
  return lines.join('\n');
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

/**
 * The raters' agreed labels of one item (labelKey), per dimension (docs/protocol.md §5 "Final
 * labels"): a dimension is agreed when two or more raters labelled it (a non-empty cell) and all
 * of them gave the same label. A dimension only one rater labelled is not agreed (a single
 * rater's label is not agreement): its final label stays automated unless decided. Pure.
 */
export function ratersAgreed(raters: Map<string, Map<string, RaterLabel>>, key: string): Partial<Record<Dimension, string>> {
  const out: Partial<Record<Dimension, string>> = {};
  for (const d of DIMENSIONS) {
    const given = [...raters.values()].map((m) => m.get(key)?.[d] ?? '').filter(Boolean);
    if (given.length >= 2 && given.every((g) => g === given[0])) out[d] = given[0];
  }
  return out;
}

/**
 * How the raters' labels stand, per dimension, over every item some rater labelled: `agreed` (two
 * or more raters labelled it and all agree: final = their label), `disagreed` (two or more
 * differ: final = the decided label, else automated), `single` (one rater only: not agreement,
 * final = automated unless decided; docs/protocol.md §5 "Final labels"). Pure.
 */
export function raterCoverage(raters: Map<string, Map<string, RaterLabel>>): Record<Dimension, { agreed: number; disagreed: number; single: number }> {
  const keys = new Set([...raters.values()].flatMap((m) => [...m.keys()]));
  const out = Object.fromEntries(DIMENSIONS.map((d) => [d, { agreed: 0, disagreed: 0, single: 0 }])) as Record<Dimension, { agreed: number; disagreed: number; single: number }>;
  for (const key of keys)
    for (const d of DIMENSIONS) {
      const given = [...raters.values()].map((m) => m.get(key)?.[d] ?? '').filter(Boolean);
      if (given.length === 1) out[d].single++;
      else if (given.length >= 2) out[d][given.every((g) => g === given[0]) ? 'agreed' : 'disagreed']++;
    }
  return out;
}
