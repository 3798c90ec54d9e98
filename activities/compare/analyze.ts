/**
 * The pure analysis of one candidate output against its reference: the primary verdict
 * (docs/protocol.md §4), the normalization ladder and the key-aligned tolerance comparison
 * (§4 "Robustness"). Kept apart from activity.ts so that `lockin compare` loads only this and the
 * comparator (no corpus schemas, no Temporal).
 */
import { ComparisonOutcome, ExecutionStatus } from '../../protocol/types';
import { compareTables, ComparisonResult } from './compare';
import { normalizationLadder, LadderResult } from './ladder';
import { PlainTable } from './table';
import { compareKeyAligned, Tolerance, TOLERANCE_LADDER, ToleranceResult } from './tolerance';

/** Everything one comparison found (the content of comparison.json). */
export interface ComparisonDetails {
  candidate: string | null;
  reference: string;
  primary: ComparisonResult | null;
  runtime?: { status: ExecutionStatus; reason?: string };
  ladder: LadderResult | null;
  tolerance: ToleranceResult | null;
}

/**
 * Pure analysis of one candidate against its reference: the primary verdict (row order
 * ignored), the normalization ladder and, when keys are given ([] included: one key group), the
 * key-aligned tolerance comparison.
 * @returns the small outcome (without detailsFile) and the full details
 * @throws InputError (field "keys") when a key column is not in the reference
 */
export function analyzeTables(candidate: PlainTable, reference: PlainTable, keys?: string[], tolerances?: readonly Tolerance[]): { outcome: ComparisonOutcome; details: ComparisonDetails } {
  const primary = compareTables(candidate, reference);
  const ladder = normalizationLadder(candidate, reference);
  const tolerance = keys ? compareKeyAligned(candidate, reference, keys, tolerances ?? TOLERANCE_LADDER) : null;
  const details: ComparisonDetails = { candidate: candidate.source, reference: reference.source, primary, ladder, tolerance };
  const outcome: ComparisonOutcome = {
    agree: primary.agree, categories: primary.categories, primaryCategory: primary.primaryCategory, summary: primary.summary,
    ladderLevel: ladder.level, ...(tolerance ? { toleranceAgreement: tolerance.tightest ? tolerance.tightest.atol : null } : {}),
  };
  return { outcome, details };
}

/** JSON replacer that keeps NaN and infinities readable ("NaN", "Infinity", "-Infinity"). */
export function jsonReplacer(_k: string, v: unknown): unknown {
  return typeof v === 'number' && !Number.isFinite(v) ? String(v) : v;
}
