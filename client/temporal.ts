/**
 * Connecting to Temporal. With TEMPORAL_ADDRESS set, lockin uses that cluster (and
 * TEMPORAL_NAMESPACE, default "default") and starts nothing; otherwise it starts (or reuses)
 * the embedded dev server.
 */
import type { Workflow, WorkflowResultType } from '@temporalio/common';
import { QUEUES } from '../protocol/queues';
import { Client, Connection, type WorkflowClient, type WorkflowHandle, type WorkflowStartOptions } from '@temporalio/client';
import { STATUS_KEY, STUDY_KEY } from '../protocol/searchAttributes';
import { NativeConnection } from '@temporalio/worker';
import { startServer, ServerInfo } from '../infra/devServer';
import { createWorkers, installQuietRuntime, runWorkersDuring } from '../worker/createWorkers';
import { unseenProgress } from '../activities/common/progressBeat';
import * as os from 'os';
import { whileServerAway } from './serverWait';

export interface TemporalTarget {
  address: string;
  namespace: string;
  embedded: boolean;
  uiUrl?: string;
  server?: ServerInfo;
}

/** Resolves where Temporal is, starting the embedded server when TEMPORAL_ADDRESS is unset. */
export async function resolveTemporal(): Promise<TemporalTarget> {
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
  if (process.env.TEMPORAL_ADDRESS) return { address: process.env.TEMPORAL_ADDRESS, namespace, embedded: false };
  const server = await startServer();
  return { address: server.address, namespace, embedded: true, uiUrl: server.uiUrl, server };
}

/** A client connected to the resolved target. Caller closes `connection`. */
export async function connectClient(target?: TemporalTarget): Promise<{ client: Client; connection: Connection; target: TemporalTarget }> {
  const t = target ?? (await resolveTemporal());
  const connection = await Connection.connect({ address: t.address });
  return { client: new Client({ connection, namespace: t.namespace }), connection, target: t };
}

/**
 * Runs `fn` with a client while an in-process worker set serves all task queues, or `queues`
 * (full names, worker/queueSelection.ts) (embedded mode: one command is enough). With
 * LOCKIN_NO_WORKER=1 no worker is started (a separate `lockin worker` serves the queues).
 */
export async function withClientAndWorker<T>(fn: (client: Client, target: TemporalTarget) => Promise<T>, queues?: readonly string[]): Promise<T> {
  const { client, connection, target } = await connectClient();
  try {
    if (process.env.LOCKIN_NO_WORKER === '1') return await fn(client, target);
    installQuietRuntime();
    const nativeConnection = await NativeConnection.connect({ address: target.address });
    try {
      const workers = await createWorkers({ connection: nativeConnection, namespace: target.namespace, ...(queues ? { queues } : {}) });
      return await runWorkersDuring(workers, () => fn(client, target));
    } finally {
      await nativeConnection.close();
    }
  } finally {
    await connection.close();
  }
}

/**
 * Starts workflow `name` with `args` (or attaches to a running one with the same id) and
 * waits for its result, with an in-process worker.
 */
export async function runEmbeddedWorkflow<W extends Workflow>(workflow: W, args: Parameters<W>, opts: { workflowId: string; taskQueue?: string; relayProgress?: (line: string) => void }): Promise<WorkflowResultType<W>> {
  return withClientAndWorker(async (client) => {
    const handle = await client.workflow.start(workflow, { args, workflowId: opts.workflowId, taskQueue: opts.taskQueue ?? QUEUES.default, workflowIdConflictPolicy: 'USE_EXISTING' } as unknown as WorkflowStartOptions<W>);
    const stop = opts.relayProgress ? relayOtherWorkersProgress(client.workflow, handle.workflowId, opts.relayProgress) : undefined;
    try {
      return await whileServerAway(() => handle.result(), (cause) => lostServer(opts.workflowId, cause));
    } finally {
      await stop?.();
    }
  });
}

/** The error when the server stays away while a command waits for a workflow: it stays durable; how to go on. */
export function lostServer(workflowId: string, cause: string): Error {
  return new Error(`the Temporal server stopped answering (${cause}); the workflow ${workflowId} stays on it, durable: once the server is back (\`npx lockin server start\`), run the same command again to attach to it`);
}

/**
 * The latest progress line (activities/common/progressBeat.ts) of each activity of workflow
 * `workflowId` that is running now, whichever worker runs it, as of its last heartbeat the
 * server has (up to 15 s old). Returns [] when there is none or the workflow cannot be described.
 */
export async function runningActivityLines(wf: WorkflowClient, workflowId: string): Promise<string[]> {
  try {
    const out: string[] = [];
    for (const a of await pendingProgress(wf, workflowId)) {
      const last = unseenProgress(a.details, 0).lines.at(-1);
      if (last && !last.startsWith('(')) out.push(last);
    }
    return out;
  } catch {
    return [];
  }
}

/** The pending activities of `workflowId` that heartbeat details: a key per attempt, the worker running it, the decoded details. @throws what describe() throws. */
async function pendingProgress(wf: WorkflowClient, workflowId: string): Promise<{ key: string; worker: string; details: unknown }[]> {
  const d = await wf.getHandle(workflowId).describe();
  const out: { key: string; worker: string; details: unknown }[] = [];
  for (const a of d.raw.pendingActivities ?? []) {
    if (!a.heartbeatDetails?.payloads?.length) continue;
    out.push({ key: `${a.activityId}/${a.attempt ?? 1}`, worker: a.lastWorkerIdentity ?? '', details: await wf.options.loadedDataConverter.payloadConverter.fromPayload(a.heartbeatDetails.payloads[0]) });
  }
  return out;
}

/** This process's worker identity (the Temporal SDK's default: pid@host). */
const OWN_IDENTITY = `${process.pid}@${os.hostname()}`;

/**
 * While workflow `workflowId` runs, prints (through `print`) the progress lines its pending
 * activities carry in their heartbeats (activities/common/progressBeat.ts) when another
 * process's worker runs them; this process's own worker prints its lines itself. Polls every 5 s.
 * Returns the function that stops it (resolves after the last poll). Errors of a poll are ignored.
 */
export function relayOtherWorkersProgress(wf: WorkflowClient, workflowId: string, print: (line: string) => void): () => Promise<void> {
  const shown = new Map<string, number>();
  let stopped = false;
  let poll: Promise<void> = Promise.resolve();
  const once = async () => {
    try {
      for (const a of await pendingProgress(wf, workflowId)) {
        if (!a.worker || a.worker === OWN_IDENTITY) continue;
        const r = unseenProgress(a.details, shown.get(a.key) ?? 0);
        shown.set(a.key, r.seq);
        for (const l of r.lines) print(`${l} (relayed from worker ${a.worker})`);
      }
    } catch {
      /* the next poll tries again */
    }
  };
  const timer = setInterval(() => {
    if (!stopped) poll = poll.then(once);
  }, 5000);
  return async () => {
    stopped = true;
    clearInterval(timer);
    await poll;
  };
}

/**
 * Starts `workflow` under `workflowId` (or attaches to the run with that id that is still
 * running, e.g. after this process was killed) and waits for its result. A workflow that
 * completed earlier is run again: lockin's long steps skip what they recorded, so that is cheap.
 * `watch` is called with the handle while it runs (progress output) and its stop function
 * awaited at the end.
 */
export async function runOrAttach<W extends Workflow>(
  client: Client,
  workflow: W,
  opts: { workflowId: string; args: Parameters<W>; studyId?: string; watch?: (handle: WorkflowHandle<W>) => () => Promise<void> },
): Promise<WorkflowResultType<W>> {
  // Starting is idempotent (USE_EXISTING), so a slow server's start is simply asked again.
  const handle = await whileServerAway(() => client.workflow.start(workflow, {
    args: opts.args,
    workflowId: opts.workflowId,
    taskQueue: QUEUES.default,
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: opts.studyId ? [{ key: STUDY_KEY, value: opts.studyId }, { key: STATUS_KEY, value: 'running' }] : [],
  } as unknown as WorkflowStartOptions<W>), (cause) => lostServer(opts.workflowId, cause));
  const stop = opts.watch?.(handle);
  try {
    // A slow or restarting server never fails the wait: the workflow goes on (serverWait.ts).
    return await whileServerAway(() => handle.result(), (cause) => lostServer(opts.workflowId, cause));
  } finally {
    await stop?.();
  }
}
