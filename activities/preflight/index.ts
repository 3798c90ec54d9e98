/** Activities of the preflight group (exported to the worker). */
export { preflight } from './preflight';
export type { PreflightInput, PreflightReport, LeakFinding, LeakKind } from './preflight';
