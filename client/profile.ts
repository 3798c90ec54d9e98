/**
 * `lockin study profile`: where the time went, from the workflow histories. Activity time is
 * attributed by activity type (model, pytest, Spark execution, comparison, store); the rest of
 * the workflow's wall time, and the time activities waited in task queues, is Temporal overhead.
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { CONDITIONS } from '../protocol/conditions';

const CATEGORY: Record<string, string> = {
  callModel: 'model',
  runPytest: 'pytest',
  smokeCheck: 'spark execution',
  executeCandidate: 'spark execution',
  evaluateRun: 'comparison',
};

export interface Profile {
  /** seconds per category, per condition ("shared" = task-level work, "study" = study-level). */
  byCondition: Record<string, Record<string, number>>;
  total: Record<string, number>;
  wallSeconds: number;
}

function seconds(t: temporal.api.history.v1.IHistoryEvent['eventTime']): number {
  if (!t) return 0;
  return Number(t.seconds ?? 0) + (t.nanos ?? 0) / 1e9;
}

/** Folds one history's activity spans into the profile under `scope`. Pure over the events. */
export function addHistory(profile: Profile, scope: string, events: temporal.api.history.v1.IHistoryEvent[]): void {
  const scheduled = new Map<number, { type: string; at: number }>();
  const started = new Map<number, number>();
  const bucket = (profile.byCondition[scope] ??= {});
  const add = (cat: string, s: number) => {
    bucket[cat] = (bucket[cat] ?? 0) + s;
    profile.total[cat] = (profile.total[cat] ?? 0) + s;
  };
  for (const e of events) {
    const id = Number(e.eventId);
    if (e.activityTaskScheduledEventAttributes) scheduled.set(id, { type: e.activityTaskScheduledEventAttributes.activityType?.name ?? '?', at: seconds(e.eventTime) });
    if (e.activityTaskStartedEventAttributes) started.set(Number(e.activityTaskStartedEventAttributes.scheduledEventId), seconds(e.eventTime));
    const done = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes;
    if (done) {
      const sid = Number(done.scheduledEventId);
      const s = scheduled.get(sid);
      const st = started.get(sid);
      if (!s || st === undefined) continue;
      add(CATEGORY[s.type] ?? 'store and scoring', seconds(e.eventTime) - st);
      add('temporal overhead (queue wait)', st - s.at);
    }
  }
}

/** Builds the profile of study `studyId` from the study, task and condition histories. */
export async function profileStudy(client: Client, studyId: string): Promise<Profile> {
  const profile: Profile = { byCondition: {}, total: {}, wallSeconds: 0 };
  const studyWf = `study-${studyId}`;
  for await (const wf of client.workflow.list({ query: `LockinStudy="${studyId}"` })) {
    const history = await client.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
    const events = history.events ?? [];
    const scope = wf.workflowId === studyWf ? 'study' : (wf.workflowId.split('/').pop() ?? 'task');
    addHistory(profile, (CONDITIONS as readonly string[]).includes(scope) ? scope : scope === 'study' ? 'study' : 'shared', events);
    if (wf.workflowId === studyWf && events.length) profile.wallSeconds = seconds(events[events.length - 1].eventTime) - seconds(events[0].eventTime);
  }
  return profile;
}
