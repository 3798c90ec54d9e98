/**
 * Requests paid more than once (paid once), read from a study's call files: a call file
 * with `repeatOf` is a request sent again because the reply of an earlier send of the same call
 * was lost (the worker was killed while it was in flight; activities/model/sends.ts). The lost
 * request left no call file, so its tokens and cost are in no record: the repeat's cost is the
 * best estimate of what was paid on top of the report's totals.
 */
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { InputError } from '../common/errors';
import { callFiles } from './provenance';

/** The call-file fields this module reads. */
const RepeatShape = z
  .object({
    taskId: z.string(),
    condition: z.string(),
    stage: z.string(),
    callIndex: z.number(),
    sample: z.number().optional(),
    replicate: z.string().nullable().optional(),
    repeatOf: z.string().nullable().optional(),
    idempotencyHeader: z.string().nullable().optional(),
    costUsd: z.number().nullable().optional(),
  })
  .passthrough();

/** One repeat: which call, whether its idempotency key went out as a header, what it cost. */
export interface RepeatRow {
  taskId: string;
  condition: string;
  stage: string;
  callIndex: number;
  sample: number;
  replicate: string | null;
  /** The header the key was sent in (the server may answer from the lost request), or null: billed again. */
  idempotencyHeader: string | null;
  /** USD billed by the repeat (null: unpriced model). */
  costUsd: number | null;
}

/**
 * The repeats of a study. Input: the study folder (runs/<id>). Output: one row per call file
 * with a non-null `repeatOf`, in call-file order ([] when none).
 * @throws InputError naming the call file and field when one is not JSON or a field has the wrong type.
 */
export function readRepeats(studyDir: string): RepeatRow[] {
  const out: RepeatRow[] = [];
  for (const file of callFiles(path.join(studyDir, 'tasks'))) {
    const text = fs.readFileSync(file, 'utf8');
    if (!text.includes('"repeatOf"')) continue;
    let j: unknown;
    try {
      j = JSON.parse(text);
    } catch (e) {
      throw new InputError(`not JSON: ${(e as Error).message}`, file);
    }
    const c = RepeatShape.safeParse(j);
    if (!c.success) throw new InputError(c.error.issues[0].message, file, c.error.issues[0].path.join('.'));
    if (!c.data.repeatOf) continue;
    out.push({ taskId: c.data.taskId, condition: c.data.condition, stage: c.data.stage, callIndex: c.data.callIndex, sample: c.data.sample ?? 1, replicate: c.data.replicate ?? null, idempotencyHeader: c.data.idempotencyHeader ?? null, costUsd: c.data.costUsd ?? null });
  }
  return out;
}

/**
 * The report's sentence on repeats (under Model usage). Pure.
 * @returns "No request was paid more than once …" when `rows` is empty, else the count, each
 *   call (task/condition stage call N, sample and replicate when not the first), and the
 *   repeats' summed cost as the estimate of what the lost requests cost on top of the totals.
 */
export function repeatsParagraph(rows: RepeatRow[]): string {
  if (!rows.length) return 'No request was paid more than once (no call file records a repeat of a lost request).';
  const which = rows.map((r) => `${r.taskId}${r.replicate ? `@${r.replicate}` : ''}${r.sample > 1 ? `~s${r.sample}` : ''} ${r.condition} ${r.stage} (call ${r.callIndex}${r.idempotencyHeader ? `, sent with its ${r.idempotencyHeader}` : ''})`);
  const priced = rows.filter((r) => r.costUsd !== null);
  const cost = priced.reduce((a, r) => a + (r.costUsd as number), 0);
  const keyed = rows.filter((r) => r.idempotencyHeader).length;
  return [
    `**${rows.length} request(s) paid more than once**: sent again after a worker was killed while the first send was in flight (its reply was lost): ${which.join('; ')}.`,
    `The lost requests are in the ledger (status sent, no completion) but in no record: the totals above leave them out; the repeats cost $${cost.toFixed(4)}${priced.length < rows.length ? ` (${rows.length - priced.length} unpriced)` : ''}, about what the lost requests cost on top.`,
    keyed === 0
      ? 'The API takes no idempotency key, so each was billed again.'
      : `${keyed === rows.length ? 'Each' : keyed} went out with the lost request's idempotency key (a server that honours it answers without billing again)${keyed < rows.length ? `; the other ${rows.length - keyed} went to an API without one and were billed again` : ''}.`,
  ].join(' ');
}
