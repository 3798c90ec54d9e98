/**
 * Differential reference agreement (differential execution; docs/protocol.md §7 "Differential execution"):
 * pure, imported by the evaluation workflow (no Node modules here).
 */
import type { DifferentialOutcome, DifferentialDatabase } from './records';

/** The variant databases `lockin data variants` builds by default, in this order (seeded nulls, duplicated dimension rows, cross-channel rows). */
export const VARIANT_NAMES = ['nulls', 'dupdims', 'crosschannel'] as const;

/** Verdicts that do not count against differential agreement: nothing to compare with there. */
const NOT_COMPARED: ReadonlyArray<DifferentialDatabase['verdict']> = ['reference-failed', 'no-reference', 'not-run'];

/**
 * The differential reference agreement of a run.
 * @param studyAgree the run's reference agreement on the study database
 * @param d its differential outcome (null/undefined: not run, an older study)
 * @returns undefined when no variant database was compared (absent = not run); else studyAgree and
 *   no variant verdict is disagree or execution-failed
 */
export function differentialAgreement(studyAgree: boolean, d: DifferentialOutcome | null | undefined): boolean | undefined {
  if (!d || d.databases.length === 0) return undefined;
  return studyAgree && d.databases.every((x) => x.verdict === 'agree' || NOT_COMPARED.includes(x.verdict));
}
