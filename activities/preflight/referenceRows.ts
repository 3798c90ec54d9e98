/**
 * Reference rows written as text (findings: "reference rows as CSV in a candidate or
 * prompt pass the preflight"; docs/protocol.md §3: the model never sees a reference output).
 * Pure functions over the rows of a task's reference output (activities/compare/table.ts cells).
 *
 * Only *distinctive* values count (a year, a category name or a small count is in many a prompt):
 *  - a number with ≥ 5 significant digits (1001001, 12345.67, 0.12345; matched as written,
 *    trailing zeros ignored, and rounded to 2 or 4 decimals when the reference has more);
 *  - a text of ≥ 6 characters with a letter in it, not a date, held by few of the reference's
 *    rows: at most max(1, ⌊rows / 10⌋) (matched as a substring). A text many rows share is a
 *    category of the data (an education status, a credit rating, a state name), which a model
 *    knows from the data's domain and writes into its own fixtures; it says nothing about which
 *    rows the reference holds (q69's contract fixtures, written at C-0 from the prompt,
 *    paired `College` with `High Risk` on three lines and were refused).
 * Rule (REFERENCE_ROW_RULE): a text leaks the reference when one of its lines holds ≥ 3
 * distinctive values of one reference row, or when its lines hold ≥ 3 different sets of ≥ 2
 * values of one row each (a CSV of a result with two distinctive columns; one prompt line
 * naming two values that many rows share is one set, so it counts once).
 */
import type { Cell } from '../compare/table';

export const REFERENCE_ROW_RULE = { valuesOnOneLine: 3, pairValues: 2, pairLines: 3, minSignificantDigits: 5, minTextLength: 6, maxTextRowShare: 0.1 } as const;

/** The distinctive values of a reference, indexed for one pass over a text. */
export interface RowIndex {
  /** Rows of the reference. */
  rowCount: number;
  /** Normalized number text → the rows holding it. */
  numbers: Map<string, number[]>;
  /** Distinctive texts → the rows holding them. */
  texts: Map<string, number[]>;
}

/** A number's text without sign of zero, trailing fraction zeros or a bare point ("12.50" → "12.5", "7.0" → "7"). */
export function normalizeNumber(s: string): string {
  let t = s.trim();
  if (t.includes('.')) t = t.replace(/0+$/, '').replace(/\.$/, '');
  if (/^-0*$/.test(t)) t = '0';
  return t;
}

function significantDigits(t: string): number {
  return t.replace(/^-/, '').replace('.', '').replace(/^0+/, '').length;
}

/** The texts under which a numeric cell may be written (exact; rounded to 2 and 4 decimals). */
function numberForms(cell: number | string): string[] {
  const exact = normalizeNumber(typeof cell === 'number' ? (Number.isFinite(cell) && Math.abs(cell) < 1e15 ? String(cell) : '') : cell);
  if (!/^-?\d+(\.\d+)?$/.test(exact)) return [];
  const forms = new Set([exact]);
  const decimals = exact.includes('.') ? exact.length - exact.indexOf('.') - 1 : 0;
  for (const d of [2, 4]) if (decimals > d) forms.add(normalizeNumber(Number(exact).toFixed(d)));
  return [...forms].filter((f) => significantDigits(f) >= REFERENCE_ROW_RULE.minSignificantDigits);
}

/**
 * Indexes the distinctive values of each row (module doc). Pure.
 * @param rows the reference's rows (cells as activities/compare/table.ts decodes them: decimals
 *   and bigints as strings, other numbers as numbers, texts, dates as "YYYY-MM-DD", null).
 */
export function buildRowIndex(rows: Cell[][]): RowIndex {
  const numbers = new Map<string, number[]>();
  const texts = new Map<string, number[]>();
  const put = (m: Map<string, number[]>, k: string, r: number) => {
    const l = m.get(k);
    if (!l) m.set(k, [r]);
    else if (l[l.length - 1] !== r) l.push(r);
  };
  rows.forEach((row, r) => {
    for (const cell of row) {
      if (typeof cell === 'number' || (typeof cell === 'string' && /^-?\d+(\.\d+)?$/.test(cell.trim()))) for (const f of numberForms(cell as number | string)) put(numbers, f, r);
      else if (typeof cell === 'string') {
        const t = cell.trim();
        if (t.length >= REFERENCE_ROW_RULE.minTextLength && /[A-Za-z]/.test(t) && !/^\d{4}-\d{2}-\d{2}/.test(t)) put(texts, t, r);
      }
    }
  });
  const maxRows = Math.max(1, Math.floor(rows.length * REFERENCE_ROW_RULE.maxTextRowShare));
  for (const [t, held] of texts) if (held.length > maxRows) texts.delete(t);
  return { rowCount: rows.length, numbers, texts };
}

/** What a text reveals of a reference. */
export interface RowLeak {
  /** Rows (0-based) with values on a line that counts. */
  rows: number[];
  /** The first line that counts (trimmed, at most 120 characters). */
  example: string;
}

/**
 * Applies the rule of the module doc to `text`. Pure; O(lines × distinctive texts).
 * @returns the rows revealed and an example line, or null when the text is clean.
 */
export function findRowLeak(text: string, index: RowIndex): RowLeak | null {
  if (index.numbers.size === 0 && index.texts.size === 0) return null;
  const strong = new Set<number>();
  const pairSets = new Map<string, { row: number; line: string }>();
  let example = '';
  for (const line of text.split('\n')) {
    if (line.length < 6) continue;
    const found = new Map<number, Set<string>>(); // row → its values on this line
    const note = (rows: number[] | undefined, v: string) => {
      for (const r of rows ?? []) {
        let s = found.get(r);
        if (!s) found.set(r, (s = new Set()));
        s.add(v);
      }
    };
    for (const m of line.matchAll(/-?\d+(?:\.\d+)?/g)) {
      const t = normalizeNumber(m[0]);
      note(index.numbers.get(t), `n:${t}`);
    }
    for (const [t, rows] of index.texts) if (line.includes(t)) note(rows, `t:${t}`);
    for (const [r, vals] of found) {
      if (vals.size >= REFERENCE_ROW_RULE.valuesOnOneLine) {
        strong.add(r);
        if (!example) example = line.trim().slice(0, 120);
      } else if (vals.size >= REFERENCE_ROW_RULE.pairValues) {
        const key = [...vals].sort().join('|');
        if (!pairSets.has(key)) pairSets.set(key, { row: r, line: line.trim().slice(0, 120) });
      }
    }
  }
  if (strong.size) return { rows: [...strong].sort((a, b) => a - b), example };
  if (pairSets.size >= REFERENCE_ROW_RULE.pairLines) {
    const hits = [...pairSets.values()];
    return { rows: [...new Set(hits.map((h) => h.row))].sort((a, b) => a - b), example: hits[0].line };
  }
  return null;
}
