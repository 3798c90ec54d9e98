/**
 * What `lockin study status <id>` says about a study's tasks (findings #13, #27): a progress line
 * that does not count failed task runs as done, and the failed runs with their causes after the
 * study has ended (runs/<id>/failures.json, written by finishStudy). Pure, except readStudyFailures.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { StudyFailure, StudyProgress } from '../protocol/inputs';
import { parseFailureKey } from '../activities/results';
import { conditionWorkflowId, taskWorkflowId } from '../protocol/layout';

/**
 * The progress line of a running study: "done N of T task runs, failed M (q4), running: q3;
 * step: …; model calls of finished task runs: C". A task run whose workflow failed (key without
 * a condition) is failed, not done; a task run one of whose conditions failed is done (its
 * other conditions have records) and that condition is named under "conditions failed".
 * Input: the study workflow's progress query result.
 */
export function studyProgressLine(p: StudyProgress): string {
  const keys = p.tasksFailed.map((k) => ({ key: k, ...parseFailureKey(k) }));
  const wholeTasks = keys.filter((k) => k.condition === null).map((k) => k.key);
  const conditions = keys.filter((k) => k.condition !== null).map((k) => k.key);
  const done = Math.max(0, p.tasksDone - wholeTasks.length);
  const failed = wholeTasks.length ? `failed ${wholeTasks.length} (${wholeTasks.join(', ')})` : 'failed 0';
  const condText = conditions.length ? `; conditions failed: ${conditions.join(', ')} (the task's other conditions have records)` : '';
  return `  done ${done} of ${p.tasksTotal} task runs, ${failed}, running: ${p.running.join(', ') || '-'}${condText}; step: ${p.step}; model calls of finished task runs: ${p.callsUsed}`;
}

/**
 * The failed runs of an ended study, one line each with its cause (cut at 300 characters), under
 * a heading line; [] when none failed.
 */
export function failureLines(failures: readonly StudyFailure[]): string[] {
  if (!failures.length) return [];
  const cut = (s: string) => {
    const t = s.replace(/\s+/g, ' ').trim();
    return t.length > 300 ? `${t.slice(0, 299)}…` : t;
  };
  return [
    `  ${failures.length} task run(s) or condition(s) FAILED, without a run record (the report counts their runs as assigned runs that neither passed nor matched):`,
    ...failures.map((f) => {
      const k = parseFailureKey(f.task);
      return `    ${k.task}${k.condition ? ` × ${k.condition}` : ' (every condition)'}: ${cut(f.error)}`;
    }),
  ];
}

/**
 * runs/<id>/failures.json's list (`{failed: [{task, error}]}`), or null when the study has no
 * such file (still running, or finished before the file existed). A malformed file gives null too:
 * status is a read-only view and says "not recorded" rather than failing.
 */
export function readStudyFailures(dir: string): StudyFailure[] | null {
  const file = path.join(dir, 'failures.json');
  if (!fs.existsSync(file)) return null;
  try {
    const j = JSON.parse(fs.readFileSync(file, 'utf8')) as { failed?: unknown };
    if (!Array.isArray(j.failed)) return null;
    return j.failed.filter((f): f is StudyFailure => !!f && typeof (f as StudyFailure).task === 'string' && typeof (f as StudyFailure).error === 'string');
  } catch {
    return null;
  }
}

/**
 * The workflow id behind a failure key of the progress query (`q4`, `q4@r1`, `q4~s2`,
 * `q4/contract-first`): the task workflow (protocol/layout.ts taskWorkflowId, the inverse of
 * taskKey), or its condition's workflow when the key names a condition; null for a key that
 * does not parse. Pure.
 * @param studyWorkflow the study workflow's id (`study-<id>`)
 */
export function failureWorkflowId(studyWorkflow: string, key: string): string | null {
  const k = parseFailureKey(key);
  const m = /^([^@~/]+)(?:@([^~/]+))?(?:~s(\d+))?$/.exec(k.task);
  if (!m) return null;
  const task = taskWorkflowId(studyWorkflow, m[1], m[2], m[3] ? Number(m[3]) : undefined);
  return k.condition ? conditionWorkflowId(task, k.condition) : task;
}

/** The innermost `cause` message of an error (a workflow's failure → its activity → the application error). Pure. */
export function innermostMessage(err: unknown): string {
  let e = err as { message?: string; cause?: unknown } | undefined;
  while (e && typeof e === 'object' && e.cause) e = e.cause as { message?: string; cause?: unknown };
  return (e && e.message) || String(err);
}
