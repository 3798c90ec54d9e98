/**
 * The rules of one claude-code agent session (activities/model/backends/claudeCode.ts): which
 * files its folder starts with, which of them it may write, which tools it has, its limits, and
 * the decision on each tool use. The paper's controls were procedural ("These controls are
 * procedural; operating-system enforcement and access compliance were not verified"); here every
 * tool use passes `decideToolUse` before Claude Code runs it, and a refusal is recorded.
 *
 * What the folder holds (docs/protocol.md §2–3; the same inputs as the stage's prompt,
 * activities/model/stageInputs.ts):
 *
 * | stage        | folder                                                                 | may write                          | run_pytest |
 * |--------------|------------------------------------------------------------------------|------------------------------------|-----------|
 * | generate     | task.yaml                                                              | plan.md, solution.py, test_solution.py | no (Frozen One-Pass: tests run without revision) |
 * | revise-N     | task.yaml, plan.md, solution.py, test_solution.py, pytest_failures.md  | solution.py, test_solution.py (plan.md frozen) | yes |
 * | c1-extract   | task.yaml without column lists                                         | nothing                            | no |
 * | c2-assess, c4-recommend | the same + prior/NN-<stage>.json (prior structured outputs) | nothing                            | no |
 * | c2_5-ground  | task.yaml + prior/…                                                    | nothing                            | no |
 * | c3-audit     | task.yaml without column lists + prior/… + the three artifacts         | nothing                            | no |
 * | c5-revise-N  | task.yaml, the three artifacts, prior/NN-c4-recommend.json, pytest_failures.md | plan.md, solution.py, test_solution.py | yes |
 * | c0-contract  | task.yaml (never a candidate artifact)                                 | contract_test.py                   | no |
 * | cf-revise-N  | task.yaml, the three artifacts, contract_failures.md                   | solution.py (the contract and the other artifacts frozen) | no (its feedback is the contract suite's) |
 * | judge        | task.yaml, the frozen artifacts (+ contract_test.py), judge_evidence.json | nothing                         | no |
 *
 * task.yaml is the corpus file as written (the task prompt and its input schemas) where the stage
 * sees input schemas, and the same fields with the tables' names only where it does not (C-1 to
 * C-4 see the task prompt, C-2.5 adds schema metadata). Never in a folder: references, gold, SQL,
 * obligations, labels, other conditions' folders (the preflight checks the request, which holds
 * every file, before the session starts).
 */
import * as fs from 'fs';
import * as path from 'path';
import { stringify as yamlStringify } from 'yaml';
import { InputError } from '../../common/errors';
import { tasksRoot } from '../../common/paths';
import type { StageRequest } from '../../../protocol/types';
import type { TaskSpec } from '../../../protocol/corpus';
import { ARTIFACTS } from '../../../protocol/corpus';
import { CONTRACT_SUITE, scoredSuite } from '../../../protocol/conditions';
import type { Stage } from '../../../protocol/stages';
import type { RefusedToolUse } from './types';
import { FEEDBACK_MAX_BYTES } from '../stageInputs';
import { clipBytes } from '../../common/bytes';

/** Claude Code's file tools a session has. */
export const FILE_TOOLS = ['Read', 'Write', 'Edit'] as const;
/** lockin's pytest tool, as Claude Code names an in-process MCP server's tool. */
export const PYTEST_TOOL = 'mcp__lockin__run_pytest';
/** Tools that change a file (each names it in `file_path`). */
const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** The stages whose prompt shows input schemas (task.yaml whole); the others see table names only. */
const SCHEMA_STAGES: readonly Stage[] = ['generate', 'revise-1', 'revise-2', 'c2_5-ground', 'c5-revise-1', 'c5-revise-2', 'c0-contract', 'cf-revise-1', 'cf-revise-2', 'judge'];

/** What a session starts with and may do. */
export interface SessionPlan {
  /** The folder's files at the start: name (relative, '/' separated) → content. */
  files: Record<string, string>;
  /** Files the session may create or change (top-level names). */
  writable: string[];
  /** Whether the run_pytest tool is offered. */
  pytest: boolean;
}

/** The limits of one session. */
export interface SessionLimits {
  maxTurns: number;
  sessionTokens: number;
  timeoutMs: number;
  /** `pytest=off` in the spec withdraws the run_pytest tool from every stage. */
  pytest: boolean;
}

/** Default limits: 40 turns, 2,000,000 tokens, 12 minutes (under the model call's 15-minute activity limit, workflows/options.ts MODEL_CALL). */
export const DEFAULT_LIMITS: SessionLimits = { maxTurns: 40, sessionTokens: 2_000_000, timeoutMs: 12 * 60_000, pytest: true };

/**
 * The session limits from the spec's options (`claude-code:<id>?maxTurns=20&sessionTokens=500000&pytest=off`)
 * and LOCKIN_AGENT_SESSION_TIMEOUT_MS (the wall clock, at most 14 minutes).
 * @throws InputError naming the option (field `model`) for a value that is not a positive integer,
 *   `pytest` other than on/off, or an unknown option.
 */
export function sessionLimits(params: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv = process.env): SessionLimits {
  const out = { ...DEFAULT_LIMITS };
  for (const [name, value] of Object.entries(params)) {
    if (name === 'maxTurns' || name === 'sessionTokens') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1) throw new InputError(`claude-code option ${name}=${value}: a positive integer is needed`, undefined, 'model');
      out[name] = n;
    } else if (name === 'pytest') {
      if (value !== 'on' && value !== 'off') throw new InputError(`claude-code option pytest=${value}: on or off`, undefined, 'model');
      out.pytest = value === 'on';
    } else throw new InputError(`claude-code has no option "${name}" (maxTurns, sessionTokens, pytest)`, undefined, 'model');
  }
  const t = env.LOCKIN_AGENT_SESSION_TIMEOUT_MS;
  if (t !== undefined && t !== '') {
    const n = Number(t);
    if (!Number.isInteger(n) || n < 1000 || n > 14 * 60_000) throw new InputError(`LOCKIN_AGENT_SESSION_TIMEOUT_MS=${t}: milliseconds between 1000 and 840000 (the model call's activity allows 15 minutes)`, undefined, 'LOCKIN_AGENT_SESSION_TIMEOUT_MS');
    out.timeoutMs = n;
  }
  return out;
}

/** Which files a stage may write, and whether it may run pytest (the table in this file's header). Pure. */
export function stagePermissions(stage: Stage): { writable: string[]; pytest: boolean } {
  switch (stage) {
    case 'generate':
    case 'c5-revise-1':
    case 'c5-revise-2':
      return { writable: [...ARTIFACTS], pytest: stage !== 'generate' };
    case 'revise-1':
    case 'revise-2':
      return { writable: ['solution.py', 'test_solution.py'], pytest: true };
    case 'c0-contract':
      return { writable: [CONTRACT_SUITE], pytest: false };
    case 'cf-revise-1':
    case 'cf-revise-2':
      return { writable: ['solution.py'], pytest: false };
    default:
      return { writable: [], pytest: false };
  }
}

/** A feedback file's text as the folder holds it: its first FEEDBACK_MAX_BYTES bytes (the prompt's cap). */
function feedbackText(file: string | undefined, what: string): string {
  if (!file) return `(no ${what})\n`;
  if (!fs.existsSync(file)) throw new InputError(`${what} file does not exist`, file, 'inputs.feedbackFile');
  const raw = fs.readFileSync(file, 'utf8');
  return Buffer.byteLength(raw) > FEEDBACK_MAX_BYTES ? clipBytes(raw, FEEDBACK_MAX_BYTES) : raw;
}

/** The validated JSON of prior calls (PlanAudit), one file each: `prior/NN-<stage>.json`. */
function priorFiles(files: string[] | undefined, only?: Stage[]): Record<string, string> {
  const out: Record<string, string> = {};
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
    const body = call.ok && call.parsed?.json !== undefined ? call.parsed.json : { protocolError: call.protocolError ?? 'no output' };
    out[`prior/${path.basename(file)}`] = JSON.stringify(body, null, 2) + '\n';
  }
  return out;
}

/** task.yaml for a stage: the corpus file as written, or (stages without schemas) its fields with table names only. */
function taskYaml(task: TaskSpec, stage: Stage): string {
  if (SCHEMA_STAGES.includes(stage)) {
    const file = path.join(tasksRoot(), task.id, 'task.yaml');
    return fs.readFileSync(file, 'utf8');
  }
  return yamlStringify({ ...task, tables: task.tables.map((t) => ({ name: t.name })) });
}

/**
 * The session plan of a stage request: the folder's files and the permissions (this file's header).
 * Reads the task's task.yaml, the condition's artifacts (workDir) and the request's feedback and
 * prior calls. @throws InputError naming the file and field of a missing input.
 */
export function sessionPlan(req: StageRequest, task: TaskSpec): SessionPlan {
  const stage = req.stage;
  const files: Record<string, string> = { 'task.yaml': taskYaml(task, stage) };
  const artifacts = (names: readonly string[]) => {
    for (const name of names) {
      const p = path.join(req.workDir, name);
      if (fs.existsSync(p)) files[name] = fs.readFileSync(p, 'utf8');
    }
  };
  switch (stage) {
    case 'generate':
    case 'c0-contract':
    case 'c1-extract':
      break;
    case 'revise-1':
    case 'revise-2':
      artifacts(ARTIFACTS);
      files['pytest_failures.md'] = feedbackText(req.inputs.feedbackFile, 'pytest failures');
      break;
    case 'c2-assess':
    case 'c2_5-ground':
    case 'c4-recommend':
      Object.assign(files, priorFiles(req.inputs.priorCalls));
      break;
    case 'c3-audit':
      Object.assign(files, priorFiles(req.inputs.priorCalls));
      artifacts(ARTIFACTS);
      break;
    case 'c5-revise-1':
    case 'c5-revise-2':
      artifacts(ARTIFACTS);
      Object.assign(files, priorFiles(req.inputs.priorCalls, ['c4-recommend']));
      files['pytest_failures.md'] = feedbackText(req.inputs.feedbackFile, 'pytest failures');
      break;
    case 'cf-revise-1':
    case 'cf-revise-2':
      artifacts(ARTIFACTS);
      files['contract_failures.md'] = feedbackText(req.inputs.feedbackFile, 'contract suite failures');
      break;
    case 'judge': {
      artifacts(ARTIFACTS);
      if (req.condition !== 'shared' && scoredSuite(req.condition) === CONTRACT_SUITE) artifacts([CONTRACT_SUITE]);
      files['judge_evidence.json'] = feedbackText(req.inputs.feedbackFile, 'obligations and execution evidence');
      break;
    }
    default:
      throw new InputError(`unknown stage ${String(stage)}`, undefined, 'stage');
  }
  return { files, ...stagePermissions(stage) };
}

/** A tool use's decision: allowed, or refused with the record of why. */
export type ToolDecision = { allow: true } | { allow: false; refusal: Omit<RefusedToolUse, 'turn'> };

/** The path a file tool names (Read, Write, Edit: `file_path`; NotebookEdit: `notebook_path`), or null. */
function namedPath(input: Record<string, unknown>): string | null {
  const p = input.file_path ?? input.notebook_path ?? input.path;
  return typeof p === 'string' ? p : null;
}

/**
 * Whether `target` (absolute, or relative to the folder) is inside `folder` once '..' and
 * symbolic links are resolved (the deepest existing ancestor is resolved with realpath). Reads
 * the file system for links only.
 */
export function insideFolder(folder: string, target: string): { inside: boolean; rel: string } {
  const root = fs.realpathSync(folder);
  let abs = path.resolve(root, target);
  // Resolve links in the part that exists (a link inside the folder to a file outside is outside).
  let head = abs;
  const tail: string[] = [];
  while (!fs.existsSync(head) && path.dirname(head) !== head) {
    tail.unshift(path.basename(head));
    head = path.dirname(head);
  }
  abs = path.join(fs.realpathSync(head), ...tail);
  const rel = path.relative(root, abs);
  return { inside: rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel), rel: rel.split(path.sep).join('/') };
}

/**
 * The decision on one tool use (the session's permissions, enforced before Claude Code runs the
 * tool). Read: any file inside the folder. Write, Edit (and MultiEdit, NotebookEdit): only a
 * writable file at the folder's top level; a file of the folder that the stage may not change is
 * a `permission` refusal (a permission deviation, reported), a path outside the folder an
 * `outside-folder` refusal. run_pytest: only when offered. Anything else: `tool-not-offered`.
 */
export function decideToolUse(plan: Pick<SessionPlan, 'writable' | 'pytest'>, folder: string, tool: string, input: Record<string, unknown>): ToolDecision {
  const refuse = (kind: RefusedToolUse['kind'], target: string, reason: string): ToolDecision => ({ allow: false, refusal: { tool, target, kind, reason } });
  if (tool === PYTEST_TOOL) return plan.pytest ? { allow: true } : refuse('tool-not-offered', 'pytest', 'this stage may not run pytest');
  const isWrite = WRITE_TOOLS.has(tool);
  if (tool !== 'Read' && !isWrite) {
    const target = typeof input.command === 'string' ? input.command : typeof input.url === 'string' ? input.url : JSON.stringify(input).slice(0, 200);
    return refuse('tool-not-offered', target, `${tool} is not offered in this session (tools: ${[...FILE_TOOLS, ...(plan.pytest ? [PYTEST_TOOL] : [])].join(', ')})`);
  }
  const target = namedPath(input);
  if (target === null) return refuse('outside-folder', '(no path)', `${tool} named no file`);
  const where = insideFolder(folder, target);
  if (!where.inside) return refuse('outside-folder', target, `${target} is outside the session folder: only the folder's files may be read or written`);
  if (!isWrite) return { allow: true };
  if (!plan.writable.includes(where.rel)) {
    const may = plan.writable.length ? `this stage may write only ${plan.writable.join(', ')}` : 'this stage may write no file';
    return refuse('permission', where.rel, `${where.rel} may not be changed: ${may}`);
  }
  return { allow: true };
}

/**
 * The session's answer: each writable file present in the folder at the end (top level), by name.
 * Files the session may not write never reach it (their writes were refused).
 */
export function sessionFiles(folder: string, writable: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of writable) {
    const p = path.join(folder, name);
    if (fs.existsSync(p) && fs.statSync(p).isFile()) out[name] = fs.readFileSync(p, 'utf8');
  }
  return out;
}

/**
 * Writes a plan's files into an empty folder (subfolders made as needed).
 * @throws Error when a name would leave the folder.
 */
export function writeSessionFolder(folder: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    const p = path.resolve(folder, name);
    if (!p.startsWith(path.resolve(folder) + path.sep)) throw new Error(`session file name ${name} leaves the folder`);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
}
