/**
 * The report's exports as plain rows (one table each), so that every table cell can be
 * recomputed with pandas alone (report/README.md says how). Pure: rows are built from a
 * loaded, scored study; writing happens in writeReport.ts.
 *
 * Conventions: scores are fractions in [0, 1]; changes are percentage points; booleans are
 * true/false. A missing run (no run record: its task or condition failed) appears with
 * present = false, zero scores (Table III's "over all assigned tasks" rule) and null outcomes
 * (test_passed, executed, reference_agreement, false_pass, calls_used, sco, deviations: not
 * observed, so not false; findings #16), and its paired changes are null (not paired; #15).
 */
import type { ConditionId } from '../../protocol/conditions';
import { PLAN_WEIGHTS, CODE_WEIGHTS, TEST_WEIGHTS } from '../../protocol/labels';
import { isSCO } from '../scoring/scores';
import type { ScoredRun, TrajectoryItem } from '../scoring/analysis';
import type { LoadedRun } from '../scoring/study';

/** Column type for the Parquet writer. */
export type ColType = 'string' | 'int' | 'float' | 'bool';
export interface ExportTable {
  name: string;
  columns: [string, ColType][];
  rows: Record<string, unknown>[];
}

/** 'P' (suite passed), 'E' (candidate execution failed, or pytest errored/collection-failed/timed out/crashed), else 'F'. */
export function pfe(run: LoadedRun): 'P' | 'F' | 'E' | '' {
  const r = run.record;
  if (!r) return '';
  if (r.testPassed) return 'P';
  const p = r.pytest;
  const pytestError = !!p && (p.status !== 'completed' || p.counts.errored > 0 || p.counts.collectionFailed > 0);
  if ((r.execution && r.execution.status !== 'ok') || !r.execution || pytestError) return 'E';
  return 'F';
}

const RUN_COLUMNS: [string, ColType][] = [
  ['study', 'string'], ['task', 'string'], ['condition', 'string'], ['replicate', 'string'], ['present', 'bool'],
  ['model', 'string'], ['sample', 'int'], ['replayed', 'bool'], ['reply_provenance', 'string'],
  ['calls_used', 'int'], ['call_budget', 'int'], ['stop_reason', 'string'],
  ['test_passed', 'bool'], ['pytest_passed', 'int'], ['pytest_failed', 'int'], ['pytest_errored', 'int'], ['pytest_collection_failed', 'int'], ['pytest_total', 'int'], ['pytest_status', 'string'], ['pfe', 'string'],
  ['execution_status', 'string'], ['executed', 'bool'], ['output_rows', 'int'],
  ['reference_agreement', 'bool'], ['false_pass', 'bool'], ['primary_category', 'string'], ['categories', 'string'], ['comparison_summary', 'string'], ['ladder_level', 'int'], ['tolerance_agreement', 'float'],
  ['deviations', 'int'], ['deviations_not_allowed', 'int'], ['deviation_detail', 'string'],
  ['input_tokens', 'int'], ['output_tokens', 'int'], ['cost_usd', 'float'],
  ['obligations', 'int'], ['plan_score', 'float'], ['code_score', 'float'], ['test_score', 'float'], ['auto_plan_score', 'float'], ['auto_code_score', 'float'], ['auto_test_score', 'float'], ['sco', 'int'],
  ['label_method', 'string'], ['test_sha256', 'string'], ['test_file_changed', 'bool'], ['reproduced', 'bool'], ['condition_dir', 'string'],
];

/**
 * runs: one row per run (primary runs for every assigned task × condition, then replicate runs).
 * `reproduced` is the SQL re-execution verdict of the task's reference (null when unknown).
 * `replyProvenance` gives a run's reply provenance kinds (activities/report/provenance.ts
 * runReplyProvenance), written ';'-separated in `reply_provenance` (null when not given).
 */
export function runRows(study: string, scored: ScoredRun[], replicates: ScoredRun[], reproduced: Map<string, boolean> | null, replyProvenance?: (run: ScoredRun) => string[]): ExportTable {
  const snapshotHash = new Map<string, string | null>();
  for (const s of [...scored, ...replicates]) if (s.run.condition === 'one-pass') snapshotHash.set(`${s.run.taskId}|${s.run.replicate ?? ''}`, s.run.testHash);
  const rows = [...scored, ...replicates].map((s) => {
    const r = s.run.record;
    const base = snapshotHash.get(`${s.run.taskId}|${s.run.replicate ?? ''}`);
    return {
      study,
      task: s.run.taskId,
      condition: s.run.condition,
      replicate: s.run.replicate,
      present: !!r,
      model: r?.model ?? null,
      sample: r ? (r.sample ?? 1) : null,
      replayed: r ? r.replayed : null,
      reply_provenance: r && replyProvenance ? replyProvenance(s).join(';') || null : null,
      calls_used: r ? r.callsUsed : null,
      call_budget: r?.callBudget ?? null,
      stop_reason: r?.stopReason ?? null,
      test_passed: r ? r.testPassed : null,
      pytest_passed: r?.pytest?.counts.passed ?? null,
      pytest_failed: r?.pytest?.counts.failed ?? null,
      pytest_errored: r?.pytest?.counts.errored ?? null,
      pytest_collection_failed: r?.pytest?.counts.collectionFailed ?? null,
      pytest_total: r?.pytest?.counts.total ?? null,
      pytest_status: r?.pytest?.status ?? null,
      pfe: pfe(s.run) || null,
      execution_status: r?.execution?.status ?? null,
      executed: r ? r.execution?.status === 'ok' : null,
      output_rows: r?.execution?.rows ?? null,
      reference_agreement: r ? r.referenceAgreement : null,
      false_pass: r ? r.falsePass : null,
      primary_category: r?.comparison?.primaryCategory ?? null,
      categories: r?.comparison ? r.comparison.categories.join(';') : null,
      comparison_summary: r?.comparison?.summary ?? null,
      ladder_level: r?.comparison?.ladderLevel ?? null,
      tolerance_agreement: r?.comparison?.toleranceAgreement ?? null,
      deviations: r ? (r.deviations?.length ?? 0) : null,
      deviations_not_allowed: r ? (r.deviations?.filter((d) => !d.allowed).length ?? 0) : null,
      deviation_detail: r?.deviations?.length ? r.deviations.map((d) => `${d.artifact}:${d.change}${d.allowed ? '' : '(not allowed)'}`).join(';') : null,
      input_tokens: r?.usage?.inputTokens ?? null,
      output_tokens: r?.usage?.outputTokens ?? null,
      cost_usd: r?.costUsd ?? null,
      obligations: s.run.labels.length,
      plan_score: s.final?.plan ?? 0,
      code_score: s.final?.code ?? 0,
      test_score: s.final?.test ?? 0,
      auto_plan_score: s.automated?.plan ?? 0,
      auto_code_score: s.automated?.code ?? 0,
      auto_test_score: s.automated?.test ?? 0,
      sco: r ? s.sco : null,
      label_method: s.run.labelMethod,
      test_sha256: s.run.testHash,
      test_file_changed: s.run.condition === 'one-pass' || !base || !s.run.testHash ? null : base !== s.run.testHash,
      reproduced: reproduced ? (reproduced.get(s.run.taskId) ?? null) : null,
      condition_dir: s.run.conditionDir,
    };
  });
  return { name: 'runs', columns: RUN_COLUMNS, rows };
}

const LABEL_COLUMNS: [string, ColType][] = [
  ['study', 'string'], ['task', 'string'], ['condition', 'string'], ['replicate', 'string'], ['obligation', 'string'], ['class', 'string'], ['kind', 'string'],
  ['auto_plan', 'string'], ['auto_code', 'string'], ['auto_test', 'string'], ['auto_plan_source', 'string'], ['auto_code_source', 'string'], ['auto_test_source', 'string'],
  ['final_plan', 'string'], ['final_code', 'string'], ['final_test', 'string'], ['final_origin', 'string'],
  ['plan_weight', 'float'], ['code_weight', 'float'], ['test_weight', 'float'], ['sco', 'bool'], ['auto_sco', 'bool'],
  ['test_passed', 'bool'], ['reference_agreement', 'bool'], ['false_pass', 'bool'], ['evidence', 'string'],
];

/** labels: one row per obligation of every labelled run: automated and final labels side by side, weights of the final labels. */
export function labelRows(study: string, runs: LoadedRun[]): ExportTable {
  const rows = runs.flatMap((run) =>
    run.labels.map((l) => ({
      study,
      task: run.taskId,
      condition: run.condition,
      replicate: run.replicate,
      obligation: l.obligation.id,
      class: l.obligation.class,
      kind: l.obligation.kind,
      auto_plan: l.automated.plan,
      auto_code: l.automated.code,
      auto_test: l.automated.test,
      auto_plan_source: l.automated.source.plan,
      auto_code_source: l.automated.source.code,
      auto_test_source: l.automated.source.test,
      final_plan: l.final.plan,
      final_code: l.final.code,
      final_test: l.final.test,
      final_origin: l.final.origin,
      plan_weight: PLAN_WEIGHTS[l.final.plan],
      code_weight: CODE_WEIGHTS[l.final.code],
      test_weight: TEST_WEIGHTS[l.final.test],
      sco: isSCO(l.final),
      auto_sco: isSCO(l.automated),
      test_passed: !!run.record?.testPassed,
      reference_agreement: !!run.record?.referenceAgreement,
      false_pass: !!run.record?.falsePass,
      evidence: l.automated.evidence ?? null,
    })),
  );
  return { name: 'labels', columns: LABEL_COLUMNS, rows };
}

const SCORE_COLUMNS: [string, ColType][] = [
  ['study', 'string'], ['task', 'string'], ['condition', 'string'], ['present', 'bool'], ['obligations', 'int'],
  ['plan_score', 'float'], ['code_score', 'float'], ['test_score', 'float'], ['auto_plan_score', 'float'], ['auto_code_score', 'float'], ['auto_test_score', 'float'], ['sco', 'int'],
  ['plan_change_pp', 'float'], ['code_change_pp', 'float'], ['test_change_pp', 'float'],
  ['test_passed', 'bool'], ['executed', 'bool'], ['reference_agreement', 'bool'], ['false_pass', 'bool'], ['reproduced', 'bool'],
];

/**
 * scores: one row per assigned primary run (task × condition), scores from final labels
 * (0 for a missing run), and the paired change against the task's one-pass score in pp: null
 * for one-pass rows, and null when this run or its one-pass partner has no record (not a
 * paired task, as in Table IV: activities/scoring/analysis.ts pairedForBranch). Outcome
 * columns are null for a missing run.
 */
export function scoreRows(study: string, scored: ScoredRun[], reproduced: Map<string, boolean> | null): ExportTable {
  const onePass = new Map(scored.filter((s) => s.run.condition === 'one-pass').map((s) => [s.run.taskId, s.final]));
  const onePassRecorded = new Set(scored.filter((s) => s.run.condition === 'one-pass' && s.run.record).map((s) => s.run.taskId));
  const change = (s: ScoredRun, d: 'plan' | 'code' | 'test') => {
    if (s.run.condition === 'one-pass' || !s.run.record || !onePassRecorded.has(s.run.taskId)) return null;
    const c = ((s.final?.[d] ?? 0) - (onePass.get(s.run.taskId)?.[d] ?? 0)) * 100;
    return Math.abs(c) < 1e-9 ? 0 : c;
  };
  const rows = scored.map((s) => ({
    study,
    task: s.run.taskId,
    condition: s.run.condition as ConditionId,
    present: !!s.run.record,
    obligations: s.run.labels.length,
    plan_score: s.final?.plan ?? 0,
    code_score: s.final?.code ?? 0,
    test_score: s.final?.test ?? 0,
    auto_plan_score: s.automated?.plan ?? 0,
    auto_code_score: s.automated?.code ?? 0,
    auto_test_score: s.automated?.test ?? 0,
    sco: s.run.record ? s.sco : null,
    plan_change_pp: change(s, 'plan'),
    code_change_pp: change(s, 'code'),
    test_change_pp: change(s, 'test'),
    test_passed: s.run.record ? s.run.record.testPassed : null,
    executed: s.run.record ? s.run.record.execution?.status === 'ok' : null,
    reference_agreement: s.run.record ? s.run.record.referenceAgreement : null,
    false_pass: s.run.record ? s.run.record.falsePass : null,
    reproduced: reproduced ? (reproduced.get(s.run.taskId) ?? null) : null,
  }));
  return { name: 'scores', columns: SCORE_COLUMNS, rows };
}

const TRAJECTORY_COLUMNS: [string, ColType][] = [
  ['study', 'string'], ['task', 'string'], ['branch', 'string'], ['obligation', 'string'], ['trajectory', 'string'], ['assertions_changed', 'bool'], ['test_file_changed', 'bool'],
];

/** trajectories: one row per (revision branch, task, obligation). */
export function trajectoryRows(study: string, items: TrajectoryItem[]): ExportTable {
  return {
    name: 'trajectories',
    columns: TRAJECTORY_COLUMNS,
    rows: items.map((i) => ({ study, task: i.task, branch: i.branch, obligation: i.obligation, trajectory: i.trajectory, assertions_changed: i.assertionsChanged, test_file_changed: i.testFileChanged })),
  };
}

const MUTATION_COLUMNS: [string, ColType][] = [
  ['study', 'string'], ['task', 'string'], ['condition', 'string'], ['suite_sha', 'string'], ['valid_on_gold', 'bool'], ['mutant', 'string'], ['operator', 'string'], ['detected', 'bool'], ['killed', 'bool'], ['status', 'string'],
];

/**
 * mutation: one row per (frozen suite, non-equivalent mutant), from mutation.json's `suites`
 * (activities/mutation/study.ts); a suite without mutants gives one row with mutant "".
 * detected: the suite did not pass on the mutant (as observed); killed: detected and counted
 * (false throughout a suite invalid on gold, whose rows are kept with valid_on_gold false).
 */
export function mutationRows(study: string, json: unknown): ExportTable {
  const suites = (json && typeof json === 'object' && Array.isArray((json as { suites?: unknown }).suites) ? (json as { suites: unknown[] }).suites : []) as {
    task?: string; condition?: string; suiteSha?: string; validOnGold?: boolean; mutants?: { id: string; operator: string; detected?: boolean; killed: boolean; status: string }[];
  }[];
  const rows: Record<string, unknown>[] = [];
  for (const s of suites) {
    const base = { study, task: s.task ?? '', condition: s.condition ?? '', suite_sha: s.suiteSha ?? '', valid_on_gold: s.validOnGold ?? null };
    const ms = Array.isArray(s.mutants) ? s.mutants : [];
    if (ms.length === 0) rows.push({ ...base, mutant: '', operator: '', detected: null, killed: null, status: '' });
    // Older mutation.json files have only `killed`, as observed: detected = that, killed = counted.
    for (const m of ms) {
      // A mutant the suite was not run on (invalid on gold) has no observation: empty, not false.
      const detected = m.status === 'not-run' ? null : (m.detected ?? m.killed);
      rows.push({ ...base, mutant: m.id, operator: m.operator, detected, killed: m.status === 'not-run' ? null : detected && base.valid_on_gold !== false, status: m.status });
    }
  }
  return { name: 'mutation', columns: MUTATION_COLUMNS, rows };
}
