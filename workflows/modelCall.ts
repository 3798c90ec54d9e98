/**
 * Where a workflow sends a model call: the queue of the model's provider (protocol/queues.ts
 * modelQueue; docs/protocol.md §7), so that one provider's rate limits never hold another's calls.
 */
import { patched, proxyActivities } from '@temporalio/workflow';
import type { StudyActivities } from '../protocol/activities';
import { MODEL_CALL, modelCallOptions } from './options';

/**
 * The patch under which model calls go to their provider's queue. Histories recorded before it
 * scheduled every model call on `lockin-model` and replay that way.
 */
export const MODEL_QUEUE_PATCH = 'model-queue-per-provider';

const legacy = proxyActivities<StudyActivities>(MODEL_CALL);

/**
 * The callModel activity of model `spec` (a `--model` spec): on its provider's queue, or on
 * `lockin-model` when replaying a history recorded before MODEL_QUEUE_PATCH. Workflow code only.
 */
export function modelActivities(spec: string): Pick<StudyActivities, 'callModel'> {
  return patched(MODEL_QUEUE_PATCH) ? proxyActivities<StudyActivities>(modelCallOptions(spec)) : legacy;
}
