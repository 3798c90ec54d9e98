/**
 * What each stage may see (docs/protocol.md §2–3), gathered from disk into template variables.
 * This module is the single place that decides a stage's inputs:
 *
 * | stage            | template      | sees                                                                     |
 * |------------------|---------------|--------------------------------------------------------------------------|
 * | generate         | generate      | task prompt + input schemas (+ spark fixture, reply protocol)            |
 * | revise-N         | revise        | task + schemas + current artifacts + pytest failures + permissions      |
 * | c1-extract       | c1-extract    | task prompt                                                              |
 * | c2-assess        | c2-assess     | task prompt + prior structured outputs                                  |
 * | c2_5-ground      | c2_5-ground   | task prompt + prior outputs + schema metadata (names, types, nullability)|
 * | c3-audit         | c3-audit      | task prompt + prior outputs + the one-pass artifacts (workDir)           |
 * | c4-recommend     | c4-recommend  | task prompt + prior outputs                                              |
 * | c5-revise-N      | c5-revise     | task + schemas + C-4 feedback + pytest failures + current artifacts      |
 * | c0-contract      | c0-contract   | task prompt + input schemas only: never a candidate artifact             |
 * | cf-revise-N      | cf-revise     | task + schemas + current artifacts + contract suite failures            |
 * | judge            | judge         | task + schemas + obligations and execution evidence + frozen artifacts (+ contract_test.py for Contract-First) |
 *
 * "Prior structured outputs" are the validated JSON of the calls listed in req.inputs.priorCalls
 * (calls/NN-<stage>.json files of the same condition); nothing else of the directory is read.
 */
import * as fs from 'fs';
import { clipBytes } from '../common/bytes';
import * as path from 'path';
import { InputError } from '../common/errors';
import { tasksRoot } from '../common/paths';
import type { StageRequest } from '../../protocol/types';
import { TaskLoadError, parseYamlWith } from '../tasks/load';
import { ARTIFACTS, TaskSpec } from '../../protocol/corpus';
import { renderArtifacts, taskVars } from './prompts';
import type { Stage } from '../../protocol/stages';
import { CONTRACT_SUITE, scoredSuite } from '../../protocol/conditions';

/** The template that renders each stage. */
export function templateFor(stage: Stage): string {
  if (stage === 'revise-1' || stage === 'revise-2') return 'revise';
  if (stage === 'c5-revise-1' || stage === 'c5-revise-2') return 'c5-revise';
  if (stage === 'cf-revise-1' || stage === 'cf-revise-2') return 'cf-revise';
  return stage;
}

/**
 * Loads `<tasksRoot>/<taskId>/task.yaml` (LOCKIN_TASKS overrides the root).
 * @throws TaskLoadError naming the file and field of every problem.
 */
export function loadTaskSpec(taskId: string): TaskSpec {
  const file = path.join(tasksRoot(), taskId, 'task.yaml');
  if (!fs.existsSync(file)) throw new TaskLoadError([{ file, field: '', message: 'file missing' }]);
  const res = parseYamlWith(file, fs.readFileSync(file, 'utf8'), TaskSpec);
  if (!res.value) throw new TaskLoadError(res.problems);
  if (res.value.id !== taskId) throw new TaskLoadError([{ file, field: 'id', message: `is ${res.value.id}, expected ${taskId}` }]);
  return res.value;
}

function readArtifacts(workDir: string): { name: string; content: string | null }[] {
  return ARTIFACTS.map((name) => {
    const p = path.join(workDir, name);
    return { name, content: fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : null };
  });
}

/** The most feedback (pytest failures, judge evidence) a prompt carries, in UTF-8 bytes. */
export const FEEDBACK_MAX_BYTES = 32 * 1024;

/**
 * The feedback text of a revision or judge prompt, fenced: the file's first FEEDBACK_MAX_BYTES
 * bytes (cut on a character boundary, with a note giving the file's size), triple backticks
 * replaced so the fence holds. `(no <what>)` without a file, `(<what> file is empty)` for an
 * empty one. Throws InputError (field inputs.feedbackFile) when the file does not exist.
 */
export function readFeedback(file: string | undefined, what: string): string {
  if (!file) return `(no ${what})`;
  if (!fs.existsSync(file)) throw new InputError(`${what} file does not exist`, file, 'inputs.feedbackFile');
  // Read at most the cap: a candidate's 1 GiB print never reaches memory or the prompt.
  const fd = fs.openSync(file, 'r');
  const head = Buffer.alloc(FEEDBACK_MAX_BYTES + 1);
  const n = fs.readSync(fd, head, 0, head.length, 0);
  const size = fs.fstatSync(fd).size;
  fs.closeSync(fd);
  const raw = head.subarray(0, n).toString('utf8');
  const text = (size > FEEDBACK_MAX_BYTES ? `${clipBytes(raw, FEEDBACK_MAX_BYTES).replace(/\[\d+ more bytes cut\]$/, `[cut: the file has ${size} bytes, the prompt carries at most ${FEEDBACK_MAX_BYTES}]`)}` : raw).trim();
  return text ? '```text\n' + text.replace(/```/g, "'''") + '\n```' : `(${what} file is empty)`;
}

/** Reads the validated JSON of prior calls; a call that broke the protocol is shown as such. */
function readPriorOutputs(files: string[] | undefined, only?: Stage[]): string {
  const parts: string[] = [];
  for (const file of files ?? []) {
    if (!fs.existsSync(file)) throw new InputError('prior call file does not exist', file, 'inputs.priorCalls');
    let call: { stage?: string; ok?: boolean; parsed?: { json?: unknown }; protocolError?: string };
    try {
      call = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      throw new InputError(`not a call file: ${(e as Error).message}`, file, 'inputs.priorCalls');
    }
    if (!call.stage) throw new InputError('not a call file (no stage)', file, 'stage');
    if (only && !only.includes(call.stage as Stage)) continue;
    const body = call.ok && call.parsed?.json !== undefined ? '```json\n' + JSON.stringify(call.parsed.json, null, 2) + '\n```' : `(this stage's reply broke the protocol: ${call.protocolError ?? 'no output'})`;
    parts.push(`### ${call.stage}\n${body}`);
  }
  return parts.length ? parts.join('\n\n') : '(none)';
}

/**
 * The template name and variables for a stage request.
 * @throws TaskLoadError / InputError naming the file and field of a missing or malformed input.
 */
export function stageVars(req: StageRequest, task: TaskSpec): { template: string; vars: Record<string, string> } {
  const base = taskVars(task);
  const stage = req.stage;
  const revision = /-(\d)$/.exec(stage)?.[1] ?? '';
  const artifacts = () => renderArtifacts(readArtifacts(req.workDir));
  switch (stage) {
    case 'generate':
      return { template: 'generate', vars: base };
    case 'revise-1':
    case 'revise-2':
      return { template: 'revise', vars: { ...base, revision, artifacts: artifacts(), feedback: readFeedback(req.inputs.feedbackFile, 'pytest failures') } };
    case 'c1-extract':
      return { template: stage, vars: base };
    case 'c2-assess':
    case 'c2_5-ground':
    case 'c4-recommend':
      return { template: stage, vars: { ...base, priorOutputs: readPriorOutputs(req.inputs.priorCalls) } };
    case 'c3-audit':
      return { template: stage, vars: { ...base, priorOutputs: readPriorOutputs(req.inputs.priorCalls), artifacts: artifacts() } };
    case 'c5-revise-1':
    case 'c5-revise-2':
      return {
        template: 'c5-revise',
        vars: {
          ...base,
          revision,
          priorOutputs: readPriorOutputs(req.inputs.priorCalls, ['c4-recommend']),
          feedback: readFeedback(req.inputs.feedbackFile, 'pytest failures'),
          artifacts: artifacts(),
        },
      };
    case 'c0-contract':
      // Contract-First C-0 (docs/protocol.md §2): the task and its schemas, nothing of workDir.
      return { template: 'c0-contract', vars: base };
    case 'cf-revise-1':
    case 'cf-revise-2':
      return { template: 'cf-revise', vars: { ...base, revision, artifacts: artifacts(), feedback: readFeedback(req.inputs.feedbackFile, 'contract suite failures') } };
    case 'judge': {
      // The test label is about the run's scored suite: Contract-First's frozen contract_test.py
      // (docs/protocol.md §2, protocol/conditions.ts scoredSuite), shown with the artifacts.
      const suite = req.condition === 'shared' ? 'test_solution.py' : scoredSuite(req.condition);
      const files = readArtifacts(req.workDir);
      if (suite === CONTRACT_SUITE) files.push({ name: CONTRACT_SUITE, content: fs.existsSync(path.join(req.workDir, CONTRACT_SUITE)) ? fs.readFileSync(path.join(req.workDir, CONTRACT_SUITE), 'utf8') : null });
      return { template: 'judge', vars: { ...base, scoredSuite: suite, feedback: readFeedback(req.inputs.feedbackFile, 'obligations and execution evidence'), artifacts: renderArtifacts(files) } };
    }
    default:
      throw new InputError(`unknown stage ${String(stage)}`, undefined, 'stage');
  }
}
