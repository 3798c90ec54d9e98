/**
 * The mark a CLI leaves when Ctrl-C stops it while its workflow runs on (after Ctrl-C
 * `lockin study status` said RUNNING and nothing else). The workflow itself stays on the Temporal
 * server, durable; what stopped is the worker inside the CLI that ran its activities. The mark,
 * `runs/<study>/interrupted.json`, says when, which process, and the command that resumes it;
 * the next command that runs or attaches a worker for the study removes it.
 */
import * as fs from 'fs';
import * as path from 'path';

export const INTERRUPTED_FILE = 'interrupted.json';

/** The content of interrupted.json. */
export interface InterruptedMark {
  /** ISO time of the Ctrl-C. */
  at: string;
  /** The interrupted CLI's process id and host. */
  pid: number;
  host: string;
  /** The workflow that stays on the server. */
  workflowId: string;
  /** The command that resumes the study. */
  resume: string;
}

/** Writes the mark into the study folder (synchronously: it runs in a SIGINT handler). Never throws. */
export function markInterrupted(studyFolder: string, mark: InterruptedMark): void {
  try {
    fs.mkdirSync(studyFolder, { recursive: true });
    fs.writeFileSync(path.join(studyFolder, INTERRUPTED_FILE), `${JSON.stringify(mark, null, 2)}\n`);
  } catch {
    /* the status then says RUNNING without the reason; nothing recorded is lost */
  }
}

/** Removes the mark (a worker runs the study again). */
export function clearInterrupted(studyFolder: string): void {
  fs.rmSync(path.join(studyFolder, INTERRUPTED_FILE), { force: true });
}

/** The mark when present and readable, else null. */
export function readInterrupted(studyFolder: string): InterruptedMark | null {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(studyFolder, INTERRUPTED_FILE), 'utf8')) as InterruptedMark;
    return typeof m.at === 'string' && typeof m.resume === 'string' ? m : null;
  } catch {
    return null;
  }
}

/** Whether process `pid` runs on this host (signal 0 probes it). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * What `lockin study status` says of a workflow the server reports RUNNING, given the mark:
 * null when there is no mark (or its process is still alive on this host: not interrupted);
 * else the line "interrupted at <time> (Ctrl-C): … resume with: <command>". Pure but for the
 * liveness probe of a mark written on this host.
 */
export function interruptedLine(mark: InterruptedMark | null, host: string): string | null {
  if (!mark) return null;
  if (mark.host === host && alive(mark.pid)) return null;
  return `interrupted at ${mark.at} (Ctrl-C): the workflow ${mark.workflowId} waits on the Temporal server with nothing lost, but no worker of lockin runs its activities; resume with: ${mark.resume}`;
}
