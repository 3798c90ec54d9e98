/**
 * Readers of the files the commands' workflows write (workflows/commands.ts), for the CLI to
 * print: a report's summary.json, controls.json, an obligations check, a calibration. Each reads
 * and parses one file; nothing is computed again.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { ConditionId } from '../../protocol/conditions';
import type { ConditionSummary } from '../scoring/analysis';
import type { ControlsReport } from '../compare/controls';
import type { TaskObligationsCheck } from '../obligations/check';
import type { ObligationsCheckDocument } from '../obligations/commands';
import type { CalibrationFile } from '../obligations/calibration';

/** Reads a JSON file. @throws Error naming the file when it is missing or not JSON. */
function readJson<T>(file: string): T {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
}

/** Table III's numbers per condition from `<reportDir>/summary.json` (only the study's conditions have one; a rate that was NaN reads null). */
export function readReportSummary(reportDir: string): Partial<Record<ConditionId, ConditionSummary>> {
  return readJson<{ conditions: Partial<Record<ConditionId, ConditionSummary>> }>(path.join(reportDir, 'summary.json')).conditions;
}

/** controls.json as runEvaluatorControls writes it: the references folder read, the counts and every control. */
export function readControlsReport(file: string): ControlsReport & { referencesDir: string } {
  return readJson<ControlsReport & { referencesDir: string }>(file);
}

/** One task's `lockin obligations check` (the file obligationsCheckTask writes). */
export function readObligationsCheckTask(file: string): TaskObligationsCheck {
  return readJson<TaskObligationsCheck>(file);
}

/** A whole `lockin obligations check` (check.json: scale, tasks, totals, labellers). */
export function readObligationsCheck(file: string): ObligationsCheckDocument {
  return readJson<ObligationsCheckDocument>(file);
}

/** A `lockin obligations calibrate` result (the file calibrateOnFaults writes). */
export function readCalibration(file: string): CalibrationFile {
  return readJson<CalibrationFile>(file);
}
