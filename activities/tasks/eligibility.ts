/**
 * tasks/eligibility.yaml: the eligibility record of all 103 TPC-DS v1.4 variants
 * (docs/protocol.md §1 "Eligibility ... Record every one of the 103 with its verdict and reason").
 */
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { tasksRoot } from '../common/paths';
import { displayPath, parseYamlWith, type TaskProblem } from './load';
import { REFERENCE_INVENTORY, STUDY_TASKS } from '../../protocol/corpus';

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

/** One criterion's result for one variant: pass or fail, and the evidence (the text screen's finding or the run). */
export const CriterionResult = z.object({ result: z.enum(['pass', 'fail']), evidence: z.string().min(1) }).strict();
export type CriterionResult = z.infer<typeof CriterionResult>;

export const EligibilityEntry = z
  .object({
    id: z.string().regex(/^q\d+[ab]?$/),
    /** The screen's verdict: eligible iff every criterion of `screen` passes. */
    verdict: z.enum(['eligible', 'excluded']),
    /** The screen, criterion by criterion (i) and (iii) from screenQueryText, (ii) from executing the text unchanged. */
    screen: z.object({ 'i-stateless-solve': CriterionResult, 'ii-runs-unmodified': CriterionResult, 'iii-dataframe-api': CriterionResult }).strict(),
    constructs: z.array(z.enum(CONSTRUCTS)),
    role: z.enum(['study', 'extra-reference', 'none']),
    /** Whether the paper names this variant (PAPER_NAMED_TASKS, PAPER_NAMED_REFERENCES). */
    named_by_paper: z.boolean(),
    /** study-task for the 30 study tasks; every other variant is excluded from the study, with `exclusion`. */
    study_status: z.enum(['study-task', 'excluded']),
    /** For a used variant (role study or extra-reference): who chose it (the paper by naming it, or the project) and how. */
    selection: z.object({ by: z.enum(['paper', 'project']), how: z.string().min(1) }).strict().optional(),
    /** For an excluded variant: who excluded it (the screen on a failed criterion, the paper, or the project's choice) and why. */
    exclusion: z.object({ by: z.enum(['screen', 'paper', 'project']), reason: z.string().min(1) }).strict().optional(),
  })
  .strict()
  .superRefine((e, ctx) => {
    const passes = CRITERIA.every((c) => e.screen[c].result === 'pass');
    if ((e.verdict === 'eligible') !== passes)
      ctx.addIssue({ code: 'custom', path: ['verdict'], message: `${e.id} is ${e.verdict} but ${passes ? 'passes every criterion' : 'fails a criterion'} of screen` });
    if (e.role !== 'none' && e.verdict !== 'eligible')
      ctx.addIssue({ code: 'custom', path: ['verdict'], message: `${e.id} has role ${e.role} but is not eligible` });
    if ((e.role !== 'none') !== (e.selection !== undefined))
      ctx.addIssue({ code: 'custom', path: ['selection'], message: e.role === 'none' ? `${e.id} is not used (role none): no selection` : `${e.id} has role ${e.role}: say who chose it and how` });
    if ((e.study_status === 'study-task') !== (e.role === 'study'))
      ctx.addIssue({ code: 'custom', path: ['study_status'], message: `${e.id} has role ${e.role}: study_status ${e.role === 'study' ? 'study-task' : 'excluded'}` });
    if ((e.study_status === 'excluded') !== (e.exclusion !== undefined))
      ctx.addIssue({ code: 'custom', path: ['exclusion'], message: e.study_status === 'excluded' ? `${e.id} is excluded: say who excluded it and why` : `${e.id} is a study task: no exclusion` });
    if (e.exclusion && (e.exclusion.by === 'screen') !== (e.verdict === 'excluded'))
      ctx.addIssue({ code: 'custom', path: ['exclusion', 'by'], message: e.verdict === 'excluded' ? `${e.id} fails the screen: excluded by screen` : `${e.id} passes the screen: not excluded by it` });
  });
export type EligibilityEntry = z.infer<typeof EligibilityEntry>;

export const EligibilityFile = z
  .object({
    source: z.string().min(1),
    /** The paper's counts on its 4.0 texts (§II: "Thirty qualified and 73 were excluded"); they sum to 103. */
    paper_eligible_count: z.literal(30),
    paper_excluded_count: z.literal(73),
    /** How many variants the screen excludes on these texts (checked against the verdicts). */
    screen_excluded_count: z.number().int().min(0),
    note: z.string().min(1),
    /** How the project chose its study tasks the paper does not name (what is recorded, and that the choice was its own). */
    selection_rule: z.string().min(1),
    variants: z.array(EligibilityEntry).length(103),
  })
  .strict();
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
 * task it does not name); an extra reference is excluded by the paper, an unused eligible variant by
 * the project; screen_excluded_count is the number of verdicts `excluded`.
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
    const by = v.verdict === 'excluded' ? 'screen' : v.role === 'extra-reference' ? 'paper' : v.role === 'none' ? 'project' : undefined;
    if (v.exclusion && by && v.exclusion.by !== by) out.push({ file, field: `variants[${i}].exclusion.by`, message: `${v.id}: excluded by ${by}` });
  });
  const screened = e.variants.filter((v) => v.verdict === 'excluded').length;
  if (e.screen_excluded_count !== screened) out.push({ file, field: 'screen_excluded_count', message: `is ${e.screen_excluded_count}, but ${screened} verdict(s) are excluded` });
  return out;
}

/**
 * One line on what eligibility.yaml says: how many variants are study tasks and who excluded the
 * others (the screen, the paper, the project). Pure. Input: a validated file.
 * Output: e.g. "103 variants: 30 study tasks (15 named by the paper), 73 excluded: 0 by the screen, 3 by the paper, 70 by the project".
 */
export function eligibilitySummary(e: EligibilityFile): string {
  const v = e.variants;
  const study = v.filter((x) => x.study_status === 'study-task');
  const by = (b: string) => v.filter((x) => x.exclusion?.by === b).length;
  return `${v.length} variants: ${study.length} study tasks (${study.filter((x) => x.named_by_paper).length} named by the paper), ${v.length - study.length} excluded: ${by('screen')} by the screen, ${by('paper')} by the paper, ${by('project')} by the project`;
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
