// Runs in every jest test file before it loads (jest.config.js setupFiles). The product's default
// Spark mode is warm (activities/execution/slots.ts sparkModeFromEnv); the tests' Spark jobs that
// name no mode run cold unless LOCKIN_SPARK_MODE says otherwise, so `npm test` exercises both:
// cold here, warm in the cases test/support/modes.ts runs in the default mode (the hostile,
// sandbox and reference-visibility cases), in test/execution/warm.test.ts and in the later cases of
// test/mutation/suites.test.ts. A warm pool lives
// in one process's module state, and jest gives every test file a fresh module registry: cold
// jobs leave no slot behind.
if (process.env.LOCKIN_SPARK_MODE === undefined) process.env.LOCKIN_SPARK_MODE = 'cold';
