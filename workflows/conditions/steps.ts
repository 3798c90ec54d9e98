/** The non-model steps every condition shares: pytest, smoke check, freeze. */
import { proxyActivities } from '@temporalio/workflow';
import type { PytestOutcome } from '../../protocol/types';
import type { StudyActivities } from '../../protocol/activities';
import { LOCAL_STEP, SPARK_RUN } from '../options';
import type { ConditionInput } from '../../protocol/inputs';

const spark = proxyActivities<StudyActivities>(SPARK_RUN);
const local = proxyActivities<StudyActivities>(LOCAL_STEP);

/**
 * Runs the condition's test_solution.py (or `suite`, pinned to `suiteSha256` when given);
 * `label` names the run (initial, after-revise-1, …).
 */
export function pytest(input: ConditionInput, label: string, suite?: { file: 'contract_test.py'; sha256: string }): Promise<PytestOutcome> {
  return spark.runPytest({
    ...(suite ? { suite: suite.file, suiteSha256: suite.sha256 } : {}),
    dir: input.conditionDir,
    outDir: `${input.conditionDir}/pytest/${label}`,
    settings: input.study.settings,
    timeoutMs: input.study.limits.pytestTimeoutMs,
    runLabel: label,
    reuseScope: input.study.studyId,
    ...(input.study.sparkMode ? { sparkMode: input.study.sparkMode } : {}),
  });
}

export const smokeCheck = (input: ConditionInput) =>
  spark.smokeCheck({ dir: input.conditionDir, scale: input.study.scale, settings: input.study.settings, ...(input.study.sparkMode ? { sparkMode: input.study.sparkMode } : {}) });

export const freeze = (input: ConditionInput) => local.freezeArtifacts({ dir: input.conditionDir });
