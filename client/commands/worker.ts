/** `lockin worker`: runs the workers for all task queues until interrupted. */
import { Command } from 'commander';
import { NativeConnection } from '@temporalio/worker';
import { resolveTemporal } from '../temporal';
import { createWorkers, installQuietRuntime } from '../../worker/createWorkers';
import { QUEUES } from '../../protocol/queues';
import { stopAllSlots } from '../../activities/execution/slots';

/** Defines the options, arguments, sub-commands and actions of `lockin worker` on its command (client/cli.ts names and describes it). */
export function define(cmd: Command): void {
  cmd
    .action(async () => {
      const target = await resolveTemporal();
      installQuietRuntime();
      const connection = await NativeConnection.connect({ address: target.address });
      const workers = await createWorkers({ connection, namespace: target.namespace });
      process.stdout.write(`lockin worker on ${target.address} (namespace ${target.namespace}), queues: ${Object.values(QUEUES).join(', ')}\n`);
      const stop = () => workers.forEach((w) => w.getState() === 'RUNNING' && w.shutdown());
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      try {
        await Promise.all(workers.map((w) => w.run()));
      } finally {
        await stopAllSlots(); // the warm Spark slots die with the worker (activities/execution/slots.ts)
      }
      await connection.close();
    });
}
