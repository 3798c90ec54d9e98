/**
 * Typed errors shared across activities. Activities convert permanent ones into
 * `ApplicationFailure.nonRetryable` at their boundary (see toApplicationFailure).
 */
import { ApplicationFailure } from '@temporalio/common';

/** Bad input: a malformed file, a missing field. Names the file and field. Never retried. */
export class InputError extends Error {
  constructor(
    message: string,
    readonly file?: string,
    readonly field?: string,
  ) {
    super(file ? `${file}${field ? ` (${field})` : ''}: ${message}` : message);
    this.name = 'InputError';
  }
}

/** A subprocess ended badly. Carries the command, arguments, exit code, signal and stderr tail. */
export class SubprocessError extends Error {
  constructor(
    readonly command: string,
    readonly args: string[],
    readonly exitCode: number | null,
    readonly signal: string | null,
    readonly stderrTail: string,
  ) {
    super(`${command} ${args.join(' ')} failed (exit ${exitCode}${signal ? `, signal ${signal}` : ''}): ${stderrTail}`);
    this.name = 'SubprocessError';
  }
}

/** Wraps an error as a non-retryable Temporal failure, keeping its type name. */
export function nonRetryable(err: Error): ApplicationFailure {
  return ApplicationFailure.nonRetryable(err.message, err.name);
}
