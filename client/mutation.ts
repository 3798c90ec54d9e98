/**
 * The client side of the test-suite validity and mutation analysis (`lockin study mutation`,
 * and step 5 of the main job): runs the mutationAnalysis workflow (workflows/mutation.ts) and
 * prints its progress lines as tasks finish. A killed run resumes from Temporal: running the
 * same command again attaches to it, and finished tasks are cached.
 */
import type { Client } from '@temporalio/client';
import { InputError } from '../activities/common/errors';
import { mutationWorkflowId } from '../protocol/layout';
import { mutationProgressQuery } from '../protocol/queries';
import { mutationAnalysis } from '../workflows/mutation';
import { runOrAttach, withClientAndWorker } from './temporal';

/** Options of one analysis (see `lockin study mutation --help`). */
export interface MutationRunOptions {
  equivalenceScale?: number;
  confirmScale?: number;
  maxPerOperator?: number;
  tasks?: string[];
  report?: boolean;
}

function check(o: MutationRunOptions): void {
  if (o.equivalenceScale !== undefined && !(o.equivalenceScale > 0)) throw new InputError('must be a positive number', undefined, '--equivalence-scale');
  if (o.confirmScale !== undefined && !(o.confirmScale > 0)) throw new InputError('must be a positive number', undefined, '--confirm-scale');
  if (o.maxPerOperator !== undefined && !(Number.isInteger(o.maxPerOperator) && o.maxPerOperator > 0)) throw new InputError('must be a positive integer', undefined, '--max-per-operator');
}

/**
 * Runs (or attaches to) the mutation analysis of study `id` with an existing client, printing
 * its progress lines to stderr. @returns the summary lines (per condition: suites, invalid on
 * gold, killed/total, pooled and mean scores; the report path).
 * @throws InputError for a bad option value; the workflow's failure otherwise.
 */
export async function runMutationWith(client: Client, id: string, o: MutationRunOptions): Promise<string> {
  check(o);
  return runOrAttach(client, mutationAnalysis, {
    workflowId: mutationWorkflowId(id),
    studyId: id,
    args: [{ studyId: id, equivalenceScale: o.equivalenceScale, confirmScale: o.confirmScale, maxPerOperator: o.maxPerOperator, tasks: o.tasks, report: o.report }],
    watch: (handle) => {
      let shown = 0;
      let polling: Promise<void> = Promise.resolve();
      const poll = () => {
        polling = handle
          .query(mutationProgressQuery)
          .then((p) => {
            for (const line of p.lines.slice(shown)) process.stderr.write(`[mutation] ${line}\n`);
            shown = Math.max(shown, p.lines.length);
          })
          .catch(() => undefined);
      };
      const timer = setInterval(poll, 2000);
      return async () => {
        clearInterval(timer);
        await polling;
        poll();
        await polling;
      };
    },
  });
}

/** Runs the mutation analysis of study `id` with an in-process worker (see runMutationWith). */
export function runMutationAnalysis(id: string, o: MutationRunOptions): Promise<string> {
  return withClientAndWorker((client) => runMutationWith(client, id, o));
}
