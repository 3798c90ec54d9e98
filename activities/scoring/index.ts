/** Activities of the scoring group (exported to the worker). Pure helpers live in the sibling modules. */
export { labelObligations } from './labelActivity';
export { evaluateRun, judgeRequest, labelRun } from './evaluate';
export type { LabelObligationsInput, LabelObligationsResult } from './labelActivity';
