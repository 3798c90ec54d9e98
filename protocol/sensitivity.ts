/**
 * Sensitivity subsets (Table V, docs/protocol.md §5 "Sensitivity"): restrictions of the task list
 * under which the primary outcomes and paired changes are recomputed, tasks staying paired. They
 * are study settings (StudyInput.sensitivity, recorded in study.json); PAPER_SENSITIVITY, the
 * paper's three, is the default. Each subset carries its rule in words, which the report prints.
 */
import { z } from 'zod';

/** One sensitivity subset: the tasks kept are the study's, minus `exclude`, and (when `reproducedOnly`) only those whose reference reproduces under SQL re-execution. */
export const SensitivitySubset = z
  .object({
    /** The row label in Table V. */
    name: z.string().min(1),
    /** The rule in words, with its source. */
    rule: z.string().min(1),
    /** Tasks left out (a task not in the study is ignored). */
    exclude: z.array(z.string().regex(/^q\d+[ab]?$/)).default([]),
    /** Keep only tasks whose reference reproduced (needs reproduce.json; skipped without it). */
    reproducedOnly: z.boolean().default(false),
  })
  .strict();
export type SensitivitySubset = z.infer<typeof SensitivitySubset>;

/** The subsets of a study setting. */
export const SensitivitySubsets = z.array(SensitivitySubset);

/**
 * The paper's subsets, built for a set of excluded tasks (the paper: q11, "Excluding the
 * session-sensitive q11 score record"; "retain SQL-reproduced tasks, or apply both
 * restrictions"). Pure.
 */
export function paperShapedSubsets(exclude: readonly string[], why: string): SensitivitySubset[] {
  const ex = exclude.join(', ');
  const out: SensitivitySubset[] = [];
  if (exclude.length) out.push({ name: `Excluding ${ex}`, rule: `every task but ${ex} (${why})`, exclude: [...exclude], reproducedOnly: false });
  out.push({ name: 'SQL-reproduced references only', rule: 'only the tasks whose reference reproduces under SQL re-execution (schema and multiset; the paper: "retain SQL-reproduced tasks")', exclude: [], reproducedOnly: true });
  if (exclude.length) out.push({ name: `SQL-reproduced, excluding ${ex}`, rule: `both restrictions (the paper: "or apply both restrictions")`, exclude: [...exclude], reproducedOnly: true });
  return out;
}

/** The default for a paper replication: the paper's three subsets, q11 excluded. */
export const PAPER_SENSITIVITY: readonly SensitivitySubset[] = paperShapedSubsets(['q11'], 'the paper excludes "the session-sensitive q11 score record"');
