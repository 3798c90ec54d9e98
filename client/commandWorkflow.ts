/**
 * Running the workflow behind a single CLI command (workflows/commands.ts), with the embedded
 * server and an in-process worker, as `lockin data prepare` runs prepareDatabase: the command
 * starts the workflow and waits for it; the worker of this process (the default and Spark queues,
 * no model queue) runs its steps (their progress lines are printed as they were), and a worker of
 * another process too (its lines are relayed).
 */
import * as crypto from 'crypto';
import * as path from 'path';
import { lockinHome } from '../activities/common/paths';
import type { Workflow, WorkflowResultType } from '@temporalio/common';
import { ApplicationFailure } from '@temporalio/common';
import type { WorkflowHandle } from '@temporalio/client';
import { relayOtherWorkersProgress, runOrAttach, withClientAndWorker } from './temporal';
import { QUEUES } from '../protocol/queues';

/** The queues a command's workflow uses (workflows/options.ts COMMAND_STEP, COMMAND_SPARK_STEP): its in-process worker serves these, no model queue. */
const COMMAND_QUEUES = [QUEUES.default, QUEUES.spark];

/**
 * The workflow id of a command's run: `<name>-<12 hex digits of the sha256 of its arguments>`.
 * The same command with the same arguments gets the same id, so running it again while it runs
 * (say, after its terminal was closed) attaches to it instead of starting a second one. Pure.
 */
export function commandWorkflowId(name: string, args: unknown): string {
  return `${name}-${crypto.createHash('sha256').update(JSON.stringify(args)).digest('hex').slice(0, 12)}`;
}

/** Where the commands' workflows write the results that do not fit a payload: `<lockin home>/commands/<workflow id>/`. */
export function commandsDir(): string {
  return path.join(lockinHome(), 'commands');
}

/**
 * Starts (or attaches to) `workflow` with `args` under commandWorkflowId(name, args) and returns
 * its result. `relay`: the prefix of the progress lines relayed from another process's worker
 * (e.g. "[data] "); `watch`: called with the handle while the workflow runs, its stop function
 * awaited at the end.
 * @throws the workflow's failure (WorkflowFailedError, whose causes name the activity's error).
 */
export async function runCommandWorkflow<W extends Workflow>(
  workflow: W,
  args: Parameters<W>,
  opts: { name: string; relay?: string; watch?: (handle: WorkflowHandle<W>) => () => Promise<void> },
): Promise<WorkflowResultType<W>> {
  const workflowId = commandWorkflowId(opts.name, args);
  return withClientAndWorker(async (client) => {
    const stopRelay = opts.relay === undefined ? undefined : relayOtherWorkersProgress(client.workflow, workflowId, (l) => process.stderr.write(`${opts.relay}${l}\n`));
    try {
      return await runOrAttach(client, workflow, { workflowId, args, watch: opts.watch });
    } finally {
      await stopRelay?.();
    }
  }, COMMAND_QUEUES);
}

/**
 * The message of the bad-input error (an InputError of the activities, which reaches the CLI as
 * an ApplicationFailure of type InputError) among an error's causes, or null when there is none.
 * Pure.
 */
export function inputErrorMessage(err: unknown): string | null {
  let e = err as (Error & { cause?: unknown }) | undefined;
  for (let depth = 0; e && depth < 10; depth++, e = e.cause as (Error & { cause?: unknown }) | undefined) {
    if (e instanceof ApplicationFailure && e.type === 'InputError') return e.message;
    if (e instanceof Error && e.name === 'InputError') return e.message;
  }
  return null;
}
