/**
 * Discrimination per task (docs/protocol.md §7 "Beyond the paper"): can the task's reference
 * tell a right candidate from a wrong one on the study's database? Two checks, each with the
 * study's primary comparator (docs/protocol.md §4):
 * 1. An output with the reference's schema and no rows must disagree with the reference. It
 *    agrees exactly when the reference is empty (q78 at SF=1; q23b, q54, q85 too): then every
 *    candidate with the right schema and an empty result agrees, right or wrong.
 * 2. Every gold mutant must disagree. A mutant whose verdict is "equivalent" agreed with the
 *    reference on every database it ran on (mutation.json): the reference does not tell that
 *    defect apart there. Undecided mutants (verdict "error") are counted, not judged.
 * A task *discriminates* when both hold; with no mutant verdicts recorded only check 1 decides.
 */
import { compareTables } from '../compare/compare';
import type { PlainTable } from '../compare/table';

/** One mutant as mutation.json records it (id, operator, the equivalence verdict). */
export interface MutantVerdictLite {
  id: string;
  operator: string;
  verdict: string;
}

/** The discrimination record of one task. */
export interface TaskDiscrimination {
  task: string;
  /** Reference rows, or null when the reference is missing. */
  referenceRows: number | null;
  /** Check 1: an empty output with the reference's schema disagrees (null: no reference). */
  emptyDisagrees: boolean | null;
  /** Check 2: the mutants that disagree, agree (ids) and are undecided; null: no verdicts recorded. */
  mutants: { disagree: number; agree: string[]; undecided: number } | null;
  /** Both checks hold (null: no reference). */
  discriminates: boolean | null;
  /** Why not, in words (empty when it discriminates). */
  flags: string[];
  /**
   * Check 1 on each variant database built at the study's scale (differential execution, differential
   * execution), by variant name; absent when no variant was built (older studies).
   */
  databases?: Record<string, DatabaseDiscrimination>;
}

/** The empty-result check on one variant database. */
export interface DatabaseDiscrimination {
  /** Reference rows on that database; null when its reference is missing or its SQL fails there. */
  referenceRows: number | null;
  /** An empty output with the reference's schema disagrees there (null: no reference). */
  emptyDisagrees: boolean | null;
  /** The reference SQL's error on that database (references.json failedVariants), when it fails. */
  failed?: string;
}

/** A variant database's reference of one task: its output, its SQL's failure, or null (not built). */
export type VariantReferenceInput = PlainTable | { failed: string } | null;

/**
 * Adds check 1 on each variant database to a task's discrimination record (see the module
 * docstring; differential execution). The verdict `discriminates` stays the study database's (the paper's single
 * database); a task whose study reference is empty gets one more flag: the variants where an empty
 * result disagrees (there the reference tells an empty candidate apart), or that it is empty there too.
 * @param d the record from taskDiscrimination; @param variants by variant name, in column order
 * @returns a new record with `databases` set (and the flag added)
 */
export function withVariantDatabases(d: TaskDiscrimination, variants: Record<string, VariantReferenceInput>): TaskDiscrimination {
  const databases: Record<string, DatabaseDiscrimination> = {};
  for (const [name, ref] of Object.entries(variants)) {
    if (ref === null) databases[name] = { referenceRows: null, emptyDisagrees: null };
    else if ('failed' in ref) databases[name] = { referenceRows: null, emptyDisagrees: null, failed: ref.failed };
    else databases[name] = { referenceRows: ref.rows.length, emptyDisagrees: !compareTables({ ...ref, source: `${ref.source} (no rows)`, rows: [] }, ref).agree };
  }
  const flags = [...d.flags];
  const names = Object.keys(databases);
  if (d.emptyDisagrees === false && names.length) {
    const where = names.filter((n) => databases[n].emptyDisagrees === true);
    flags.push(where.length ? `an empty result disagrees on variant(s) ${where.join(', ')}` : 'empty on every variant database too: no database here tells an empty candidate apart');
  }
  return { ...d, flags, databases };
}

/**
 * Discrimination of one task's reference (see the module docstring).
 * @param task the task id
 * @param reference the reference output at the study's scale, or null when it is missing
 * @param mutants the gold mutants' verdicts (mutation.json `mutants[<task>].mutants`), or null
 * @returns the two checks, the verdict and the flags
 */
export function taskDiscrimination(task: string, reference: PlainTable | null, mutants: MutantVerdictLite[] | null): TaskDiscrimination {
  if (!reference) return { task, referenceRows: null, emptyDisagrees: null, mutants: null, discriminates: null, flags: ['no reference at this scale'] };
  const empty: PlainTable = { ...reference, source: `${reference.source} (no rows)`, rows: [] };
  const emptyDisagrees = !compareTables(empty, reference).agree;
  const flags: string[] = [];
  if (!emptyDisagrees) flags.push('empty reference: any candidate with the right schema and no rows agrees');
  let m: TaskDiscrimination['mutants'] = null;
  if (mutants) {
    m = {
      disagree: mutants.filter((x) => x.verdict === 'killable').length,
      agree: mutants.filter((x) => x.verdict === 'equivalent').map((x) => x.id),
      undecided: mutants.filter((x) => x.verdict !== 'killable' && x.verdict !== 'equivalent').length,
    };
    if (m.agree.length) flags.push(`${m.agree.length} gold mutant(s) agree with the reference: ${m.agree.join(', ')}`);
  }
  return { task, referenceRows: reference.rows.length, emptyDisagrees, mutants: m, discriminates: emptyDisagrees && (m ? m.agree.length === 0 : true), flags };
}
