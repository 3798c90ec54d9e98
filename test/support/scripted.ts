/**
 * Scripted activities for workflow tests: a fake model that writes artifacts and fails loudly
 * when asked for a call it has no script for, and scripted pytest outcomes per task and
 * condition. The store activities are the real ones (under a temp LOCKIN_RUNS).
 */
import * as fs from 'fs';
import * as path from 'path';
import type { ComparisonOutcome, ExecutionOutcome, PytestOutcome, SmokeOutcome, StageRequest, StageResult } from '../../protocol/types';
import type { DifferentialOutcome } from '../../protocol/records';

export interface Script {
  /** pytest pass/fail per run index (initial, after revision 1, after revision 2) for each task and condition. */
  pytest: Record<string, Partial<Record<'one-pass' | 'test-guided' | 'plan-audit' | 'contract-first', boolean[]>>>;
  /** Contract-First: the revision stages whose reply also returns a changed contract_test.py, per task. */
  editsContract?: Record<string, string[]>;
  /** Whether C-4 reports an actionable gap, per task. */
  actionable: Record<string, boolean>;
  /** Reference agreement per task (evaluation). */
  agree?: Record<string, boolean>;
  /** Per task: the candidate's verdicts on the variant databases (differential execution); absent: none built. */
  differential?: Record<string, DifferentialOutcome>;
  /** Ask the judge after every evaluation (judgeRequest returns a 'judge' call); default: no judge. */
  judge?: boolean;
}

export interface ScriptedLog {
  /** Every call the fake backend answered, by request key (task/condition/stage/replicate). */
  modelCalls: string[];
  pytestRuns: string[];
  /** Every request as the workflow made it, by the same key. */
  requests: Record<string, StageRequest>;
  /** Every activity of the evaluation in order, "<task>/<condition> <activity>[ <detail>]". */
  evaluation: string[];
}

function runIndex(label: string): number {
  const m = /(\d+)$/.exec(label);
  return label === 'initial' ? 0 : m ? Number(m[1]) : 0;
}

function conditionOf(dir: string): { taskId: string; condition: string } {
  const parts = dir.split(path.sep);
  const condition = parts[parts.length - 1];
  let taskIdx = parts.lastIndexOf('tasks') + 1;
  return { taskId: parts[taskIdx], condition };
}

/** Builds the scripted activity set and the log it fills. */
export function scriptedActivities(script: Script): { activities: Record<string, (...a: any[]) => Promise<unknown>>; log: ScriptedLog } {
  const log: ScriptedLog = { modelCalls: [], pytestRuns: [], requests: {}, evaluation: [] };
  const callModel = async (req: StageRequest): Promise<StageResult> => {
    const key = `${req.taskId}/${req.condition}/${req.stage}${req.replicate ? `@${req.replicate}` : ''}`;
    log.modelCalls.push(key);
    log.requests[key] = req;
    const callsDir = path.join(req.workDir, 'calls');
    fs.mkdirSync(callsDir, { recursive: true });
    const callFile = path.join(callsDir, `${String(req.callIndex).padStart(2, '0')}-${req.stage}.json`);
    let json: unknown;
    const artifacts: Record<string, string> = {};
    const write = (files: Record<string, string>) => {
      for (const [name, body] of Object.entries(files)) {
        const f = path.join(req.workDir, name);
        if (fs.existsSync(f)) fs.rmSync(f, { force: true });
        fs.writeFileSync(f, body);
        artifacts[name] = 'x';
      }
    };
    if (req.stage === 'c0-contract') {
      write({ 'contract_test.py': `def test_contract():\n    """Requirement: the task's output."""\n    assert True  # C-0 of ${req.taskId}\n` });
    } else if (req.stage === 'cf-revise-1' || req.stage === 'cf-revise-2') {
      const files: Record<string, string> = { 'solution.py': `def solve(spark, tables):\n    return tables['item']  # ${req.stage}\n` };
      if (script.editsContract?.[req.taskId]?.includes(req.stage)) files['contract_test.py'] = `def test_contract():\n    pass  # weakened by ${req.stage}\n`;
      write(files);
    } else if (req.stage === 'generate' || req.stage.includes('revise')) {
      const files: Record<string, string> = {
        'solution.py': `def solve(spark, tables):\n    return tables['item']  # ${req.stage}\n`,
        'test_solution.py': `def test_ok():\n    assert True  # ${req.stage}\n`,
      };
      if (req.stage === 'generate' || req.stage.startsWith('c5')) files['plan.md'] = `# plan (${req.stage})\n`;
      for (const [name, body] of Object.entries(files)) {
        const f = path.join(req.workDir, name);
        if (fs.existsSync(f)) fs.chmodSync(f, 0o644);
        fs.writeFileSync(f, body);
        artifacts[name] = 'x';
      }
    } else if (req.stage === 'c4-recommend') {
      const actionable = script.actionable[req.taskId];
      if (actionable === undefined) throw new Error(`scripted model: no C-4 script for ${req.taskId}`);
      json = { actionable, repairs: actionable ? [{ id: 'A1', artifact: 'solution.py', action: 'fix the join' }] : [] };
    } else {
      json = {};
    }
    fs.writeFileSync(callFile, JSON.stringify({ stage: req.stage, key, json }));
    return { stage: req.stage, callFile, ok: true, artifacts, json, cacheHit: false, backend: 'scripted', usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, durationMs: 1 };
  };
  const runPytest = async (req: { dir: string; outDir: string; runLabel: string; suite?: string }): Promise<PytestOutcome> => {
    const { taskId, condition } = conditionOf(req.dir);
    // Contract-First's own suite always passes here: it is recorded, never feedback.
    const own = condition === 'contract-first' && req.suite !== 'contract_test.py';
    const seq = own ? [true, true, true] : script.pytest[taskId]?.[condition as 'one-pass'];
    const i = runIndex(req.runLabel);
    if (!seq || seq[i] === undefined) throw new Error(`scripted pytest: no outcome for ${taskId}/${condition} run ${i} (${req.runLabel})`);
    log.pytestRuns.push(`${taskId}/${condition}/${req.runLabel}`);
    fs.mkdirSync(req.outDir, { recursive: true });
    const failuresFile = path.join(req.outDir, 'failures.txt');
    fs.writeFileSync(failuresFile, seq[i] ? '' : 'test_ok failed: assert False');
    const passed = seq[i];
    return { passed, exitCode: passed ? 0 : 1, counts: { passed: passed ? 1 : 0, failed: passed ? 0 : 1, errored: 0, collectionFailed: 0, skipped: 0, total: 1 }, status: 'completed', failuresFile, durationMs: 1 };
  };
  const smokeCheck = async (): Promise<SmokeOutcome> => ({ ok: true, durationMs: 1 });
  const executeCandidate = async (req: { outDir: string }): Promise<ExecutionOutcome> => {
    fs.mkdirSync(req.outDir, { recursive: true });
    return { status: 'ok', rows: 1, isolation: 'scripted', durationMs: 1, outputFile: path.join(req.outDir, 'output.arrow'), schemaFile: path.join(req.outDir, 'schema.json') };
  };
  const evaluateRun = async (req: { taskId: string; condition: string; labels?: boolean }): Promise<ComparisonOutcome> => {
    log.evaluation.push(`${req.taskId}/${req.condition} evaluateRun labels=${req.labels ?? true}`);
    const agree = script.agree?.[req.taskId] ?? false;
    return agree ? { agree, categories: [], summary: 'agrees' } : { agree, categories: ['values'], primaryCategory: 'values', summary: 'values differ' };
  };
  const executeOnVariants = async (req: { taskId: string }): Promise<DifferentialOutcome> => script.differential?.[req.taskId] ?? { databases: [] };
  const labelByExecution = async (req: { conditionDir: string }) => ({ file: path.join(req.conditionDir, 'executable-labels.json'), code: 0, test: 0, suitePassesGold: false });
  const judgeRequest = async (req: { studyId: string; taskId: string; condition: string; conditionDir: string; model?: string; params?: StageRequest['params']; comparison: ComparisonOutcome }): Promise<StageRequest | null> => {
    log.evaluation.push(`${req.taskId}/${req.condition} judgeRequest agree=${req.comparison.agree}`);
    if (!script.judge) return null;
    return { studyId: req.studyId, taskId: req.taskId, condition: req.condition as StageRequest['condition'], stage: 'judge', workDir: req.conditionDir, callIndex: 90, model: req.model ?? 'scripted', params: req.params!, inputs: {} };
  };
  const labelRun = async (req: { taskId: string; condition: string; judged: StageResult | null }) => {
    log.evaluation.push(`${req.taskId}/${req.condition} labelRun judged=${req.judged ? `${req.judged.stage}:${req.judged.backend}` : 'none'}`);
    return { method: req.judged ? ('judge' as const) : ('heuristic' as const), obligations: 0 };
  };
  return { activities: { callModel, runPytest, smokeCheck, executeCandidate, executeOnVariants, evaluateRun, labelByExecution, judgeRequest, labelRun }, log };
}
