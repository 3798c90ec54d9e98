/**
 * The read-only results API of the CLI (client/): what a study has written, read from its
 * folders and the state folder, never computed again. Nothing here runs a step of a workflow,
 * writes a file, or calls a model or Spark. The CLI starts workflows for everything else
 * (README "Architecture"; known exceptions are listed in eslint.config.js).
 */
/** A study's run records (runs/<id>/records/), in file order. */
export { readRunRecords } from '../store/records';
/** A study's frozen inputs as the CLI needs them (runs/<id>/study.json). */
export { readStudyBasics, type StudyBasics } from '../store/manifest';
/** The model-call ledger (`<home>/ledger.jsonl`): its file, its lines, and the requests paid more than once. */
export { ledgerFile, ledgerRepeats, readLedger, type LedgerLine } from '../model/ledger';
/** The task key and condition a failure's workflow id names (runs/<id>/failures.json). */
export { parseFailureKey } from '../report/failures';
/** The files the commands' workflows write (workflows/commands.ts): a report's summary.json, controls.json, an obligations check, a calibration. */
export { readReportSummary, readControlsReport, readObligationsCheckTask, readObligationsCheck, readCalibration } from './commandFiles';
/** The kinds of evaluator control, in Table II's order (controls.json lists its controls by them). */
export { CONTROL_KINDS } from '../compare/controls';
export type { TaskObligationsCheck } from '../obligations/check';
export type { LabellerAccuracy } from '../obligations/accuracy';
export type { CalibrationFile } from '../obligations/calibration';
