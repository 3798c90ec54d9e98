/**
 * The claude-code session rules without a session: the folder a stage starts with, what it may
 * write, the decision on each tool use, the limits from the spec, the stand-in's stage reading,
 * and a refused write becoming a permission deviation of the run. Pure or a temporary folder.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { decideToolUse, insideFolder, sessionLimits, sessionPlan, stagePermissions } from '../../activities/model/backends/claudeCodePolicy';
import { agentRequestText } from '../../activities/model/backends/claudeCode';
import { parseFiles } from '../../activities/model/reply';
import { refusedWrites } from '../../activities/store/edits';
import { loadTaskSpec } from '../../activities/model/stageInputs';
import { stageOf } from '../../infra/messagesStandin';
import { parseModelSpec } from '../../protocol/model';
import { modelQueue } from '../../protocol/queues';
import { sessionMarkdown } from '../../activities/report/inspect/markdown';
import { stageRequest, tempEnv, TASK_ID } from './support';

let env: ReturnType<typeof tempEnv>;
let folder: string;
beforeAll(() => {
  env = tempEnv();
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-policy-'));
  fs.writeFileSync(path.join(folder, 'plan.md'), '# plan\n');
  fs.symlinkSync('/etc/hostname', path.join(folder, 'link.txt'));
});
afterAll(() => {
  env.cleanup();
  fs.rmSync(folder, { recursive: true, force: true });
});

test('the spec: claude-code[:<id>] with session options; its calls share the anthropic queue', () => {
  expect(parseModelSpec('claude-code')).toEqual({ provider: 'claude-code', model: 'claude-sonnet-4-6', params: {} });
  expect(parseModelSpec('claude-code:claude-opus-4-1?maxTurns=12&pytest=off')).toEqual({ provider: 'claude-code', model: 'claude-opus-4-1', params: { maxTurns: '12', pytest: 'off' } });
  expect(modelQueue('claude-code:claude-sonnet-4-6')).toBe('lockin-model-anthropic');
  expect(sessionLimits({ maxTurns: '12', sessionTokens: '500000', pytest: 'off' }, {})).toEqual({ maxTurns: 12, sessionTokens: 500000, timeoutMs: 720000, pytest: false });
  expect(sessionLimits({}, { LOCKIN_AGENT_SESSION_TIMEOUT_MS: '60000' }).timeoutMs).toBe(60000);
  expect(() => sessionLimits({ maxTurns: '0' }, {})).toThrow('claude-code option maxTurns=0: a positive integer is needed');
  expect(() => sessionLimits({ turns: '3' }, {})).toThrow('claude-code has no option "turns" (maxTurns, sessionTokens, pytest)');
  expect(() => sessionLimits({}, { LOCKIN_AGENT_SESSION_TIMEOUT_MS: '900000' })).toThrow('LOCKIN_AGENT_SESSION_TIMEOUT_MS=900000');
});

test("each stage's writable files and pytest (Table I's permissions)", () => {
  expect(stagePermissions('generate')).toEqual({ writable: ['plan.md', 'solution.py', 'test_solution.py'], pytest: false });
  expect(stagePermissions('revise-2')).toEqual({ writable: ['solution.py', 'test_solution.py'], pytest: true });
  expect(stagePermissions('c5-revise-1')).toEqual({ writable: ['plan.md', 'solution.py', 'test_solution.py'], pytest: true });
  expect(stagePermissions('c0-contract')).toEqual({ writable: ['contract_test.py'], pytest: false });
  expect(stagePermissions('cf-revise-1')).toEqual({ writable: ['solution.py'], pytest: false });
  expect(stagePermissions('c3-audit')).toEqual({ writable: [], pytest: false });
  expect(stagePermissions('judge')).toEqual({ writable: [], pytest: false });
});

test('the folder holds what the stage may see: schemas only where the prompt has them, prior outputs as their JSON', () => {
  const dir = env.dir('plan-audit');
  const gen = sessionPlan(stageRequest({ workDir: dir }), loadTaskSpec(TASK_ID));
  expect(Object.keys(gen.files)).toEqual(['task.yaml']);
  expect(gen.files['task.yaml']).toContain('{name: ws_units, type: "int", nullable: true}');

  fs.mkdirSync(path.join(dir, 'calls'), { recursive: true });
  const prior = path.join(dir, 'calls', '02-c1-extract.json');
  fs.writeFileSync(prior, JSON.stringify({ stage: 'c1-extract', ok: true, parsed: { json: { obligations: [{ id: 'O1', statement: 'one row per colour' }] } }, request: { secret: 'never shown' } }));
  const c2 = sessionPlan(stageRequest({ workDir: dir, condition: 'plan-audit', stage: 'c2-assess', callIndex: 3, inputs: { priorCalls: [prior] } }), loadTaskSpec(TASK_ID));
  expect(Object.keys(c2.files).sort()).toEqual(['prior/02-c1-extract.json', 'task.yaml']);
  expect(JSON.parse(c2.files['prior/02-c1-extract.json'])).toEqual({ obligations: [{ id: 'O1', statement: 'one row per colour' }] });
  expect(c2.files['task.yaml']).not.toContain('ws_units'); // C-2 sees the task prompt, not the schemas
  expect(c2.files['task.yaml']).toContain('name: widget_sales');
  expect(() => sessionPlan(stageRequest({ workDir: dir, condition: 'test-guided', stage: 'revise-1', inputs: { feedbackFile: path.join(dir, 'nope.md') } }), loadTaskSpec(TASK_ID))).toThrow('pytest failures file does not exist');
});

test('tool decisions: reads inside the folder, writes to the writable files only, nothing outside, no other tool', () => {
  const plan = { writable: ['solution.py', 'test_solution.py'], pytest: true };
  expect(decideToolUse(plan, folder, 'Read', { file_path: 'plan.md' })).toEqual({ allow: true });
  expect(decideToolUse(plan, folder, 'Write', { file_path: path.join(folder, 'solution.py') })).toEqual({ allow: true });
  expect(decideToolUse(plan, folder, 'mcp__lockin__run_pytest', {})).toEqual({ allow: true });
  expect(decideToolUse(plan, folder, 'Edit', { file_path: 'plan.md' })).toEqual({ allow: false, refusal: { tool: 'Edit', target: 'plan.md', kind: 'permission', reason: 'plan.md may not be changed: this stage may write only solution.py, test_solution.py' } });
  expect(decideToolUse(plan, folder, 'Write', { file_path: 'notes/solution.py' })).toMatchObject({ allow: false, refusal: { kind: 'permission', target: 'notes/solution.py' } });
  expect(decideToolUse(plan, folder, 'Read', { file_path: '../../etc/passwd' })).toMatchObject({ allow: false, refusal: { kind: 'outside-folder', target: '../../etc/passwd' } });
  expect(decideToolUse(plan, folder, 'Read', { file_path: 'link.txt' })).toMatchObject({ allow: false, refusal: { kind: 'outside-folder' } }); // a link out of the folder
  expect(decideToolUse(plan, folder, 'Bash', { command: 'pytest -q' })).toEqual({ allow: false, refusal: { tool: 'Bash', target: 'pytest -q', kind: 'tool-not-offered', reason: 'Bash is not offered in this session (tools: Read, Write, Edit, mcp__lockin__run_pytest)' } });
  expect(decideToolUse({ writable: [], pytest: false }, folder, 'mcp__lockin__run_pytest', {})).toMatchObject({ allow: false, refusal: { kind: 'tool-not-offered', reason: 'this stage may not run pytest' } });
  expect(insideFolder(folder, '.')).toEqual({ inside: false, rel: '' });
});

test("a session's files are checked like a fenced reply; the preflight sees every file of the folder", () => {
  expect(parseFiles({ 'plan.md': 'p', 'solution.py': 's\n', 'test_solution.py': 't\n' }, 'generate')).toEqual({ ok: true, files: { 'plan.md': 'p\n', 'solution.py': 's\n', 'test_solution.py': 't\n' } });
  expect(parseFiles({ 'plan.md': 'p\n' }, 'generate')).toEqual({ ok: false, protocolError: 'missing files solution.py, test_solution.py (the session did not leave them in its folder)' });
  expect(parseFiles({ 'contract_test.py': 'x\n' }, 'revise-1')).toEqual({ ok: false, protocolError: 'unexpected file contract_test.py (allowed: plan.md, solution.py, test_solution.py)' });
  const text = agentRequestText({ backend: 'claude-code', endpoint: 'e', headers: {}, body: { model: 'm', max_tokens: 1, system: 'SYS', messages: [{ role: 'user', content: 'USER' }], files: { 'task.yaml': 'TASK', 'pytest_failures.md': 'FAIL' }, writable: [], tools: [], max_turns: 1, session_tokens: 1, betas: [], harness: { agentSdk: 'a', claudeCode: 'b' } } });
  expect(text).toBe('SYS\n\nUSER\n\n=== task.yaml ===\nTASK\n\n=== pytest_failures.md ===\nFAIL');
});

test('a refused write in a call file is a permission deviation of the run; other refusals stay in the call file', () => {
  const dir = env.dir('test-guided');
  fs.mkdirSync(path.join(dir, 'calls'), { recursive: true });
  const refused = [
    { turn: 2, tool: 'Write', target: 'plan.md', kind: 'permission', reason: 'plan.md may not be changed: this stage may write only solution.py, test_solution.py' },
    { turn: 3, tool: 'Read', target: '/refs/q3.sql', kind: 'outside-folder', reason: 'outside' },
    { turn: 4, tool: 'Write', target: 'notes.md', kind: 'permission', reason: 'notes.md may not be changed' },
  ];
  fs.writeFileSync(path.join(dir, 'calls', '02-revise-1.json'), JSON.stringify({ stage: 'revise-1', session: { refused } }));
  fs.writeFileSync(path.join(dir, 'calls', '02-revise-1.transcript.jsonl'), '{}\n');
  expect(refusedWrites(dir)).toEqual([
    { artifact: 'plan.md', change: 'write-refused', allowed: false, stage: 'revise-1', detail: 'revise-1 (turn 2) tried to change plan.md with Write: refused, nothing written (plan.md may not be changed: this stage may write only solution.py, test_solution.py)' },
  ]);
});

test("the stand-in reads a prompt's stage from its heading, after Claude Code's own context", () => {
  expect(stageOf('<system-reminder>\n# currentDate\n</system-reminder>\n# Task q3: November sales\n')).toEqual({ stage: 'generate', taskId: 'q3' });
  expect(stageOf('# Task q3: x (revision 2)')).toEqual({ stage: 'revise-2', taskId: 'q3' });
  expect(stageOf('# Task q14a: x (contract revision 1)')).toEqual({ stage: 'cf-revise-1', taskId: 'q14a' });
  expect(stageOf('# Task q3: x (C-0 Contract)')).toEqual({ stage: 'c0-contract', taskId: 'q3' });
  expect(stageOf('# PlanAudit stage C-2.5 (Ground): task q3: x')).toEqual({ stage: 'c2_5-ground', taskId: 'q3' });
  expect(stageOf('# PlanAudit stage C-5 (Revise 2): task q3: x')).toEqual({ stage: 'c5-revise-2', taskId: 'q3' });
  expect(stageOf('# Obligation labels: task q3: x')).toEqual({ stage: 'judge', taskId: 'q3' });
});

test("the view's session section: limits, refusals, pytest, the transcript step by step", () => {
  const md = sessionMarkdown(
    'revise-1',
    { stop: 'end_turn', turns: 2, toolUses: 2, toolCounts: { Write: 1, mcp__lockin__run_pytest: 1 }, refused: [{ turn: 1, tool: 'Write', target: 'plan.md', kind: 'permission', reason: 'plan.md may not be changed' }], pytestRuns: [{ turn: 2, passed: true, summary: 'passed: 3 passed' }], usageByTurn: [{ inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 }, { inputTokens: 200, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 }], harnessCostUsd: 0.0021, limits: { maxTurns: 40, sessionTokens: 2000000, timeoutMs: 720000 }, durationMs: 4200 },
    [
      { type: 'assistant', message: { id: 'm1', content: [{ type: 'tool_use', name: 'Write', input: { file_path: '/s/plan.md', content: 'x' } }] } },
      { type: 'lockin_decision', allow: false, refusal: { reason: 'plan.md may not be changed' } },
      { type: 'user', message: { content: [{ type: 'tool_result', is_error: true, content: 'refused by lockin' }] } },
      { type: 'result', subtype: 'success', result: 'Done.' },
    ],
  );
  expect(md).toContain('### revise-1: 2 turn(s), stopped by end_turn');
  expect(md).toContain('Used: 2 turns, 330 tokens, 4.2 s; 2 tool use(s) (Write 1, mcp__lockin__run_pytest 1)');
  expect(md).toContain('| 1 | Write | `plan.md` | permission | plan.md may not be changed |');
  expect(md).toContain("**pytest in the session (lockin's sandbox)**: turn 2: passed: 3 passed");
  expect(md).toContain('- turn 1:\n  - Write `/s/plan.md`\n    - lockin: **refused**: plan.md may not be changed\n    - error: refused by lockin\n- end: success: Done.');
});
