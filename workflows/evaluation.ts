/**
 * Evaluation of one frozen condition (docs/protocol.md §4–5): its edits classified against the
 * snapshot, the frozen candidate executed on the study database, reference agreement and the
 * obligation labels, and one run record. Runs only after every condition of the task has frozen
 * (§3); the task decides when.
 */
import { deprecatePatch, proxyActivities } from '@temporalio/workflow';
import type { StudyActivities } from '../protocol/activities';
import { BUDGETS } from '../protocol/conditions';
import type { ConditionOutcome, ConditionResult, StudyInput, StudyManifestSummary } from '../protocol/inputs';
import { evaluationDir } from '../protocol/layout';
import type { RunRecord, StageResult, TokenUsage } from '../protocol/types';
import type { DifferentialOutcome } from '../protocol/records';
import { differentialAgreement } from '../protocol/differential';
import { LOCAL_STEP, SPARK_RUN } from './options';
import { modelActivities } from './modelCall';

const local = proxyActivities<StudyActivities>(LOCAL_STEP);
const spark = proxyActivities<StudyActivities>(SPARK_RUN);

/** What the evaluation of a condition needs besides its result. */
export interface EvaluationContext {
  study: StudyInput;
  manifest: StudyManifestSummary;
  taskId: string;
  replicate?: string;
  /** Sample index, 1-based; absent = 1. */
  sample?: number;
  snapshotDir: string;
}

function sumUsage(stages: StageResult[]): { usage: TokenUsage; costUsd: number } {
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  let costUsd = 0;
  for (const s of stages) {
    usage.inputTokens += s.usage.inputTokens;
    usage.outputTokens += s.usage.outputTokens;
    usage.cacheReadTokens += s.usage.cacheReadTokens;
    usage.cacheWriteTokens += s.usage.cacheWriteTokens;
    costUsd += s.costUsd ?? 0;
  }
  return { usage, costUsd };
}

/**
 * Evaluates frozen condition `r` and writes its run record. `onPhase` is told each phase as it
 * starts (execute, labels, compare, variants, record: the progress line's words). @returns its outcome.
 */
export async function evaluateCondition(ctx: EvaluationContext, r: ConditionResult, onPhase: (phase: 'execute' | 'labels' | 'compare' | 'variants' | 'record') => void = () => undefined): Promise<ConditionOutcome> {
  const { study, taskId, replicate, manifest } = ctx;
  const sample = ctx.sample ?? 1;
  onPhase('execute');
  const deviations = await local.classifyEdits({ snapshotDir: ctx.snapshotDir, conditionDir: r.conditionDir, condition: r.condition });
  const execution = await spark.executeCandidate({
    dir: r.conditionDir,
    scale: study.scale,
    settings: study.settings,
    outDir: evaluationDir(r.conditionDir, r.condition),
    timeoutMs: study.limits.executionTimeoutMs,
    memoryMb: study.limits.memoryMb,
    reuseScope: study.studyId,
    ...(study.sparkMode ? { sparkMode: study.sparkMode } : {}),
  });
  // Executable labels, read by the labelling in evaluateRun.
  onPhase('labels');
  deprecatePatch('executable-labels');
  await spark.labelByExecution({ taskId, conditionDir: r.conditionDir, condition: r.condition, settings: study.settings, reuseScope: study.studyId, ...(study.sparkMode ? { sparkMode: study.sparkMode } : {}) });
  // The judge reply of a replicate or of sample k ≥ 2 is its own (activities/scoring/judge.ts).
  const evalReq = { studyId: study.studyId, taskId, replicate, ...(sample > 1 ? { sample } : {}), condition: r.condition, conditionDir: r.conditionDir, scale: study.scale, execution, model: study.model, params: study.params };
  onPhase('compare');
  // The judge is a model call like any other (docs/protocol.md §5): scheduled here on the model
  // queue, so it is in the history, cached, in the ledger and under the queue's limits.
  deprecatePatch('judge-on-model-queue');
  const comparison = await local.evaluateRun({ ...evalReq, labels: false });
  const request = await local.judgeRequest({ ...evalReq, comparison });
  const judged = request ? await modelActivities(request.model).callModel(request) : null;
  await local.labelRun({ ...evalReq, comparison, judged });
  // Differential execution: the candidate on each variant database built at the study's scale
  // (none built: nothing recorded).
  deprecatePatch('differential-execution');
  onPhase('variants');
  const differential: DifferentialOutcome | null = await spark.executeOnVariants({
    taskId, dir: r.conditionDir, scale: study.scale, settings: study.settings, outDir: evaluationDir(r.conditionDir, r.condition),
    timeoutMs: study.limits.executionTimeoutMs, memoryMb: study.limits.memoryMb, reuseScope: study.studyId,
    ...(study.sparkMode ? { sparkMode: study.sparkMode } : {}), skip: execution.status !== 'ok',
  });
  const testPassed = !!r.pytest?.passed;
  const referenceAgreement = comparison.agree;
  const referenceAgreementDifferential = differentialAgreement(referenceAgreement, differential);
  const { usage, costUsd } = sumUsage(r.stages);
  const record: RunRecord = {
    schemaVersion: 2,
    studyId: study.studyId,
    manifestHash: manifest.manifestHash,
    taskId,
    condition: r.condition,
    replicate,
    sample,
    model: study.model,
    replayed: manifest.replayed,
    callsUsed: r.callsUsed,
    callBudget: BUDGETS[r.condition].callBudget,
    stopReason: r.stopReason,
    stages: r.stages.map((s) => ({ stage: s.stage, callFile: s.callFile, ok: s.ok, cacheHit: s.cacheHit, protocolError: s.protocolError })),
    artifacts: r.artifacts,
    pytest: r.pytest,
    ...(r.contract ? { contract: r.contract } : {}),
    smoke: r.smoke,
    execution,
    comparison,
    ...(study.sparkMode ? { sparkMode: study.sparkMode } : {}),
    testPassed,
    referenceAgreement,
    falsePass: testPassed && !referenceAgreement,
    ...(differential && referenceAgreementDifferential !== undefined ? { differential, referenceAgreementDifferential } : {}),
    deviations,
    usage,
    costUsd,
    conditionDir: r.conditionDir,
  };
  onPhase('record');
  await local.writeRunRecord(record);
  return { condition: r.condition, testPassed, referenceAgreement, falsePass: record.falsePass, callsUsed: r.callsUsed };
}
