/**
 * Final labels (docs/protocol.md §5 "Final labels"): `lockin labels import FILE` and `lockin
 * labels adjudicate --decided FILE` merge decided rows (header
 * `study,task,condition,obligation,plan,code,test`) into `runs/<study>/labels/final.csv`;
 * mergeFinalLabel makes each item's final label from the decided row, the raters' agreed labels
 * and the automated label, recording each dimension's origin.
 */
import * as fs from 'fs';
import * as path from 'path';
import { InputError } from '../common/errors';
import { CONDITIONS } from '../../protocol/conditions';
import { PLAN_LABELS, CODE_LABELS, RECORDED_TEST_LABELS as TEST_LABELS, FINAL_ORIGINS, type PlanLabel, type CodeLabel, type TestLabel, type FinalLabel, type FinalOrigin } from '../../protocol/labels';
import { parseCsv, toCsv } from '../common/csv';

export const FINAL_COLUMNS = ['study', 'task', 'condition', 'obligation', 'plan', 'code', 'test'] as const;

export interface FinalLabelRow {
  study: string;
  task: string;
  condition: string;
  obligation: string;
  plan: PlanLabel;
  code: CodeLabel;
  test: TestLabel;
}

/** The key of one obligation in one run: "task|condition|obligation". */
export function labelKey(task: string, condition: string, obligation: string): string {
  return `${task}|${condition}|${obligation}`;
}

/**
 * Parses and validates an adjudication CSV.
 * Output: rows in file order.
 * @throws InputError naming the file, line and field for a missing column, an unknown condition,
 *   an invalid label, a malformed obligation id or a duplicated key.
 */
export function parseFinalLabels(text: string, file: string): FinalLabelRow[] {
  const rows = parseCsv(text);
  if (rows.length === 0) throw new InputError('empty CSV', file);
  const header = rows[0].map((h) => h.trim().toLowerCase());
  const idx = Object.fromEntries(FINAL_COLUMNS.map((c) => [c, header.indexOf(c)])) as Record<(typeof FINAL_COLUMNS)[number], number>;
  for (const c of FINAL_COLUMNS) if (idx[c] < 0) throw new InputError(`missing column ${c} (header must include ${FINAL_COLUMNS.join(',')})`, file, c);
  const seen = new Set<string>();
  return rows.slice(1).map((r, i) => {
    const line = `line ${i + 2}`;
    const get = (c: (typeof FINAL_COLUMNS)[number]) => (r[idx[c]] ?? '').trim();
    const row = { study: get('study'), task: get('task'), condition: get('condition'), obligation: get('obligation'), plan: get('plan'), code: get('code'), test: get('test') };
    if (!row.study) throw new InputError('empty study', file, `${line}: study`);
    if (!/^q\d+[ab]?$/.test(row.task)) throw new InputError(`not a task id: "${row.task}"`, file, `${line}: task`);
    if (!(CONDITIONS as readonly string[]).includes(row.condition)) throw new InputError(`unknown condition "${row.condition}" (expected ${CONDITIONS.join(', ')})`, file, `${line}: condition`);
    if (!/^O\d+$/.test(row.obligation)) throw new InputError(`not an obligation id: "${row.obligation}"`, file, `${line}: obligation`);
    if (!(PLAN_LABELS as readonly string[]).includes(row.plan)) throw new InputError(`invalid plan label "${row.plan}" (expected ${PLAN_LABELS.join(', ')})`, file, `${line}: plan`);
    if (!(CODE_LABELS as readonly string[]).includes(row.code)) throw new InputError(`invalid code label "${row.code}" (expected ${CODE_LABELS.join(', ')})`, file, `${line}: code`);
    if (!(TEST_LABELS as readonly string[]).includes(row.test)) throw new InputError(`invalid test label "${row.test}" (expected ${TEST_LABELS.join(', ')})`, file, `${line}: test`);
    const key = `${row.study}|${labelKey(row.task, row.condition, row.obligation)}`;
    if (seen.has(key)) throw new InputError(`duplicate label for ${key}`, file, line);
    seen.add(key);
    return row as FinalLabelRow;
  });
}

/** `runs/<id>/labels/final.csv` for a study folder. */
export function finalLabelsPath(studyDir: string): string {
  return path.join(studyDir, 'labels', 'final.csv');
}

/** Reads a study's final.csv into a map keyed by labelKey (empty map when the file does not exist). */
export function readFinalLabels(studyDir: string): Map<string, FinalLabelRow> {
  const file = finalLabelsPath(studyDir);
  const out = new Map<string, FinalLabelRow>();
  if (!fs.existsSync(file)) return out;
  for (const r of parseFinalLabels(fs.readFileSync(file, 'utf8'), file)) out.set(labelKey(r.task, r.condition, r.obligation), r);
  return out;
}

/**
 * Merges adjudicated rows into `<studyDir>/labels/final.csv` (a later import replaces the same
 * task × condition × obligation). Rows of another study are rejected.
 * Output: {file, imported, total}.
 * @throws InputError when a row names another study.
 */
export function importFinalLabels(studyDir: string, studyId: string, rows: FinalLabelRow[], source = 'CSV'): { file: string; imported: number; total: number } {
  for (const r of rows) if (r.study !== studyId) throw new InputError(`row for study ${r.study}, expected ${studyId}`, source, 'study');
  const merged = readFinalLabels(studyDir);
  for (const r of rows) merged.set(labelKey(r.task, r.condition, r.obligation), r);
  const file = finalLabelsPath(studyDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sorted = [...merged.values()].sort((a, b) => labelKey(a.task, a.condition, a.obligation).localeCompare(labelKey(b.task, b.condition, b.obligation), 'en', { numeric: true }));
  fs.writeFileSync(file, toCsv([...FINAL_COLUMNS], sorted as unknown as Record<string, unknown>[]));
  return { file, imported: rows.length, total: merged.size };
}

const DIMS = ['plan', 'code', 'test'] as const;
type Dim = (typeof DIMS)[number];

/**
 * The final label of one item (docs/protocol.md §5 "Final labels"), per dimension:
 * the decided row's label when the item has one (origin `adjudicated`: the adjudicator saw the
 * raters' labels and decided the whole row); else the raters' agreed label when there is one
 * (origin `raters-agreed`: two or more raters labelled the dimension and all agree; see
 * raters.ts ratersAgreed); else the automated label (origin `automated`). Pure.
 * Inputs: the automated triple, the decided row of final.csv (or undefined), the agreed labels.
 * Output: FinalLabel with `origins` per dimension and the row's `origin` (the common origin, or
 * `plan=…;code=…;test=…` when they differ).
 */
export function mergeFinalLabel(
  automated: { plan: PlanLabel; code: CodeLabel; test: TestLabel },
  decided: FinalLabelRow | undefined,
  agreed: Partial<Record<Dim, string>> = {},
): FinalLabel {
  const pick = (d: Dim): [string, FinalOrigin] => (decided ? [decided[d], 'adjudicated'] : agreed[d] ? [agreed[d]!, 'raters-agreed'] : [automated[d], 'automated']);
  const [plan, po] = pick('plan');
  const [code, co] = pick('code');
  const [test, to] = pick('test');
  const origins = { plan: po, code: co, test: to };
  const origin = po === co && co === to ? po : DIMS.map((d) => `${d}=${origins[d]}`).join(';');
  return { plan: plan as PlanLabel, code: code as CodeLabel, test: test as TestLabel, origins, origin };
}

/** Final labels per dimension and origin: counts[dimension][origin]. Pure. */
export function countOrigins(labels: ReadonlyArray<FinalLabel>): Record<Dim, Record<FinalOrigin, number>> {
  const out = Object.fromEntries(DIMS.map((d) => [d, Object.fromEntries(FINAL_ORIGINS.map((o) => [o, 0]))])) as Record<Dim, Record<FinalOrigin, number>>;
  for (const l of labels) for (const d of DIMS) out[d][l.origins[d]]++;
  return out;
}

/**
 * countOrigins as one line, e.g. `plan: 45 raters-agreed, 3 adjudicated, 0 automated; code: …`;
 * dimensions whose counts are equal are written once (`plan, code, test: …`). Pure.
 */
export function describeOrigins(labels: ReadonlyArray<FinalLabel>): string {
  const c = countOrigins(labels);
  const text = (d: Dim) => FINAL_ORIGINS.map((o) => `${c[d][o]} ${o}`).join(', ');
  if (DIMS.every((d) => text(d) === text('plan'))) return `plan, code, test: ${text('plan')}`;
  return DIMS.map((d) => `${d}: ${text(d)}`).join('; ');
}
