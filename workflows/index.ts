/** Every workflow lockin registers (bundled by the worker). */
export { runStudy } from './study';
export { runTask } from './task';
export { frozenOnePass } from './conditions/frozenOnePass';
export { testGuidedRevision } from './conditions/testGuidedRevision';
export { planAuditGuidedRevision } from './conditions/planAuditGuidedRevision';
export { contractFirst } from './conditions/contractFirst';
export { prepareDatabase } from './prepare';
export { evaluatorChecks } from './checks';
export { mutationAnalysis } from './mutation';
export { mainJob } from './mainJob';
export { corpusCheck, studyReport, modelsReport, evaluatorControls, referenceReproduction, goldenComparison, variantDatabases, databaseVerification, queryList, obligationsCheck, labellerCalibrationCheck } from './commands';
