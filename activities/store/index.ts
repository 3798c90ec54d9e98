/** Activities of the run store: manifest, condition directories, freeze, edit classification, records. */
export { initStudy } from './manifest';
export { prepareConditionDir, freezeArtifacts } from './dirs';
export { classifyEdits } from './edits';
export { writeRunRecord, completedTasks, completedTaskCalls } from './records';
export { sealContract, guardContract } from './contract';
