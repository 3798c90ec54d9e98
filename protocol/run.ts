/**
 * The identity of one run: the study, the task, the draw (a targeted replication, a sample) and
 * the condition. Every step of a run (its model calls, its folders, its evaluation, its record)
 * carries these fields under these names. A study has one model (a model matrix is one
 * sub-study per model, protocol/layout.ts modelStudyId), so the model is the study's and is
 * named only where a call needs it.
 */
import type { ConditionId } from './conditions';

/**
 * One run. `C` is what the condition may be: a ConditionId, or also 'shared' (the initial
 * generation every condition inherits, for a model call) or 'snapshot' (its folder).
 */
export interface RunIdentity<C extends string = ConditionId> {
  studyId: string;
  taskId: string;
  condition: C;
  /** The targeted-replication label (Table VII), e.g. "r1"; absent for the study's own runs. */
  replicate?: string;
  /** The sample index, 1-based (`--samples K`); absent = sample 1, whose folders and keys have no suffix (protocol/layout.ts). */
  sample?: number;
}
