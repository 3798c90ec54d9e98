/**
 * `lockin study profile`'s attribution of activity time (client/profile.ts addHistory) on a
 * history written by hand: each activity scheduled at t, started 1 s later, done after a known
 * time, so every category's seconds are known.
 */
import type { temporal } from '@temporalio/proto';
import { addHistory, WORK_CATEGORIES, type Profile } from '../../client/profile';
import { noJobSeconds } from '../../client/jobWork';

type Event = temporal.api.history.v1.IHistoryEvent;
const at = (s: number) => ({ seconds: s, nanos: 0 }) as unknown as Event['eventTime'];

/** Three events for one activity: scheduled at `t`, started at t+1, completed at t+1+`took`. */
function activity(firstId: number, type: string, t: number, took: number, result?: object): Event[] {
  const payloads = result ? [{ data: Buffer.from(JSON.stringify(result)) }] : [];
  return [
    { eventId: firstId, eventTime: at(t), activityTaskScheduledEventAttributes: { activityType: { name: type } } },
    { eventId: firstId + 1, eventTime: at(t + 1), activityTaskStartedEventAttributes: { scheduledEventId: firstId } },
    { eventId: firstId + 2, eventTime: at(t + 1 + took), activityTaskCompletedEventAttributes: { scheduledEventId: firstId, result: { payloads } } },
  ] as unknown as Event[];
}

test('labels and executions on the variant databases are Spark work, not the harness\'s; queue waits are Temporal overhead', () => {
  const profile: Profile = { byCondition: {}, total: {}, wallSeconds: 0, jvm: { coldJobs: 0, warmJobs: 0, warmStarts: 0, slotRestarts: 0, reusedJobs: 0, restartReasons: {}, seconds: noJobSeconds() } };
  addHistory(profile, 'one-pass', [
    ...activity(1, 'runPytest', 0, 20, { spark: { mode: 'cold' } }),
    // where its wall time went (SparkRun.ms): 1.5 s starting its slot, 8 s its process, 0.25 s the check
    ...activity(4, 'executeCandidate', 30, 10, { spark: { mode: 'warm', jvmStarted: true, ms: { slot: 1500, process: 8000, check: 250 } } }),
    ...activity(7, 'executeOnVariants', 50, 7),
    ...activity(10, 'labelByExecution', 60, 90),
    ...activity(13, 'writeRunRecord', 200, 2),
    // copied from an identical run: it started no JVM, whatever the copied spark says
    ...activity(16, 'runPytest', 210, 0, { spark: { mode: 'warm', jvmStarted: true, reused: true, ms: { slot: 0, process: 9000, check: 100 } } }),
    // the slot was restarted after these two jobs, for the reasons they recorded
    ...activity(19, 'runPytest', 220, 3, { spark: { mode: 'warm', jvmStarted: false, restart: 'the job timed out' } }),
    ...activity(22, 'smokeCheck', 230, 4, { spark: { mode: 'warm', jvmStarted: true, restart: 'the job timed out' } }),
    // its slot's JVM was lost during the job: the job ran again cold
    ...activity(25, 'executeCandidate', 240, 5, { spark: { mode: 'cold', jvmStarted: true, lostSlot: { slot: 's', job: 2, reason: 'the slot ended' }, ms: { slot: 0, process: 4500, check: 300 } } }),
  ]);
  expect(profile.total).toEqual({
    pytest: 23,
    'spark execution': 26,
    'labels (acceptance tests and suites)': 90,
    'store and scoring': 2,
    'temporal overhead (queue wait)': 9,
  });
  expect(profile.byCondition['one-pass']).toEqual(profile.total);
  expect(profile.jvm).toEqual({ coldJobs: 2, warmJobs: 3, warmStarts: 2, slotRestarts: 3, reusedJobs: 1, restartReasons: { 'the job timed out': 2, 'the slot ended (the JVM was lost during the job: it ran again cold)': 1 },
    // the copy (9 s) ran no job and adds nothing; the jobs without ms are not timed
    seconds: { timed: 2, slot: 1.5, process: 12.5, check: 0.55 },
  });
  expect(WORK_CATEGORIES.reduce((a, k) => a + (profile.total[k] ?? 0), 0)).toBe(139);
});

test('the main job\'s step 3 and step 5 activities, in the "shared" scope, are Spark work of their own kinds', () => {
  const profile: Profile = { byCondition: {}, total: {}, wallSeconds: 0, jvm: { coldJobs: 0, warmJobs: 0, warmStarts: 0, slotRestarts: 0, reusedJobs: 0, restartReasons: {}, seconds: noJobSeconds() } };
  addHistory(profile, 'shared', [
    ...activity(1, 'reexecuteReferences', 0, 148),
    ...activity(4, 'mutationTask', 150, 116),
    ...activity(7, 'labellerAccuracy', 300, 185),
    ...activity(10, 'finishMutationAnalysis', 500, 3),
  ]);
  expect(profile.byCondition.shared).toEqual({
    'step 3 SQL re-execution': 148,
    'step 5 suites on gold and mutants': 116,
    'step 5 labeller check': 185,
    'store and scoring': 3,
    'temporal overhead (queue wait)': 4,
  });
  expect(WORK_CATEGORIES.reduce((a, k) => a + (profile.total[k] ?? 0), 0)).toBe(449);
});
