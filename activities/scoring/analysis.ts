/**
 * The study-level analyses the report tabulates, assembled from a loaded study with the pure
 * functions of scores.ts. Scores use FINAL labels (the paper: "scores derive from final
 * obligation labels"); binary outcomes use the run records.
 */
import type { ConditionId } from '../../protocol/conditions';
import type { LoadedRun } from './study';
import {
  taskScores, countSCO, conditionMeans, pairedChanges, falsePassFigures, mechanisms, trajectory,
  type TaskScores, type PairedSummary, type Trajectory,
} from './scores';

/** A run with its scores from final and from automated labels (null when it has no labels). */
export interface ScoredRun {
  run: LoadedRun;
  final: TaskScores | null;
  automated: TaskScores | null;
  sco: number;
}

/** Scores one loaded run. */
export function scoreRun(run: LoadedRun): ScoredRun {
  if (run.labels.length === 0) return { run, final: null, automated: null, sco: 0 };
  const finals = run.labels.map((l) => l.final);
  return { run, final: taskScores(finals), automated: taskScores(run.labels.map((l) => l.automated)), sco: countSCO(finals) };
}

/** summary.json per condition (scores are fractions in [0, 1]; rates are fractions). */
export interface ConditionSummary {
  tasks: number;
  testPassed: number;
  executed: number;
  referenceAgreement: number;
  falsePasses: number;
  falsePassRate: number;
  conditionalFalsePassProportion: number | null;
  modelCalls: number;
  planScoreMean: number;
  codeScoreMean: number;
  testScoreMean: number;
  sco: number;
  obligations: number;
  missingRuns: number;
}

/** Runs of one condition restricted to `tasks`, in task order. */
export function runsOf(scored: ScoredRun[], condition: ConditionId, tasks: string[]): ScoredRun[] {
  const set = new Set(tasks);
  return scored.filter((s) => s.run.condition === condition && set.has(s.run.taskId));
}

/**
 * Summarizes one condition over the assigned task list: every task counts in every
 * denominator; a missing run is an assigned run that neither passed, executed nor matched,
 * and scores 0.
 */
export function summarizeCondition(scored: ScoredRun[], condition: ConditionId, tasks: string[]): ConditionSummary {
  const rs = runsOf(scored, condition, tasks);
  const byTask = new Map(rs.map((s) => [s.run.taskId, s]));
  const outcomes = tasks.map((t) => {
    const rec = byTask.get(t)?.run.record;
    return { testPassed: !!rec?.testPassed, referenceAgreement: !!rec?.referenceAgreement };
  });
  const fp = falsePassFigures(outcomes);
  const scores = new Map<string, TaskScores>();
  for (const s of rs) if (s.final) scores.set(s.run.taskId, s.final);
  const means = conditionMeans(tasks, scores);
  return {
    tasks: tasks.length,
    testPassed: fp.testPassed,
    executed: rs.filter((s) => s.run.record?.execution?.status === 'ok').length,
    referenceAgreement: fp.referenceAgreement,
    falsePasses: fp.falsePasses,
    falsePassRate: fp.falsePassRate,
    conditionalFalsePassProportion: fp.conditionalFalsePassProportion,
    modelCalls: rs.reduce((a, s) => a + (s.run.record?.callsUsed ?? 0), 0),
    planScoreMean: means.plan,
    codeScoreMean: means.code,
    testScoreMean: means.test,
    sco: rs.reduce((a, s) => a + s.sco, 0),
    obligations: rs.reduce((a, s) => a + s.run.labels.length, 0),
    missingRuns: tasks.filter((t) => !byTask.get(t)?.run.record).length,
  };
}

/**
 * Paired within-task changes of a revision branch against one-pass, for each score dimension.
 * A task is paired only when both its one-pass run and its branch run have a run record; a task
 * where either is missing (a failed task or condition) is left out of every count and listed in
 * `missing` (findings #15: a missing run is not an "unchanged" task). Within a paired task a run
 * without labels still scores 0 (pairedChanges).
 */
export function pairedForBranch(scored: ScoredRun[], branch: ConditionId, tasks: string[]): Record<keyof TaskScores, PairedSummary> {
  const pick = (c: ConditionId, d: keyof TaskScores) => new Map(runsOf(scored, c, tasks).filter((s) => s.final).map((s) => [s.run.taskId, s.final![d]]));
  const recorded = (c: ConditionId) => new Set(runsOf(scored, c, tasks).filter((s) => s.run.record).map((s) => s.run.taskId));
  const base = recorded('one-pass');
  const mine = recorded(branch);
  const paired = tasks.filter((t) => base.has(t) && mine.has(t));
  const missing = tasks.filter((t) => !(base.has(t) && mine.has(t)));
  const dims: (keyof TaskScores)[] = ['plan', 'code', 'test'];
  return Object.fromEntries(dims.map((d) => [d, { ...pairedChanges(paired, pick('one-pass', d), pick(branch, d)), missing }])) as Record<keyof TaskScores, PairedSummary>;
}

/** Table VI for one condition: violated obligations in its false-pass runs. */
export function mechanismsFor(scored: ScoredRun[], condition: ConditionId, tasks: string[]): ReturnType<typeof mechanisms> & { falsePassRuns: number } {
  const fpRuns = runsOf(scored, condition, tasks).filter((s) => s.run.record?.falsePass);
  return { ...mechanisms(fpRuns.map((s) => s.run.labels.map((l) => ({ ...l.final, repeats: !!l.automated.repeats })))), falsePassRuns: fpRuns.length };
}

/** One obligation's trajectory from the one-pass snapshot to a revision branch. */
export interface TrajectoryItem {
  task: string;
  branch: ConditionId;
  obligation: string;
  trajectory: Trajectory;
  assertionsChanged: boolean;
  testFileChanged: boolean;
}

/**
 * Trajectories for a revision branch over `tasks` (tasks where either side has no labels are
 * skipped). The test file changed when its sha256 differs from the one-pass snapshot's.
 */
export function trajectoriesFor(scored: ScoredRun[], branch: ConditionId, tasks: string[]): TrajectoryItem[] {
  const base = new Map(runsOf(scored, 'one-pass', tasks).map((s) => [s.run.taskId, s.run]));
  const out: TrajectoryItem[] = [];
  for (const s of runsOf(scored, branch, tasks)) {
    const b = base.get(s.run.taskId);
    if (!b || b.labels.length === 0 || s.run.labels.length === 0) continue;
    const testFileChanged = !!b.testHash && !!s.run.testHash && b.testHash !== s.run.testHash;
    const baseById = new Map(b.labels.map((l) => [l.obligation.id, l.final]));
    for (const l of s.run.labels) {
      const bl = baseById.get(l.obligation.id);
      if (!bl) continue;
      out.push({ task: s.run.taskId, branch, obligation: l.obligation.id, ...trajectory(bl, l.final, testFileChanged), testFileChanged });
    }
  }
  return out;
}

/**
 * Internal scores against reference agreement (Figure 1's counts): among runs of a condition
 * with plan semantic ratio ≥ threshold (resp. test coverage ≥ threshold), how many lacked
 * reference agreement. Threshold is a fraction (the paper: 0.9).
 */
export function highScoreWithoutAgreement(scored: ScoredRun[], condition: ConditionId, tasks: string[], threshold = 0.9): { planHigh: number; planHighNoAgreement: number; testHigh: number; testHighNoAgreement: number } {
  const rs = runsOf(scored, condition, tasks).filter((s) => s.final && s.run.record);
  const planHigh = rs.filter((s) => s.final!.plan >= threshold - 1e-12);
  const testHigh = rs.filter((s) => s.final!.test >= threshold - 1e-12);
  return {
    planHigh: planHigh.length,
    planHighNoAgreement: planHigh.filter((s) => !s.run.record!.referenceAgreement).length,
    testHigh: testHigh.length,
    testHighNoAgreement: testHigh.filter((s) => !s.run.record!.referenceAgreement).length,
  };
}
