#!/usr/bin/env node
/** Entry point of the `lockin` CLI. */
import { main } from './cli';
import { causeChain } from './errors';

// A reader that closed the pipe (`lockin study status x | head`) is not an error: stop quietly.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

main(process.argv).catch((err: unknown) => {
  const e = err as Error;
  process.stderr.write(`lockin: ${causeChain(err)}\n`);
  if (process.env.LOCKIN_DEBUG) process.stderr.write(`${e?.stack ?? ''}\n`);
  process.exit(typeof (err as { exitCode?: number }).exitCode === 'number' ? (err as { exitCode: number }).exitCode : 1);
});
