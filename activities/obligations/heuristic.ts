/**
 * The deterministic fallback labeller, used only when no judge reply is available (a replay
 * corpus without `judge/<condition>.md`, or a report built without model access). Every label it
 * produces is marked `source: heuristic` in labels.json and in the export, so a reader can tell
 * it from rule-decided and judge labels. It is evidence of mention, not of semantics.
 *
 * Key terms of an obligation (keyTerms): text in backticks, text in single or double quotes,
 * snake_case identifiers (column names such as ss_ext_sales_price; a prefix pattern such as
 * cs_ext_* becomes the prefix cs_ext_) and numeric literals with a decimal point or at least
 * two digits (filter values such as 2000 or 1.3), lower-cased and de-duplicated. The rest of a
 * clause after "not", "never", "rather than" or "instead of" is ignored (it names the wrong
 * alternative). Matching is case-insensitive substring search.
 *
 * - plan: all key terms in plan.md → present; some → partial; none → absent;
 *   no key terms → ambiguous.
 * - test: all key terms inside assertion text of test_solution.py (each `assert` line plus the
 *   3 following lines) → covered; some in assertions, or all anywhere in the file →
 *   partially-covered; otherwise not-covered (also when no key terms).
 * - code: the candidate agrees with the reference → satisfied. Otherwise, if the comparison's
 *   failure categories include the one matching the obligation's kind (alias → alias-mismatch,
 *   type-precision → precision, schema → structural-schema or column-order) → violated;
 *   otherwise all key terms in solution.py → satisfied; some → partial; none → violated;
 *   no key terms → partial (undecided: weight 0 like violated, but never counted as a
 *   violation in SCOs or Table VI without evidence).
 */
import type { Obligation } from '../../protocol/corpus';
import type { FailureCategory } from '../../protocol/types';
import type { PlanLabel, CodeLabel, TestLabel } from '../../protocol/labels';

/** Extracts an obligation statement's key terms (see the module docstring). Output: lower-cased, unique, in order of appearance. */
export function keyTerms(statement: string): string[] {
  // Terms named as what NOT to do ("not unit prices such as ss_list_price", "rather than
  // ss_sales_price") are not evidence: drop the rest of such a clause.
  statement = statement.replace(/\b(not|never|rather than|instead of)\b[^.;:()]*/gi, ' ');
  const out: string[] = [];
  const add = (t: string) => {
    const v = t.trim().toLowerCase();
    if (v.length >= 2 && !out.includes(v)) out.push(v);
  };
  for (const m of statement.matchAll(/`([^`]+)`/g)) add(m[1]);
  for (const m of statement.matchAll(/"([^"]+)"|'([^']+)'/g)) add(m[1] ?? m[2]);
  for (const m of statement.matchAll(/\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?:_\*|\b)/g)) add(m[0].replace(/\*$/, ''));
  for (const m of statement.matchAll(/(?<![\w.])(\d+\.\d+|\d{2,})(?![\w.])/g)) add(m[1]);
  return out;
}

/** Counts how many of `terms` occur (case-insensitively) in `text`. */
function found(terms: string[], text: string): number {
  const t = text.toLowerCase();
  return terms.filter((k) => t.includes(k)).length;
}

/** The assertion text of a pytest file: every line containing `assert` plus the 3 following lines. */
export function assertionText(testSource: string): string {
  const lines = testSource.split('\n');
  const keep: string[] = [];
  lines.forEach((line, i) => {
    if (/\bassert/.test(line)) keep.push(...lines.slice(i, i + 4));
  });
  return keep.join('\n');
}

/** Heuristic plan label for one obligation (module docstring). */
export function heuristicPlan(terms: string[], plan: string): PlanLabel {
  if (terms.length === 0) return 'ambiguous';
  const n = found(terms, plan);
  return n === terms.length ? 'present' : n > 0 ? 'partial' : 'absent';
}

/** Heuristic test label for one obligation (module docstring). */
export function heuristicTest(terms: string[], tests: string): TestLabel {
  if (terms.length === 0) return 'not-covered';
  const inAsserts = found(terms, assertionText(tests));
  if (inAsserts === terms.length) return 'covered';
  if (inAsserts > 0 || found(terms, tests) === terms.length) return 'partially-covered';
  return 'not-covered';
}

const KIND_CATEGORIES: Partial<Record<Obligation['kind'], FailureCategory[]>> = {
  alias: ['alias-mismatch'],
  'type-precision': ['precision'],
  schema: ['structural-schema', 'column-order'],
};

/** Heuristic code label for one obligation (module docstring); `agree` is reference agreement. */
export function heuristicCode(ob: Pick<Obligation, 'kind'>, terms: string[], solution: string, agree: boolean, categories: FailureCategory[]): CodeLabel {
  if (agree) return 'satisfied';
  if ((KIND_CATEGORIES[ob.kind] ?? []).some((c) => categories.includes(c))) return 'violated';
  if (terms.length === 0) return 'partial';
  const n = found(terms, solution);
  return n === terms.length ? 'satisfied' : n > 0 ? 'partial' : 'violated';
}
