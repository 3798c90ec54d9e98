/** Activities of the test-suite validity and mutation analysis (workflows/mutation.ts). */
export { mutationTasks, mutationTask } from './study';
