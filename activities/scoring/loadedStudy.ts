/**
 * What a loaded study folder is (activities/scoring/study.ts loadStudy reads it): the manifest
 * fields scoring reads, the assigned runs with their paired labels, and the side files. Types
 * and the manifest schema only, so the readers of a loaded study (raters, analyses, the report)
 * need not import the loader.
 */
import { z } from 'zod';
import type { RunRecord } from '../../protocol/types';
import type { StudyFailure } from '../../protocol/inputs';
import type { ConditionId } from '../../protocol/conditions';
import type { Obligation } from '../../protocol/corpus';
import type { ObligationLabel, FinalLabel } from '../../protocol/labels';

/** study.json: the fields scoring reads; everything else is kept and printed in the report. */
export const StudyManifest = z
  .object({
    studyId: z.string().min(1),
    model: z.string().min(1),
    replayed: z.boolean().optional(),
    settings: z.record(z.string(), z.unknown()).optional(),
    tasks: z.array(z.string()).optional(),
    /** The study's conditions (the study input); absent in a hand-built fixture (then the paper's three). */
    conditions: z.array(z.string()).optional(),
    scale: z.number().optional(),
  })
  .passthrough();
export type StudyManifest = z.infer<typeof StudyManifest>;


/** One obligation's automated and final labels in one run. */
export interface PairedLabel {
  obligation: Obligation;
  automated: ObligationLabel;
  final: FinalLabel;
}

/** One assigned run (task × condition, or a replicate run). `record` is null when missing. */
export interface LoadedRun {
  taskId: string;
  condition: ConditionId;
  replicate: string | null;
  record: RunRecord | null;
  conditionDir: string | null;
  labels: PairedLabel[];
  labelMethod: 'judge' | 'heuristic' | 'none';
  /** True when the labels were computed while reporting (labels.json was missing). */
  labelledByReport: boolean;
  /** sha256 of test_solution.py (from the record's artifacts, else the file), or null. */
  testHash: string | null;
}

export interface LoadedStudy {
  studyDir: string;
  manifest: StudyManifest;
  tasks: string[];
  /** The study's conditions in Table I order (studyConditions): what every report table shows. */
  conditions: ConditionId[];
  runs: LoadedRun[];
  replicates: LoadedRun[];
  /** Every record of records.jsonl (all samples, replicates included): the input of the intervals. */
  records: RunRecord[];
  obligations: Map<string, Obligation[]>;
  controls: unknown | null;
  reproduce: unknown | null;
  mutation: unknown | null;
  finalLabelsImported: number;
  /** The raters with imported labels (labels/raters/<name>/labels.csv), sorted. */
  raterNames: string[];
  /** Final labels (task|condition|obligation) that match no labelled primary run: reported, not used. */
  finalLabelsUnmatched: string[];
  /** Obligations of the corpus a run has no label for (labelled before they were added), as "q3/one-pass: O13": its scores are over the others. */
  unlabelled?: string[];
  /**
   * Task runs or conditions that ended without a record, with their cause: runs/<id>/failures.json
   * (`{failed: StudyFailure[]}`, written by finishStudy); [] when the file is absent.
   */
  failures: StudyFailure[];
}
