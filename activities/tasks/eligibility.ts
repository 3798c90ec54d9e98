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
    reason: z.string().min(1),
    constructs: z.array(z.enum(CONSTRUCTS)),
    role: z.enum(['study', 'extra-reference', 'none']),
    /** The paper's verdict where it differs from ours, or a note on the difference. */
    paper: z.string().optional(),
  })
  .superRefine((e, ctx) => {
    if (e.role !== 'none' && e.verdict !== 'eligible')
      ctx.addIssue({ code: 'custom', path: ['verdict'], message: `${e.id} has role ${e.role} but is not eligible` });
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
 * three extra references (q23b, q54, q85).
 * Returns: problems naming the file and field.
 */
export function checkEligibility(file: string, e: EligibilityFile): TaskProblem[] {
  const out: TaskProblem[] = [];
  const study = new Set<string>(STUDY_TASKS);
  const extra = new Set<string>(REFERENCE_INVENTORY.filter((q) => !study.has(q)));
  e.variants.forEach((v, i) => {
    if (v.id !== ALL_VARIANTS[i]) out.push({ file, field: `variants[${i}].id`, message: `is ${v.id}, expected ${ALL_VARIANTS[i]} (the 103 variants in order)` });
    const want = study.has(v.id) ? 'study' : extra.has(v.id) ? 'extra-reference' : 'none';
    if (v.role !== want) out.push({ file, field: `variants[${i}].role`, message: `${v.id} is ${v.role}, expected ${want}` });
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
