/**
 * Activities of the execution group (exported to the worker): pytest runs, the smoke check and
 * sandboxed candidate execution. All of them start a JVM: register on the `lockin-spark` queue.
 * Bad input (InputError, ZodError) becomes a non-retryable failure here; HarnessError (lockin's
 * own Spark/database side failed) stays retryable; every candidate behaviour is an outcome.
 */
import { ZodError } from 'zod';
import { InputError, nonRetryable } from '../common/errors';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';
import * as exec from './execute';
import * as pytest from './pytest';

export type { RunPytestInput } from './pytest';
export type { ExecuteCandidateInput, SmokeCheckInput } from './execute';

async function boundary<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof InputError) throw nonRetryable(err);
    if (err instanceof ZodError) throw nonRetryable(new InputError(`bad Spark settings: ${err.message}`, undefined, 'settings'));
    throw err;
  }
}

/**
 * The activities, typed from their contract (protocol/activities.ts): the inner functions
 * (pytest.ts, execute.ts) take more options (another database, a per-test timeout) for callers
 * outside the workflows.
 */

/** Runs a condition's test_solution.py in the sandbox (see pytest.ts runPytest). */
export async function runPytest(input: ActivityInput<'runPytest'>): Promise<ActivityOutput<'runPytest'>> {
  return boundary(() => pytest.runPytest(input));
}

/** The non-evaluative smoke check (see execute.ts smokeCheck). */
export async function smokeCheck(input: ActivityInput<'smokeCheck'>): Promise<ActivityOutput<'smokeCheck'>> {
  return boundary(() => exec.smokeCheck(input));
}

/** Executes the frozen candidate on the study database in the sandbox (see execute.ts executeCandidate). */
export async function executeCandidate(input: ActivityInput<'executeCandidate'>): Promise<ActivityOutput<'executeCandidate'>> {
  return boundary(() => exec.executeCandidate(input));
}
