/**
 * runTask: one shared initial generation (the snapshot), then one child workflow per
 * condition, each in its own directory starting from a copy of the snapshot; after every
 * condition has frozen its artifacts, evaluation (execution on the study database, reference
 * agreement, labels) and one run record per condition (docs/protocol.md §2–4).
 */
import { executeChild, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { RunRecord, StageResult, TokenUsage } from '../protocol/types';
import { BUDGETS, ConditionId } from '../protocol/conditions';
import type { StudyActivities } from '../protocol/activities';
import { frozenOnePass } from './conditions/frozenOnePass';
import { planAuditGuidedRevision } from './conditions/planAuditGuidedRevision';
import { testGuidedRevision } from './conditions/testGuidedRevision';
import { LOCAL_STEP, MODEL_CALL, SPARK_RUN } from './options';
import { CONDITION_KEY, STATUS_KEY, STUDY_KEY, TASK_KEY } from '../protocol/searchAttributes';
import type { ConditionResult, TaskInput } from '../protocol/inputs';
import { conditionWorkflowId, evaluationDir } from '../protocol/layout';
import { recordingStatus } from './status';

const local = proxyActivities<StudyActivities>(LOCAL_STEP);
const model = proxyActivities<StudyActivities>(MODEL_CALL);
const spark = proxyActivities<StudyActivities>(SPARK_RUN);

const CONDITION_WORKFLOWS = {
  'one-pass': frozenOnePass,
  'test-guided': testGuidedRevision,
  'plan-audit': planAuditGuidedRevision,
} as const;

export interface TaskSummary {
  taskId: string;
  replicate?: string;
  /** Distinct protocol-level calls: the shared generation counted once. */
  callsUsed: number;
  records: { condition: ConditionId; testPassed: boolean; referenceMatched: boolean; falsePass: boolean; callsUsed: number }[];
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

export async function runTask(input: TaskInput): Promise<TaskSummary> {
  return recordingStatus(() => runTaskSteps(input));
}

async function runTaskSteps(input: TaskInput): Promise<TaskSummary> {
  const { study, taskId, replicate, manifest } = input;
  const base = { studyId: study.studyId, taskId, replicate };
  const snapshotDir = await local.prepareConditionDir({ ...base, condition: 'snapshot' });
  const generate = await model.callModel({
    ...base,
    condition: 'shared',
    stage: 'generate',
    workDir: snapshotDir,
    callIndex: 1,
    model: study.model,
    params: study.params,
    inputs: {},
  });
  await local.freezeArtifacts({ dir: snapshotDir });

  const results: ConditionResult[] = await Promise.all(
    study.conditions.map(async (condition) => {
      const conditionDir = await local.prepareConditionDir({ ...base, condition, fromDir: snapshotDir });
      return executeChild(CONDITION_WORKFLOWS[condition], {
        args: [{ study, taskId, condition, conditionDir, snapshotDir, sharedCalls: [generate], replicate }],
        workflowId: conditionWorkflowId(workflowInfo().workflowId, condition),
        typedSearchAttributes: [
          { key: STUDY_KEY, value: study.studyId },
          { key: TASK_KEY, value: taskId },
          { key: CONDITION_KEY, value: condition },
          { key: STATUS_KEY, value: 'running' },
        ],
      });
    }),
  );

  // Every condition has frozen its artifacts: only now does evaluation start (§3).
  const records: TaskSummary['records'] = [];
  for (const r of results) {
    const deviations = await local.classifyEdits({ snapshotDir, conditionDir: r.conditionDir, condition: r.condition });
    const evalDir = evaluationDir(r.conditionDir, r.condition);
    const execution = await spark.executeCandidate({
      dir: r.conditionDir,
      scale: study.scale,
      settings: study.settings,
      outDir: evalDir,
      timeoutMs: study.limits.executionTimeoutMs,
      memoryMb: study.limits.memoryMb,
      reuseScope: study.studyId,
    });
    const comparison = await local.evaluateRun({ studyId: study.studyId, taskId, condition: r.condition, conditionDir: r.conditionDir, scale: study.scale, execution, model: study.model, params: study.params });
    const testPassed = !!r.pytest?.passed;
    const referenceMatched = comparison.agree;
    const { usage, costUsd } = sumUsage(r.stages);
    const record: RunRecord = {
      schemaVersion: 1,
      studyId: study.studyId,
      manifestHash: manifest.manifestHash,
      taskId,
      condition: r.condition,
      replicate,
      model: study.model,
      replayed: manifest.replayed,
      callsUsed: r.callsUsed,
      callBudget: BUDGETS[r.condition].callBudget,
      stopReason: r.stopReason,
      stages: r.stages.map((s) => ({ stage: s.stage, callFile: s.callFile, ok: s.ok, cacheHit: s.cacheHit, protocolError: s.protocolError })),
      artifacts: r.artifacts,
      pytest: r.pytest,
      smoke: r.smoke,
      execution,
      comparison,
      testPassed,
      referenceMatched,
      falsePass: testPassed && !referenceMatched,
      deviations,
      usage,
      costUsd,
      conditionDir: r.conditionDir,
    };
    await local.writeRunRecord(record);
    records.push({ condition: r.condition, testPassed, referenceMatched, falsePass: record.falsePass, callsUsed: r.callsUsed });
  }
  const callsUsed = 1 + results.reduce((n, r) => n + r.callsUsed - 1, 0);
  return { taskId, replicate, callsUsed, records };
}
