/**
 * The claude-code backend end to end: the gateway's callModel starts a real Claude Code session
 * (npm @anthropic-ai/claude-agent-sdk and the binary it ships) against the Messages API stand-in
 * (infra/messagesStandin.ts), which scripts tool-use turns: read a file, try to read a reference
 * outside the folder, write the artifacts, try Bash, try to write plan.md under Test-Guided, run
 * pytest (a stub here: no Spark), end the turn. Checked: what the backend recorded (call file,
 * session, transcript, usage, cost), what it refused, what Claude Code sent, the cache.
 */
import * as fs from 'fs';
import * as path from 'path';
import { callModel } from '../../activities/model/gateway';
import { BACKENDS } from '../../activities/model/backends';
import { createClaudeCodeBackend, type SessionPytest } from '../../activities/model/backends/claudeCode';
import { readLedger } from '../../activities/model/ledger';
import { bash, pytest, read, say, sequence, startStandin, write, type Standin, type Turn } from '../../infra/messagesStandin';
import { generateReply, readJson, stageRequest, tempEnv } from './support';

let env: ReturnType<typeof tempEnv>;
let standin: Standin | null = null;
const pytestCalls: { folder: string; files: string[] }[] = [];
const stubPytest: SessionPytest = async (folder) => {
  pytestCalls.push({ folder, files: fs.readdirSync(folder).sort() });
  const passed = !fs.readFileSync(path.join(folder, 'test_solution.py'), 'utf8').includes('MISSING');
  return { passed, summary: passed ? 'passed: 1 passed' : 'not passed: 1 collection error', text: passed ? 'pytest exit code 0: 1 passed' : 'ImportError: MISSING' };
};
const original = BACKENDS['claude-code'];
const MODEL = 'claude-code:claude-sonnet-4-6';

/** The three files of the fixture task's replay reply. */
function fixtureFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of generateReply().matchAll(/```(?:python|markdown) ([\w.]+)\n([\s\S]*?)\n```/g)) out[m[1]] = `${m[2]}\n`;
  return out;
}

async function serve(turns: Turn[]): Promise<Standin> {
  await standin?.close();
  standin = await startStandin(sequence(turns));
  process.env.ANTHROPIC_BASE_URL = standin.url;
  return standin;
}

beforeAll(() => {
  env = tempEnv();
  (BACKENDS as Record<string, unknown>)['claude-code'] = createClaudeCodeBackend({ runPytest: stubPytest });
});
afterAll(async () => {
  (BACKENDS as Record<string, unknown>)['claude-code'] = original;
  await standin?.close();
  env.cleanup();
});
beforeEach(() => {
  pytestCalls.length = 0;
  fs.rmSync(path.join(env.home, 'cache'), { recursive: true, force: true });
  fs.rmSync(path.join(env.home, 'ledger.jsonl'), { force: true });
  fs.rmSync(env.taskDir, { recursive: true, force: true });
});

test('generate: one session writes the three files; a read outside the folder and Bash are refused and recorded; transcript, usage and cost recorded; the cache replays the whole session', async () => {
  const files = fixtureFiles();
  // A reference query text on disk, outside the session folder (the session tries to read it).
  const outside = path.join(env.home, 'queries', 'q900.sql');
  fs.mkdirSync(path.dirname(outside), { recursive: true });
  fs.writeFileSync(outside, 'select w_colour as colour, sum(ws_units) as units -- a reference stands here\n');
  const s = await serve([
    { content: [say('Reading the task.'), read('task.yaml')] },
    { content: [read(outside)] },
    { content: Object.entries(files).map(([n, c]) => write(n, c)) },
    { content: [bash('cat ../../../study.json')] },
    { content: [say('Done: plan.md, solution.py and test_solution.py.')], stop_reason: 'end_turn' },
  ]);
  const dir = env.dir('snapshot');
  const res = await callModel(stageRequest({ workDir: dir, model: MODEL }));

  expect(res.ok).toBe(true);
  expect(res.backend).toBe('claude-code');
  expect(Object.keys(res.artifacts!).sort()).toEqual(['plan.md', 'solution.py', 'test_solution.py']);
  expect(fs.readFileSync(path.join(dir, 'solution.py'), 'utf8')).toBe(files['solution.py']);

  // What Claude Code sent: five requests (one per turn), the model, our tools only, no sampling parameters.
  const main = s.requests.filter((r) => r.body && Array.isArray(r.body.tools));
  expect(main).toHaveLength(5);
  for (const r of main) {
    expect(r.body!.model).toBe('claude-sonnet-4-6');
    expect(r.body).not.toHaveProperty('temperature');
    expect(r.body).not.toHaveProperty('top_p');
    expect((r.body!.tools as { name: string }[]).map((t) => t.name).sort()).toEqual(['Edit', 'Read', 'Write']);
    expect(String(r.headers['anthropic-beta'])).toContain('context-1m-2025-08-07');
  }
  const firstPrompt = JSON.stringify(main[0].body!.messages);
  expect(firstPrompt).toContain('Your session folder');
  expect(firstPrompt).toContain('You may write: `plan.md`, `solution.py`, `test_solution.py`');

  const call = readJson(res.callFile);
  expect(call.status).toBe('ok');
  expect(call.request.backend).toBe('claude-code');
  expect(Object.keys(call.request.body.files)).toEqual(['task.yaml']);
  expect(call.request.body.writable).toEqual(['plan.md', 'solution.py', 'test_solution.py']);
  expect(call.request.body.tools).toEqual(['Read', 'Write', 'Edit']);
  expect(call.preflight.ok).toBe(true);
  expect(call.paramNotes[0]).toContain('not sent: Claude Code sends neither');
  const session = call.session;
  expect(session.stop).toBe('end_turn');
  expect(session.turns).toBe(5);
  expect(session.toolUses).toBe(6);
  expect(session.toolCounts).toEqual({ Read: 2, Write: 3, Bash: 1 });
  expect(session.refused).toEqual([
    expect.objectContaining({ turn: 2, tool: 'Read', target: outside, kind: 'outside-folder' }),
    expect.objectContaining({ turn: 4, tool: 'Bash', target: 'cat ../../../study.json', kind: 'tool-not-offered' }),
  ]);
  expect(session.usageByTurn).toHaveLength(5);
  const sum = session.usageByTurn.reduce((a: number, u: { inputTokens: number }) => a + u.inputTokens, 0);
  expect(call.usage.inputTokens).toBe(sum);
  expect(call.costUsd).toBeGreaterThan(0);
  expect(call.reply.files['solution.py']).toMatch(/^[0-9a-f]{64}$/);
  expect(session).not.toHaveProperty('transcript');
  const lines = fs.readFileSync(session.transcriptFile.path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  expect(lines).toHaveLength(session.transcriptFile.entries);
  // lockin's hook refused the read outside the folder (Bash never reaches the hook: Claude Code does not have it).
  expect(lines.filter((l) => l.type === 'lockin_decision').map((l) => `${l.tool}:${l.allow}`)).toEqual(['Read:true', 'Read:false', 'Write:true', 'Write:true', 'Write:true']);
  expect(JSON.stringify(lines)).not.toContain('a reference stands here');
  expect(lines.some((l) => l.type === 'result')).toBe(true);

  // The same call again: the whole session from the cache, nothing sent, the transcript written again.
  const before = s.requests.length;
  fs.rmSync(session.transcriptFile.path);
  const again = await callModel(stageRequest({ workDir: dir, model: MODEL }));
  expect(again.cacheHit).toBe(true);
  expect(again.costUsd).toBe(0);
  expect(s.requests.length).toBe(before);
  expect(readJson(again.callFile).session.transcriptFile.sha256).toBe(session.transcriptFile.sha256);
  expect(readLedger().map((l) => `${l.status}:${l.cacheHit}`)).toEqual(['sent:false', 'ok:false', 'ok:true']);
});

test('Test-Guided revise-1: writing plan.md is refused (a permission deviation, plan.md unchanged); pytest runs through lockin; the fixed test file is the artifact', async () => {
  const files = fixtureFiles();
  const dir = env.dir('test-guided');
  for (const [n, c] of Object.entries(files)) fs.writeFileSync(path.join(dir, n), n === 'test_solution.py' ? `from solution import MISSING\n${c}` : c);
  const failures = path.join(dir, 'failures-initial.md');
  fs.writeFileSync(failures, 'ImportError: cannot import name MISSING\n');
  await serve([
    { content: [read('plan.md'), read('test_solution.py')] },
    { content: [write('plan.md', '# Plan\n\nchanged\n')] },
    { content: [pytest()] },
    { content: [write('test_solution.py', files['test_solution.py'])] },
    { content: [pytest()] },
    { content: [say('Fixed the import.')], stop_reason: 'end_turn' },
  ]);
  const res = await callModel(stageRequest({ workDir: dir, model: MODEL, condition: 'test-guided', stage: 'revise-1', callIndex: 2, inputs: { feedbackFile: failures } }));

  expect(res.ok).toBe(true);
  expect(Object.keys(res.artifacts!).sort()).toEqual(['solution.py', 'test_solution.py']);
  expect(fs.readFileSync(path.join(dir, 'plan.md'), 'utf8')).toBe(files['plan.md']);
  expect(fs.readFileSync(path.join(dir, 'test_solution.py'), 'utf8')).toBe(files['test_solution.py']);
  const call = readJson(res.callFile);
  expect(Object.keys(call.request.body.files).sort()).toEqual(['plan.md', 'pytest_failures.md', 'solution.py', 'task.yaml', 'test_solution.py']);
  expect(call.request.body.writable).toEqual(['solution.py', 'test_solution.py']);
  expect(call.request.body.tools).toEqual(['Read', 'Write', 'Edit', 'mcp__lockin__run_pytest']);
  expect(call.session.refused).toEqual([expect.objectContaining({ turn: 2, tool: 'Write', target: 'plan.md', kind: 'permission' })]);
  expect(call.session.refused[0].reason).toContain('this stage may write only solution.py, test_solution.py');
  expect(call.session.pytestRuns.map((r: { passed: boolean }) => r.passed)).toEqual([false, true]);
  expect(pytestCalls.map((c) => c.files)).toEqual([
    ['plan.md', 'pytest_failures.md', 'solution.py', 'task.yaml', 'test_solution.py'],
    ['plan.md', 'pytest_failures.md', 'solution.py', 'task.yaml', 'test_solution.py'],
  ]);
});

test('limits: the session stops at maxTurns (spec option), and at the token limit, with the files it left', async () => {
  const files = fixtureFiles();
  await serve([{ content: Object.entries(files).map(([n, c]) => write(n, c)) }, { content: [read('task.yaml')] }, { content: [read('task.yaml')] }, { content: [say('never reached')], stop_reason: 'end_turn' }]);
  const dir = env.dir('snapshot');
  const res = await callModel(stageRequest({ workDir: dir, model: `${MODEL}?maxTurns=2` }));
  const call = readJson(res.callFile);
  expect(call.session.stop).toBe('max_turns');
  expect(call.session.turns).toBe(2);
  expect(call.request.body.max_turns).toBe(2);
  expect(res.ok).toBe(true); // the three files were written in turn 1

  fs.rmSync(env.taskDir, { recursive: true, force: true });
  const dir2 = env.dir('snapshot');
  const res2 = await callModel(stageRequest({ workDir: dir2, model: `${MODEL}?sessionTokens=10` }));
  const call2 = readJson(res2.callFile);
  expect(call2.session.stop).toBe('session_tokens');
  expect(call2.session.turns).toBe(1); // the first reply passed the limit: its writes were denied, no second request
  expect(res2.ok).toBe(false);
  expect(res2.protocolError).toContain('missing files plan.md, solution.py, test_solution.py');
});

test('Contract-First cf-revise-1: a write to the contract suite is refused; the folder never holds the contract', async () => {
  const files = fixtureFiles();
  const dir = env.dir('contract-first');
  for (const [n, c] of Object.entries(files)) fs.writeFileSync(path.join(dir, n), c);
  fs.writeFileSync(path.join(dir, 'contract_test.py'), 'def test_contract():\n    assert True\n');
  const failures = path.join(dir, 'contract-failures.md');
  fs.writeFileSync(failures, 'AssertionError: wrong totals\n');
  await serve([
    { content: [read('solution.py')] },
    { content: [write('contract_test.py', 'def test_nothing():\n    pass\n')] },
    { content: [write('solution.py', files['solution.py'].replace('def solve', '# revised\ndef solve'))] },
    { content: [say('Revised.')], stop_reason: 'end_turn' },
  ]);
  const res = await callModel(stageRequest({ workDir: dir, model: MODEL, condition: 'contract-first', stage: 'cf-revise-1', callIndex: 3, inputs: { feedbackFile: failures } }));
  expect(res.ok).toBe(true);
  expect(Object.keys(res.artifacts!)).toEqual(['solution.py']);
  expect(fs.readFileSync(path.join(dir, 'contract_test.py'), 'utf8')).toBe('def test_contract():\n    assert True\n');
  const call = readJson(res.callFile);
  expect(Object.keys(call.request.body.files)).not.toContain('contract_test.py');
  expect(call.request.body.tools).not.toContain('mcp__lockin__run_pytest');
  expect(call.session.refused).toEqual([expect.objectContaining({ tool: 'Write', target: 'contract_test.py', kind: 'permission' })]);
});
