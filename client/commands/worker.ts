/** `lockin worker`: runs the workers for all task queues, or the chosen ones, until interrupted. */
import { Command } from 'commander';
import { NativeConnection } from '@temporalio/worker';
import { resolveTemporal } from '../temporal';
import { createWorkers, installQuietRuntime, runWorkersDuring } from '../../worker/createWorkers';
import { ALL_QUEUES, parseQueueSelection } from '../../worker/queueSelection';
import { InputError } from '../../activities/common/errors';

/** Defines the options, arguments, sub-commands and actions of `lockin worker` on its command (client/cli.ts names and describes it). */
export function define(cmd: Command): void {
  cmd
    .option('--queues <list>', 'task queues to serve, comma-separated: all, default, spark, model, models, anthropic, openai or full queue names (env LOCKIN_WORKER_QUEUES); see infra/README.md', process.env.LOCKIN_WORKER_QUEUES ?? 'all')
    .action(async (opts: { queues: string }) => {
      let queues: string[];
      try {
        queues = parseQueueSelection(opts.queues, process.env.LOCKIN_WORKER_QUEUES && opts.queues === process.env.LOCKIN_WORKER_QUEUES ? 'LOCKIN_WORKER_QUEUES' : '--queues');
      } catch (e) {
        throw new InputError((e as Error).message);
      }
      const target = await resolveTemporal();
      installQuietRuntime();
      const connection = await NativeConnection.connect({ address: target.address });
      const workers = await createWorkers({ connection, namespace: target.namespace, queues });
      process.stdout.write(`lockin worker ${process.pid} on ${target.address} (namespace ${target.namespace}), queues: ${queues.join(', ')}${queues.length < ALL_QUEUES.length ? ` (not served here: ${ALL_QUEUES.filter((q) => !queues.includes(q)).join(', ')})` : ''}\n`);
      // Until Ctrl-C or SIGTERM; the warm Spark slots die with the workers (runWorkersDuring).
      await runWorkersDuring(workers, () => new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      }));
      await connection.close();
    });
}
