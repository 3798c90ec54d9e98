/**
 * Activities of the execution group (exported to the worker): pytest runs, the smoke check and
 * sandboxed candidate execution. All of them start a JVM: register on the `lockin-spark` queue.
 */
export { runPytest, type RunPytestInput } from './pytest';
export { executeCandidate, smokeCheck, HarnessError, type ExecuteCandidateInput, type SmokeCheckInput } from './execute';
