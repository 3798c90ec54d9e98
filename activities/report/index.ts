/** Activities of the report group (exported to the worker). finishStudy (activities/store) calls writeReport at the end of a study. */
export { writeReport } from './writeReport';
export { finishModels } from './modelsReport';
export { finishStudy } from './finishStudy';
export type { WriteReportInput, WriteReportResult } from './writeReport';
