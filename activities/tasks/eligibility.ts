/**
 * tasks/eligibility.yaml: the eligibility record of all 103 TPC-DS v1.4 variants
 * (docs/protocol.md §1 "Eligibility ... Record every one of the 103 with its verdict and reason").
 */
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { tasksRoot } from '../common/paths';
import { displayPath, parseYamlWith, type TaskProblem } from './load';
import { REFERENCE_INVENTORY, STUDY_TASKS } from './schema';

/** The 103 variant ids: q1..q99 with q14, q23, q24, q39 split into a/b. */
export const ALL_VARIANTS: readonly string[] = (() => {
  const out: string[] = [];
  for (let i = 1; i <= 99; i++) {
    if ([14, 23, 24, 39].includes(i)) out.push(`q${i}a`, `q${i}b`);
    else out.push(`q${i}`);
  }
  return out;
})();

/** The criteria of §1: (i) one stateless solve, (ii) runs unmodified on the pinned Spark, (iii) DataFrame API suffices. */
export const CRITERIA = ['i-stateless-solve', 'ii-runs-unmodified', 'iii-dataframe-api'] as const;
export type Criterion = (typeof CRITERIA)[number];

/** The study tasks the paper names (its case studies, robustness list and replication; docs/protocol.md §1). */
export const PAPER_NAMED_TASKS = ['q2', 'q4', 'q5', 'q11', 'q13', 'q14a', 'q14b', 'q17', 'q33', 'q35', 'q47', 'q69', 'q77', 'q78', 'q80'] as const;
/** The three extra references the paper names ("the 30 study queries plus q23b, q54, and q85"). */
export const PAPER_NAMED_REFERENCES = ['q23b', 'q54', 'q85'] as const;

/** One exclusion the text screen finds: the criterion it fails and why. */
export interface ScreenFinding {
  criterion: Criterion;
  exclusion: string;
}

/** Splits SQL text into statements on `;` outside quotes and comments; empty statements dropped. Pure. */
export function sqlStatements(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      cur += ch;
      if (ch === quote) quote = null;
    } else if (ch === '-' && text[i + 1] === '-') {
      while (i < text.length && text[i] !== '\n') i++;
      cur += '\n';
    } else if (ch === "'" || ch === '"' || ch === '`') {
      quote = ch;
      cur += ch;
    } else if (ch === ';') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((st) => st.trim()).filter((st) => st.length > 0);
}

/**
 * The eligibility screen of a query text (docs/protocol.md §1; the paper's "Before viewing model
 * output" paragraph): the forms that fail criterion (i) one stateless solve or (iii) the
 * DataFrame API without UDFs, lateral views or unavailable extensions, including the exclusions
 * the paper names (recursive CTE, multi-statement, pivot). Criterion (ii) runs unmodified is a
 * matter of execution, not text: it is recorded from a run (EligibilityEntry.ran). Pure.
 * Input: the query text. Output: the findings; [] when the text passes (i) and (iii).
 */
export function screenQueryText(text: string): ScreenFinding[] {
  const statements = sqlStatements(text);
  const body = statements.join('\n').toLowerCase().replace(/'(?:[^']|'')*'/g, "''");
  const out: ScreenFinding[] = [];
  if (statements.length > 1) out.push({ criterion: 'i-stateless-solve', exclusion: `multi-statement (${statements.length} statements)` });
  for (const st of statements) {
    const head = /^\s*\(*\s*([a-z]+)/i.exec(st)?.[1]?.toLowerCase();
    if (head && head !== 'select' && head !== 'with') out.push({ criterion: 'i-stateless-solve', exclusion: `a ${head.toUpperCase()} statement, not a query` });
  }
  const forms: [RegExp, string][] = [
    [/\bwith\s+recursive\b/, 'recursive CTE'],
    [/\bpivot\s*\(/, 'pivot'],
    [/\bunpivot\s*\(/, 'unpivot'],
    [/\blateral\s+view\b/, 'lateral view'],
    [/\bcreate\s+(?:or\s+replace\s+)?(?:temporary\s+)?function\b/, 'a user-defined function'],
    [/\btransform\s*\([^)]*\)\s*using\b/, 'a script transform (an unavailable extension)'],
  ];
  for (const [re, what] of forms) if (re.test(body)) out.push({ criterion: 'iii-dataframe-api', exclusion: what });
  return out;
}

/** SQL constructs recorded per variant (lower-case, hyphenated). */
export const CONSTRUCTS = [
  'cte', 'union', 'union-all', 'intersect', 'except', 'exists', 'not-exists', 'in-subquery', 'not-in-subquery',
  'scalar-subquery', 'correlated-subquery', 'window', 'rollup', 'grouping', 'full-outer-join', 'left-outer-join',
  'right-outer-join', 'cross-join', 'case', 'distinct', 'count-distinct', 'having', 'limit', 'order-by',
  'stddev', 'interval-arithmetic', 'cast', 'substr', 'coalesce', 'rank', 'between', 'like',
] as const;

export const EligibilityEntry = z
  .object({
    id: z.string().regex(/^q\d+[ab]?$/),
    verdict: z.enum(['eligible', 'excluded']),
    /** The criterion that decided the verdict; for eligible variants, the one checked last (iii). */
    criterion: z.enum(CRITERIA),
    /** Why, criterion by criterion (an excluded variant: the findings of screenQueryText). */
    reason: z.string().min(1),
    /** Criterion (ii): what running the text unchanged on Spark 4.1.2 gave. */
    ran: z.string().min(1),
    constructs: z.array(z.enum(CONSTRUCTS)),
    role: z.enum(['study', 'extra-reference', 'none']),
    /** Whether the paper names this variant (PAPER_NAMED_TASKS, PAPER_NAMED_REFERENCES). */
    named_by_paper: z.boolean(),
    /** For a used variant (role study or extra-reference): who chose it (the paper by naming it, or the project) and how. */
    selection: z.object({ by: z.enum(['paper', 'project']), how: z.string().min(1) }).strict().optional(),
  })
  .strict()
  .superRefine((e, ctx) => {
    if (e.role !== 'none' && e.verdict !== 'eligible')
      ctx.addIssue({ code: 'custom', path: ['verdict'], message: `${e.id} has role ${e.role} but is not eligible` });
    if ((e.role !== 'none') !== (e.selection !== undefined))
      ctx.addIssue({ code: 'custom', path: ['selection'], message: e.role === 'none' ? `${e.id} is not used (role none): no selection` : `${e.id} has role ${e.role}: say who chose it and how` });
  });
export type EligibilityEntry = z.infer<typeof EligibilityEntry>;

export const EligibilityFile = z.object({
  source: z.string().min(1),
  note: z.string().optional(),
  variants: z.array(EligibilityEntry).length(103),
});
export type EligibilityFile = z.infer<typeof EligibilityFile>;

/** Path of tasks/eligibility.yaml. */
export function eligibilityPath(root: string = tasksRoot()): string {
  return path.join(root, 'eligibility.yaml');
}

/**
 * Checks the semantic rules the zod schema cannot express: ids are exactly the 103 variants in
 * order; role study iff the id is one of the 30 STUDY_TASKS; extra-reference iff one of the
 * three extra references (q23b, q54, q85); named_by_paper iff the paper names it, and a used
 * variant's selection is by the paper iff the paper names it (the paper is credited with no
 * task it does not name).
 * Returns: problems naming the file and field.
 */
export function checkEligibility(file: string, e: EligibilityFile): TaskProblem[] {
  const out: TaskProblem[] = [];
  const study = new Set<string>(STUDY_TASKS);
  const extra = new Set<string>(REFERENCE_INVENTORY.filter((q) => !study.has(q)));
  const paperNamed = new Set<string>([...PAPER_NAMED_TASKS, ...PAPER_NAMED_REFERENCES]);
  e.variants.forEach((v, i) => {
    if (v.id !== ALL_VARIANTS[i]) out.push({ file, field: `variants[${i}].id`, message: `is ${v.id}, expected ${ALL_VARIANTS[i]} (the 103 variants in order)` });
    const want = study.has(v.id) ? 'study' : extra.has(v.id) ? 'extra-reference' : 'none';
    if (v.role !== want) out.push({ file, field: `variants[${i}].role`, message: `${v.id} is ${v.role}, expected ${want}` });
    const named = paperNamed.has(v.id);
    if (v.named_by_paper !== named) out.push({ file, field: `variants[${i}].named_by_paper`, message: `${v.id}: the paper ${named ? 'names' : 'does not name'} it` });
    if (v.selection && (v.selection.by === 'paper') !== named)
      out.push({ file, field: `variants[${i}].selection.by`, message: `${v.id}: ${named ? 'named by the paper' : 'not named by the paper: chosen by the project'}` });
  });
  return out;
}

/**
 * Loads and validates tasks/eligibility.yaml.
 * Returns: {value, problems}; problems name the file, field and problem; value is undefined when
 * the file is missing or does not parse.
 */
export function loadEligibility(root: string = tasksRoot()): { value?: EligibilityFile; problems: TaskProblem[] } {
  const p = eligibilityPath(root);
  const file = displayPath(p);
  if (!fs.existsSync(p)) return { problems: [{ file, field: '', message: 'file missing' }] };
  const r = parseYamlWith(file, fs.readFileSync(p, 'utf8'), EligibilityFile);
  if (!r.value) return { problems: r.problems };
  return { value: r.value, problems: checkEligibility(file, r.value) };
}
