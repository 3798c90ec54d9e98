/** Activities of the report group (exported to the worker): finishStudy and finishMutationAnalysis end a study and its mutation analysis by writing the report; writeStudyReport writes it again (`lockin report`). */
export { writeReport, writeStudyReport } from './writeReport';
export { finishModels } from './modelsReport';
export { finishStudy } from './finishStudy';
export { finishMutationAnalysis } from './finishMutation';
export type { WriteReportInput, WriteReportResult } from './writeReport';
