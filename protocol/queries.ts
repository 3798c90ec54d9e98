/**
 * The queries lockin's workflows answer, as objects: the workflows set their handlers with
 * them and the CLI queries with them (`handle.query(progressQuery)`), so a name is spelled
 * once. Queries add nothing to a workflow's history.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { CallsUsed, ConditionResult, MainJobProgress, MutationProgress, ObligationsCheckDone, PrepareProgress, StudyProgress } from './inputs';

/** runStudy: tasks done, running and failed, calls used, the current step. */
export const progressQuery = defineQuery<StudyProgress>('progress');
/** A condition workflow: calls used so far against its budget (docs/protocol.md §2). */
export const callsQuery = defineQuery<CallsUsed>('calls');
/**
 * A condition workflow: what it is doing now (workflows/conditions/lifecycle.ts CONDITION_PHASES):
 * calls (its protocol: model calls and pytest runs), waiting (frozen, for the task's other
 * conditions), execute, labels (executable labels), compare (comparison and labels), variants
 * (differential execution), record, done. Absent on workflows started before it (the client shows "-").
 */
export const phaseQuery = defineQuery<string>('phase');
/** prepareDatabase: the step running and the steps done. */
export const prepareProgressQuery = defineQuery<PrepareProgress>('prepareProgress');
/** mutationAnalysis: tasks done and the progress lines of the finished tasks. */
export const mutationProgressQuery = defineQuery<MutationProgress>('mutationProgress');

/** Condition → its task: the condition has frozen its artifacts (docs/protocol.md §3). */
export const conditionFrozenSignal = defineSignal<[ConditionResult]>('conditionFrozen');
/** Task → a condition: every condition has frozen; evaluate now. */
export const evaluateSignal = defineSignal('evaluate');

/** mainJob: the steps started so far, their child workflows, times and report lines. */
export const mainJobProgressQuery = defineQuery<MainJobProgress>('mainJobProgress');

/** obligationsCheck (`lockin obligations check`): the tasks checked so far, in the order they finished. */
export const obligationsCheckProgressQuery = defineQuery<ObligationsCheckDone[]>('obligationsCheckProgress');
