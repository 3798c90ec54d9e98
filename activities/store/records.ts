/** Run records on disk: one JSON file per (task, condition), gathered into records.jsonl. */
import * as fs from 'fs';
import * as path from 'path';
import { BUDGETS } from '../../protocol/conditions';
import type { RunRecord } from '../../protocol/types';
import { parseRunRecord } from '../../protocol/records';
import { recordsDir, studyDir, taskKey } from '../common/layout';
import { recordFileName } from '../../protocol/layout';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

function recordFile(r: { studyId: string; taskId: string; replicate?: string; sample?: number; condition: string }): string {
  return path.join(recordsDir(r.studyId), recordFileName(r.taskId, r.condition, r.replicate, r.sample));
}

/**
 * Activity: writes one run record (overwrites the same key: idempotent), checked against
 * RunRecordSchema first. @returns its path. @throws InputError naming the wrong field.
 */
export async function writeRunRecord(record: ActivityInput<'writeRunRecord'>): Promise<ActivityOutput<'writeRunRecord'>> {
  const file = recordFile(record);
  parseRunRecord(record, { file });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(record, null, 2));
  fs.renameSync(`${file}.tmp`, file);
  return file;
}

/** Reads every run record of a study, sorted by task, replicate, sample and condition order. */
export function readRunRecords(studyId: string): RunRecord[] {
  const dir = recordsDir(studyId);
  if (!fs.existsSync(dir)) return [];
  const order = Object.keys(BUDGETS);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => parseRunRecord(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')), { file: path.join(dir, f) }))
    .sort(
      (a, b) =>
        taskKey(a.taskId, a.replicate).localeCompare(taskKey(b.taskId, b.replicate), 'en', { numeric: true }) ||
        (a.sample ?? 1) - (b.sample ?? 1) ||
        order.indexOf(a.condition) - order.indexOf(b.condition),
    );
}

/**
 * Activity: the task keys ("q4", "q4@r1", "q4~s2"; layout.ts taskKey) whose records exist for every condition of the
 * study, so a resumed study skips them.
 */
export async function completedTasks(req: ActivityInput<'completedTasks'>): Promise<ActivityOutput<'completedTasks'>> {
  const manifestFile = path.join(studyDir(req.studyId), 'study.json');
  if (!fs.existsSync(manifestFile)) return [];
  const conditions: string[] = JSON.parse(fs.readFileSync(manifestFile, 'utf8')).conditions;
  const have = new Map<string, Set<string>>();
  for (const r of readRunRecords(req.studyId)) {
    const k = taskKey(r.taskId, r.replicate, r.sample);
    if (!have.has(k)) have.set(k, new Set());
    have.get(k)!.add(r.condition);
  }
  return [...have.entries()].filter(([, s]) => conditions.every((c) => s.has(c))).map(([k]) => k);
}

/**
 * Activity: model calls already used by the completed tasks (keys as completedTasks), so a
 * resumed study's progress counts them. A task's calls = 1 shared Frozen One-Pass call + each
 * condition's own calls beyond it (workflows/task.ts), i.e. 1 + Σ (callsUsed − 1).
 * @returns {key: calls}; an empty object when the study has no manifest yet.
 */
export async function completedTaskCalls(req: ActivityInput<'completedTaskCalls'>): Promise<ActivityOutput<'completedTaskCalls'>> {
  const done = new Set(await completedTasks(req));
  const calls: Record<string, number> = {};
  for (const r of readRunRecords(req.studyId)) {
    const k = taskKey(r.taskId, r.replicate, r.sample);
    if (done.has(k)) calls[k] = (calls[k] ?? 1) + r.callsUsed - 1;
  }
  return calls;
}

/** Writes runs/<id>/records.jsonl from the record files. @returns the number of records. */
export function writeRecordsJsonl(studyId: string): number {
  const records = readRunRecords(studyId);
  fs.writeFileSync(path.join(studyDir(studyId), 'records.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : ''));
  return records.length;
}
