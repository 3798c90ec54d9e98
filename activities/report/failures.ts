/**
 * The report's "Failed runs" section and its line under "Deviations from the paper — This study"
 * (findings #17): the task runs or conditions that ended without a run record, as
 * runs/<id>/failures.json names them (activities/report/finishStudy.ts; protocol/inputs.ts
 * StudyFailure), with their root cause. Pure.
 */
import { BUDGETS, CONDITIONS, type ConditionId } from '../../protocol/conditions';
import type { StudyFailure } from '../../protocol/inputs';
import { mdTable } from './tables';

/** A failure key split into its task key (`q4`, `q4@r1`, `q4~s2`) and, when one condition failed, that condition. */
export interface FailureKey {
  task: string;
  condition: ConditionId | null;
}

/**
 * Splits a StudyFailure key: `q4/contract-first` → {task q4, condition contract-first};
 * `q4` → {task q4, condition null} (the whole task run failed). A last segment that is not a
 * condition id stays part of the task key.
 */
export function parseFailureKey(key: string): FailureKey {
  const i = key.lastIndexOf('/');
  const tail = i >= 0 ? key.slice(i + 1) : '';
  return (CONDITIONS as readonly string[]).includes(tail) ? { task: key.slice(0, i), condition: tail as ConditionId } : { task: key, condition: null };
}

/** A text (a cause, a statement) on one line, cut at `max` characters ("…" when cut). Pure. */
export function oneLine(error: string, max = 300): string {
  const s = error.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/**
 * The "Failed runs" section body: one row per failure (task, condition or "every condition (the
 * task run failed)", cause) and what the tables do with their runs; or a line saying none failed.
 * @param failures runs/<id>/failures.json's list (LoadedStudy.failures)
 * @param missing the runs without a record ("q4 × one-pass", …), for the sentence on other gaps
 */
export function renderFailedRuns(failures: readonly StudyFailure[], missing: readonly string[]): string {
  if (!failures.length)
    return missing.length ? `No failure was recorded (no runs/<id>/failures.json entry), yet ${missing.length} run(s) have no record: ${missing.join(', ')}.` : 'None: every task run of this study finished with its records.';
  const rows = failures.map((f) => {
    const k = parseFailureKey(f.task);
    return [k.task, k.condition ? BUDGETS[k.condition].name : 'every condition (the task run failed)', oneLine(f.error)];
  });
  return [
    `${failures.length} task run(s) or condition(s) ended without a run record (runs/<id>/failures.json). Table III counts their runs as assigned runs that neither passed nor matched and scored zero; Table IV and its sensitivity twin leave those tasks out of the pairs; "Samples and intervals" counts only runs with a record.`,
    '',
    mdTable(['Task', 'Condition', 'Cause'], rows),
  ].join('\n');
}

/** The "This study" deviation line for failed runs (null when none failed). Pure. */
export function failureDeviation(failures: readonly StudyFailure[]): string | null {
  if (!failures.length) return null;
  const names = failures.map((f) => `${f.task} (${oneLine(f.error, 160)})`);
  return `${failures.length} task run(s) or condition(s) failed and have no run record: ${names.join('; ')}. See "Failed runs"; the paper's analysis has every assigned run.`;
}
