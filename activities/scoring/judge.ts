/**
 * Obtaining a model-judge reply (stage 'judge') for one run, replayable:
 * - model `replay:<corpus>`: the reply is `replay/<corpus>/<task>/judge/<condition>.md`
 *   (or `<corpus>/<task>/judge/<condition>.md` when <corpus> is a path). When that file does
 *   not exist there is no judge reply and the caller falls back to the heuristic.
 * - any other model: the gateway's `callModel` (activities/model/gateway.ts) is called with a
 *   'judge' StageRequest whose `inputs.feedbackFile` is `<conditionDir>/judge-input.json`
 *   (obligations + execution evidence).
 * The gateway is loaded lazily so that scoring builds and runs without it (replay files are
 * then parsed directly: one ```json block validated by JudgeReply).
 */
import * as fs from 'fs';
import * as path from 'path';
import { JudgeReply } from '../../protocol/stages';
import { replayCorpusDir, REPO_ROOT } from '../common/paths';
import { readCorpusFile } from '../model/backends/replay';
import { InputError } from '../common/errors';
import type { ModelParams, StageRequest, StageResult } from '../../protocol/types';
import { parseReplayText } from '../model/backends/replay';
import type { JudgeLabel } from './autoLabels';
import type { ComparisonOutcome, ExecutionOutcome } from '../../protocol/types';
import type { Obligation } from '../../protocol/corpus';
import type { OutputField } from '../obligations/schemaRules';
import { tryParseModelSpec } from '../../protocol/model';
import type { RunIdentity } from '../../protocol/run';

/**
 * Path of the judge reply in a replay corpus, or null when `model` is not a replay spec.
 * The corpus resolves as every replay corpus does (activities/common/paths.ts replayCorpusDir): absolute as is; with a '/' relative to
 * the repo root; else under replay/. A targeted replication reads `<task>/replicate-<r>/judge/`;
 * sample k ≥ 2 reads `<condition>.s<k>.md`, or the sample-1 file in a corpus whose corpus.json
 * declares samples "repeat" (activities/model/backends/replay.ts).
 */
export function replayJudgeFile(model: string, taskId: string, condition: string, replicate?: string, sample?: number): string | null {
  const spec = tryParseModelSpec(model);
  if (spec?.provider !== 'replay') return null;
  const root = replayCorpusDir(spec.model);
  const base = replicate ? path.join(root, taskId, `replicate-${replicate}`) : path.join(root, taskId);
  const own = path.join(base, 'judge', sample && sample > 1 ? `${condition}.s${sample}.md` : `${condition}.md`);
  if (sample && sample > 1 && !fs.existsSync(own) && readCorpusFile(root).samples === 'repeat') return path.join(base, 'judge', `${condition}.md`);
  return own;
}

/**
 * Parses a judge reply in Markdown: exactly one fenced ```json block validated by JudgeReply.
 * @throws InputError naming the file when the block is missing or invalid.
 */
export function parseJudgeMarkdown(text: string, file: string): JudgeLabel[] {
  const blocks = [...text.matchAll(/```json[^\n]*\n([\s\S]*?)```/g)];
  if (blocks.length !== 1) throw new InputError(`expected exactly one \`\`\`json block, found ${blocks.length}`, file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(blocks[0][1]);
  } catch (e) {
    throw new InputError(`json block does not parse: ${(e as Error).message}`, file);
  }
  const out = JudgeReply.safeParse(parsed);
  if (!out.success) throw new InputError(`not a judge reply: ${out.error.message}`, file, 'labels');
  return out.data.labels;
}

type CallModel = (req: StageRequest) => Promise<StageResult>;

/**
 * What the judge is shown of one run (docs/protocol.md §5, the judge rubric's inputs): the task's
 * obligations (id, statement, kind, class), the execution's status, reason, row count and output
 * schema, and the comparison's verdict, categories and summary. Never the reference rows. Pure.
 */
export function judgeEvidence(obligations: Obligation[], execution: ExecutionOutcome | null | undefined, outputSchema: OutputField[] | null, comparison: ComparisonOutcome | null | undefined): unknown {
  return {
    obligations: obligations.map((o) => ({ id: o.id, statement: o.statement, kind: o.kind, class: o.class })),
    execution: { status: execution?.status ?? 'not-run', reason: execution?.reason, rows: execution?.rows, schema: outputSchema },
    comparison: comparison ? { agree: comparison.agree, categories: comparison.categories, summary: comparison.summary } : null,
  };
}

/**
 * The judge call of one run as a StageRequest for the gateway's `callModel` activity, scheduled by
 * the workflow on the model queue (so it is in the history, cached, in the ledger and under the
 * queue's rate limits): writes `<conditionDir>/judge-input.json` (the evidence) and returns the
 * request, or null when there is no judge reply to get (a replay corpus without the file: the
 * labels then fall back to the heuristic, said in labels.json).
 */
export function judgeStageRequest(req: JudgeRequest): StageRequest | null {
  const replayFile = replayJudgeFile(req.model, req.taskId, req.condition, req.replicate, req.sample);
  if (replayFile && !fs.existsSync(replayFile)) return null;
  const evidenceFile = path.join(req.conditionDir, 'judge-input.json');
  fs.writeFileSync(evidenceFile, JSON.stringify(req.evidence, null, 2));
  return {
    studyId: req.studyId,
    taskId: req.taskId,
    condition: req.condition,
    stage: 'judge',
    workDir: req.conditionDir,
    callIndex: req.callIndex ?? 90,
    model: req.model,
    params: req.params,
    inputs: { feedbackFile: evidenceFile },
    ...(req.replicate ? { replicate: req.replicate } : {}),
    ...(req.sample && req.sample > 1 ? { sample: req.sample } : {}),
  };
}

/** The judge labels in a judge call's result (null labels with the reason when the reply is unusable). Pure. */
export function judgeFromResult(res: StageResult): { labels: JudgeLabel[] | null; callFile?: string; error?: string } {
  if (!res.ok) return { labels: null, callFile: res.callFile, error: `judge reply broke the protocol: ${res.protocolError ?? ''}` };
  const out = JudgeReply.safeParse(res.json);
  if (!out.success) return { labels: null, callFile: res.callFile, error: `judge reply invalid: ${out.error.message}` };
  return { labels: out.data.labels, callFile: res.callFile };
}

/** The gateway's callModel when activities/model/gateway.ts exists and exports it, else null. */
function loadGateway(): CallModel | null {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const gw = require('../model/gateway') as { callModel?: unknown };
    return typeof gw.callModel === 'function' ? (gw.callModel as CallModel) : null;
  } catch {
    return null;
  }
}

/** The judge call of one run (RunIdentity) and what the judge is shown. */
export interface JudgeRequest extends RunIdentity {
  conditionDir: string;
  model: string;
  params: ModelParams;
  /** Evidence shown to the judge (obligations, execution status, output schema, comparison summary). */
  evidence: unknown;
  /** calls/NN-judge.json index (default 90: after every protocol call, outside the budgets). */
  callIndex?: number;
}

/**
 * Returns the judge labels for one run and how they were obtained, or labels = null when no
 * judge reply is available (replay corpus without the file, or no gateway for a live model).
 * A gateway failure is reported in `error` (the caller falls back to the heuristic).
 */
export async function obtainJudge(req: JudgeRequest): Promise<{ labels: JudgeLabel[] | null; callFile?: string; error?: string }> {
  const replayFile = replayJudgeFile(req.model, req.taskId, req.condition, req.replicate, req.sample);
  if (replayFile && !fs.existsSync(replayFile)) return { labels: null };
  const gateway = loadGateway();
  if (!gateway) {
    if (replayFile) return { labels: parseJudgeMarkdown(parseReplayText(fs.readFileSync(replayFile, 'utf8'), replayFile).text, replayFile), callFile: replayFile };
    return { labels: null, error: 'no model gateway available (activities/model/gateway.ts callModel)' };
  }
  const request = judgeStageRequest(req)!;
  try {
    return judgeFromResult(await gateway(request));
  } catch (e) {
    return { labels: null, error: `judge call failed: ${(e as Error).message}` };
  }
}
