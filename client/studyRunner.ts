/**
 * Starting, attaching to and resuming a study workflow (`study-<id>`), with progress output.
 * A study whose workflow completed with every task is not run again; one that completed with
 * failed tasks, failed or was terminated is restarted under the same id, and the model cache
 * and the recorded run records make the finished part free: only the failed tasks run again
 * (README "Inspecting and resuming").
 */
import { runStudy } from '../workflows/study';
import { corpusCheck } from '../workflows/commands';
import { runCommandWorkflow } from './commandWorkflow';
import type { CorpusCheckRunner } from './studyInput';
import { scaleTag } from '../activities/common/paths';
import { QUEUES } from '../protocol/queues';
import { studyWorkflowId } from '../protocol/layout';
import * as fs from 'fs';
import * as path from 'path';
import * as os from 'os';
import { clearInterrupted, markInterrupted, readInterrupted } from './interrupted';
import { WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { studyDir } from '../activities/common/layout';
import { ledgerFile, ledgerRepeats, readLedger, readRunRecords, type LedgerLine } from '../activities/results';
import type { StudyInput } from '../protocol/inputs';
import { STATUS_KEY, STUDY_KEY } from '../protocol/searchAttributes';
import { showProgress } from './progress';
import { restoreTerminal } from './terminal';
import { renderSummary, summarize, type AssignedRuns } from './summary';
import { TemporalTarget, withClientAndWorker } from './temporal';
import { RECONNECT_DELAYS_MS, resumeHint, whileServerAway } from './serverWait';
export { RECONNECT_DELAYS_MS, resumeHint, whileServerAway };

export { studyWorkflowId };

/** The corpus check before a study starts (studyInput.ts assertCorpusValid): the corpusCheck workflow with the embedded server and an in-process worker. */
export const runCorpusCheck: CorpusCheckRunner = (input) => runCommandWorkflow(corpusCheck, [input], { name: `corpus-check-${scaleTag(input.scale)}` });

/** The Temporal UI address listing one study's workflows. */
export function studyUiUrl(target: TemporalTarget, studyId: string): string | null {
  if (!target.uiUrl) return null;
  const q = encodeURIComponent(`LockinStudy="${studyId}"`);
  return `${target.uiUrl}/namespaces/${target.namespace}/workflows?query=${q}`;
}

/** Saves the study input beside its manifest (runs/<id>/input.json) for `resume`. */
export function saveInput(input: StudyInput): void {
  const dir = studyDir(input.studyId);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'input.json'), JSON.stringify(input, null, 2));
}

/** Reads runs/<id>/input.json. @throws naming the file when the study is unknown. */
export function loadInput(studyId: string): StudyInput {
  const file = path.join(studyDir(studyId), 'input.json');
  if (!fs.existsSync(file)) throw new Error(`no study "${studyId}": ${file} does not exist`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as StudyInput;
}

async function statusOf(client: Client, workflowId: string): Promise<string | null> {
  try {
    return (await client.workflow.getHandle(workflowId).describe()).status.name;
  } catch {
    return null;
  }
}

export interface StudyOutcome {
  reportDir: string | null;
  alreadyComplete: boolean;
  failed: { task: string; error: string }[];
}

/**
 * The advice printed under the failed runs: what a user can do about their causes. Pure.
 * A missing replay reply is the corpus's limit (the replies are the project's, with provenance:
 * README "Replay corpora"), not something to write by hand.
 */
export function failureAdvice(failed: StudyOutcome['failed'], studyId: string): string[] {
  const lines: string[] = [];
  if (failed.some((f) => /replay reply not found/.test(f.error))) {
    lines.push('a replay corpus holds only the replies its runs needed when it was made: a run that asks for another reply (e.g. a revision after a time-out under load) cannot be replayed; run the conditions the corpus holds (`lockin study run … --conditions paper`) or use a live model');
  }
  lines.push(`details in the Temporal UI (workflow study-${studyId}/<task>) and runs/${studyId}/failures.json; once the cause is fixed, \`lockin study resume ${studyId}\` reruns only the failed runs' tasks (model calls already made come from the cache)`);
  return lines;
}

/** Prints the failed runs (if any), with advice, and sets a non-zero exit code. @returns true when some failed. */
export function reportFailures(o: StudyOutcome, studyId: string): boolean {
  if (!o.failed.length) return false;
  const where = o.reportDir ? 'the summary and the report count them as assigned runs that neither passed nor matched; the report lists them under "Failed runs"' : 'the summary counts them as assigned runs that neither passed nor matched; no report was written';
  process.stderr.write(`\n[lockin] ${o.failed.length} run(s) FAILED (a task key, or <task>/<condition> when only that condition failed); they have no record (${where}):\n`);
  for (const f of o.failed) process.stderr.write(`  ${f.task}: ${f.error.split('\n')[0].slice(0, 400)}\n`);
  for (const a of failureAdvice(o.failed, studyId)) process.stderr.write(`[lockin] ${a}\n`);
  process.exitCode = 1;
  return true;
}

/**
 * Runs (or resumes, or attaches to) the study with an existing client and worker, printing progress.
 * @returns the report directory (or null) and whether the workflow had already completed.
 */
export async function runStudyWith(client: Client, target: TemporalTarget, input: StudyInput): Promise<StudyOutcome> {
  saveInput(input);
  const workflowId = studyWorkflowId(input.studyId);
  const ui = studyUiUrl(target, input.studyId);
  if (ui) process.stderr.write(`[lockin] Temporal UI: ${ui}\n`);
  const status = await statusOf(client, workflowId);
  if (status === 'COMPLETED') {
    const res = (await client.workflow.getHandle(workflowId).result()) as { reportDir: string | null; failed?: StudyOutcome['failed'] };
    if (!res.failed?.length) {
      process.stderr.write(`[lockin] study ${input.studyId} already completed: nothing to redo\n`);
      return { reportDir: res.reportDir, alreadyComplete: true, failed: [] };
    }
    process.stderr.write(`[lockin] study ${input.studyId} completed with ${res.failed.length} failed task(s) (${res.failed.map((f) => f.task).join(', ')}): running them again; finished tasks are reused\n`);
  }
  const interrupted = status === 'RUNNING' ? readInterrupted(studyDir(input.studyId)) : null;
  if (interrupted) process.stderr.write(`[lockin] study ${input.studyId} was interrupted at ${interrupted.at} (Ctrl-C) and waits on the server: running a worker for it again; recorded work and paid model calls are reused\n`);
  else if (status === 'RUNNING') process.stderr.write(`[lockin] study ${input.studyId} is already running: attaching to it\n`);
  else if (status && status !== 'COMPLETED') process.stderr.write(`[lockin] study ${input.studyId} ended ${status}: resuming it (recorded work is reused)\n`);
  const handle =
    status === 'RUNNING'
      ? client.workflow.getHandle(workflowId)
      : await client.workflow.start(runStudy, {
          args: [input],
          workflowId,
          taskQueue: QUEUES.default,
          memo: { model: input.model, scale: input.scale, settings: input.settings, params: input.params },
          typedSearchAttributes: [{ key: STUDY_KEY, value: input.studyId }, { key: STATUS_KEY, value: 'running' }],
        });
  const stop = showProgress(handle, 2000, input.conditions);
  const onSigint = () => {
    void stop();
    // The progress display hid the cursor: put the terminal back before the last lines.
    restoreTerminal();
    markInterrupted(studyDir(input.studyId), { at: new Date().toISOString(), pid: process.pid, host: os.hostname(), workflowId, resume: `npx lockin study resume ${input.studyId}` });
    process.stderr.write(`\n[lockin] interrupted: study ${input.studyId} stays resumable (run the same command again). Resume with:\n  npx lockin study resume ${input.studyId}\n`);
    process.exit(130);
  };
  process.once('SIGINT', onSigint);
  clearInterrupted(studyDir(input.studyId));
  try {
    const res = (await awaitStudyResult(handle, input.studyId)) as { reportDir: string | null; failed?: StudyOutcome['failed'] };
    return { reportDir: res.reportDir, alreadyComplete: false, failed: res.failed ?? [] };
  } finally {
    await stop();
    process.removeListener('SIGINT', onSigint);
  }
}

/**
 * The study workflow's result, surviving a Temporal server restart (whileServerAway).
 * @throws the workflow's failure as is, or, when the server stays away, an Error that names the
 *   cause and the exact command that resumes the study (resumeHint).
 */
export function awaitStudyResult(handle: { result(): Promise<unknown> }, studyId: string, delaysMs: number[] = RECONNECT_DELAYS_MS, write?: (line: string) => void): Promise<unknown> {
  return whileServerAway(() => handle.result(), (cause) => new Error(`the Temporal server stopped answering (${cause}). ${resumeHint(studyId)}`), delaysMs, write);
}

/**
 * Runs (or resumes, or attaches to) the study with an in-process worker. An error that is not
 * the workflow's own failure (the server or the in-process worker went away, …) is rethrown
 * with its first line and the exact resume command.
 */
export async function runStudyWorkflow(input: StudyInput): Promise<StudyOutcome> {
  try {
    return await withClientAndWorker((client, target) => runStudyWith(client, target, input));
  } catch (err) {
    if (err instanceof WorkflowFailedError || !(err instanceof Error) || err.message.includes('lockin study resume')) throw err;
    throw new Error(`${err.message.split('\n')[0]}. Recorded work is kept: once the cause is fixed (a stopped server: \`npx lockin server start\`), resume with: npx lockin study resume ${input.studyId}`);
  }
}

/**
 * Prints the summary table of a study from its records; with `assigned` (a finished study: its
 * tasks × conditions) the denominators are every assigned run, as in report.md Table III.
 */
export function printSummary(studyId: string, replayed: boolean, assigned?: AssignedRuns): void {
  process.stdout.write(renderSummary(summarize(readRunRecords(studyId), assigned), replayed));
  const line = repeatsLine(studyId);
  if (line) process.stdout.write(`${line}\n`);
}

/**
 * One line on requests paid more than once in this study (activities/model/ledger.ts
 * ledgerRepeats): requests whose reply was lost (e.g. the worker was killed mid-call) and the
 * repeats sent for them, each named (task, condition, stage, call), with the repeats' summed
 * cost; null when there were none. Printed by `study run|resume|status`.
 * @param lines ledger lines (default: the whole ledger of LOCKIN_HOME).
 */
export function repeatsLine(studyId: string, lines: LedgerLine[] = readLedger()): string | null {
  const r = ledgerRepeats(lines.filter((l) => l.studyId === studyId));
  if (!r.lostSends.length && !r.repeats.length) return null;
  const which = r.repeats.map((l) => `${l.taskId}${l.replicate ? `@${l.replicate}` : ''}${(l.sample ?? 1) > 1 ? `~s${l.sample}` : ''} ${l.condition} ${l.stage} call ${l.callIndex}${l.idempotencyHeader ? ` (same ${l.idempotencyHeader})` : ''}`);
  const cost = r.repeats.reduce((a, l) => a + (l.costUsd ?? 0), 0);
  const detail = r.repeats.length ? `: ${which.join(', ')}; the repeats cost $${cost.toFixed(4)}, the lost requests' cost is in no record` : '';
  return `paid more than once: ${r.lostSends.length} request(s) sent whose reply was lost (worker killed mid-call), ${r.repeats.length} of them sent again${detail} (${ledgerFile()}: status sent without completion; repeatOf)`;
}
