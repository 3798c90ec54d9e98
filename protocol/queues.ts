/** Task queues (README "Architecture"). */
export const QUEUES = {
  /** Model calls; concurrency and rate limits set by the backend. */
  model: 'lockin-model',
  /** Anything that starts a JVM: pytest with Spark fixtures, candidate execution, reference builds. */
  spark: 'lockin-spark',
  /** Workflows, store, preflight, compare, scoring, reports. */
  default: 'lockin-default',
} as const;
