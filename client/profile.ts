/**
 * `lockin study profile`: where the time went, from the workflow histories. Activity time is
 * attributed by activity type (model, pytest, Spark execution, comparison, store); the rest of
 * the workflow's wall time, and the time activities waited in task queues, is Temporal overhead.
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { CONDITIONS } from '../protocol/conditions';
import { addJobSeconds, lostSlotReason, noJobSeconds, type JobSeconds } from './jobWork';

const CATEGORY: Record<string, string> = {
  callModel: 'model',
  runPytest: 'pytest',
  smokeCheck: 'spark execution',
  executeCandidate: 'spark execution',
  // The candidate on the variant databases (differential execution): Spark executions too.
  executeOnVariants: 'spark execution',
  // The executable labels: the acceptance tests on the candidate and its suite on gold and the violations.
  labelByExecution: 'labels (acceptance tests and suites)',
  evaluateRun: 'comparison',
  // The main job's step 3 and step 5 workflows carry the study's id too (their scope is "shared"):
  // the reference SQL re-executed, the suites on gold and mutants, the labeller check's acceptance
  // tests and executions. Spark work, not the harness's.
  reexecuteReferences: 'step 3 SQL re-execution',
  mutationTask: 'step 5 suites on gold and mutants',
  labellerAccuracy: 'step 5 labeller check',
  labellerCheckTask: 'step 5 labeller check',
  labellerCalibration: 'step 5 labeller check',
};

/** The kinds of activity time that are Spark, pytest or model work (the rest is the harness's). */
export const WORK_CATEGORIES = ['model', 'pytest', 'spark execution', 'labels (acceptance tests and suites)', 'step 3 SQL re-execution', 'step 5 suites on gold and mutants', 'step 5 labeller check'] as const;

export interface Profile {
  /** seconds per category, per condition ("shared" = task-level work, "study" = study-level). */
  byCondition: Record<string, Record<string, number>>;
  total: Record<string, number>;
  wallSeconds: number;
  /**
   * JVM start-ups of the study workflows' pytest, smoke-check and execution activities, read from
   * their results' `spark` (warm Spark slots): cold jobs (one JVM each), warm jobs, and the warm jobs that
   * started their slot's JVM. Results from before warm Spark slots count as cold. A result copied from an
   * identical run of the study (`spark.reused`) ran no job: it counts in reusedJobs only.
   * restartReasons: the warm jobs after which the slot was restarted, by the reason recorded
   * (`spark.restart`), and the jobs rerun cold after their slot's JVM was lost (`spark.lostSlot`,
   * jobWork.lostSlotReason); their counts sum to slotRestarts. seconds: where the jobs' wall time
   * went (their SparkRun.ms; copies ran no job and add nothing).
   */
  jvm: { coldJobs: number; warmJobs: number; warmStarts: number; slotRestarts: number; reusedJobs: number; restartReasons: Record<string, number>; seconds: JobSeconds };
}

const SPARK_ACTIVITIES = new Set(['runPytest', 'smokeCheck', 'executeCandidate']);

/** The `spark` field of an activity's JSON result payload, if any. */
type ResultSpark = { mode?: string; jvmStarted?: boolean; restart?: string; reused?: boolean; lostSlot?: { reason: string }; ms?: { slot?: number; process?: number; check?: number } };

function sparkOfResult(done: temporal.api.history.v1.IActivityTaskCompletedEventAttributes | null | undefined): ResultSpark | undefined {
  const data = done?.result?.payloads?.[0]?.data;
  if (!data) return undefined;
  try {
    return (JSON.parse(Buffer.from(data).toString('utf8')) as { spark?: ResultSpark }).spark ?? {};
  } catch {
    return undefined;
  }
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
      if (SPARK_ACTIVITIES.has(s.type) && e.activityTaskCompletedEventAttributes) {
        const sp = sparkOfResult(e.activityTaskCompletedEventAttributes);
        if (sp?.reused) {
          profile.jvm.reusedJobs += 1;
          continue;
        }
        addJobSeconds(profile.jvm.seconds, sp);
        if (sp?.mode === 'warm') {
          profile.jvm.warmJobs += 1;
          if (sp.jvmStarted) profile.jvm.warmStarts += 1;
          if (sp.restart) {
            profile.jvm.slotRestarts += 1;
            profile.jvm.restartReasons[sp.restart] = (profile.jvm.restartReasons[sp.restart] ?? 0) + 1;
          }
        } else if (sp) profile.jvm.coldJobs += 1;
        if (sp?.lostSlot) {
          const why = lostSlotReason(sp.lostSlot.reason);
          profile.jvm.slotRestarts += 1;
          profile.jvm.restartReasons[why] = (profile.jvm.restartReasons[why] ?? 0) + 1;
        }
      }
    }
  }
}

/** Builds the profile of study `studyId` from the study, task and condition histories. */
export async function profileStudy(client: Client, studyId: string): Promise<Profile> {
  const profile: Profile = { byCondition: {}, total: {}, wallSeconds: 0, jvm: { coldJobs: 0, warmJobs: 0, warmStarts: 0, slotRestarts: 0, reusedJobs: 0, restartReasons: {}, seconds: noJobSeconds() } };
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
