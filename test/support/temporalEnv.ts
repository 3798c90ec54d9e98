/**
 * One local Temporal test environment per test file, from the venv's CLI binary
 * (nothing downloads), with lockin's search attributes registered.
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporalBinary } from '../../activities/common/paths';
import { installQuietRuntime } from '../../worker/createWorkers';
import { ALL_SEARCH_ATTRIBUTES } from '../../protocol/searchAttributes';

export async function createTestEnv(): Promise<TestWorkflowEnvironment> {
  installQuietRuntime();
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: temporalBinary() },
      searchAttributes: ALL_SEARCH_ATTRIBUTES,
      extraArgs: ['--log-level', 'error'],
    },
  });
}
