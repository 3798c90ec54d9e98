/**
 * Where a workflow sends a model call: the queue of the model's provider (protocol/queues.ts
 * modelQueue; docs/protocol.md §7), so that one provider's rate limits never hold another's calls.
 */
import { deprecatePatch, proxyActivities } from '@temporalio/workflow';
import type { StudyActivities } from '../protocol/activities';
import { modelCallOptions } from './options';

/**
 * The patch under which model calls went to their provider's queue, now retired: histories
 * recorded before it (every model call on `lockin-model`) no longer replay.
 */
export const MODEL_QUEUE_PATCH = 'model-queue-per-provider';

/** The callModel activity of model `spec` (a `--model` spec), on its provider's queue. Workflow code only. */
export function modelActivities(spec: string): Pick<StudyActivities, 'callModel'> {
  deprecatePatch(MODEL_QUEUE_PATCH);
  return proxyActivities<StudyActivities>(modelCallOptions(spec));
}
