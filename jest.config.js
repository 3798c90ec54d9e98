/** jest: unit tests (pure functions), activity tests (Python/Spark), workflow tests (Temporal). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'commonjs', target: 'ES2022', esModuleInterop: true, resolveJsonModule: true, strict: true, skipLibCheck: true, isolatedModules: true } }],
  },
  testTimeout: 300000,
  globalSetup: '<rootDir>/test/support/globalSetup.js',
  setupFiles: ['<rootDir>/test/support/sparkModeEnv.js'],
  testSequencer: '<rootDir>/test/support/sequencer.js',
  verbose: false,
};
