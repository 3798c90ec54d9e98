/**
 * A local stand-in of the Anthropic Messages API (`POST /v1/messages`, streamed or not) that
 * answers with scripted turns, for the claude-code backend's tests and for a whole study run
 * without a model (no machine here reaches a model API). Claude Code, started by the Agent SDK
 * with ANTHROPIC_BASE_URL pointing here, cannot tell it from the API: it sends its requests
 * (system prompt, tools, the conversation so far) and receives assistant turns made of text and
 * tool_use blocks, as the real API streams them (message_start, content blocks, message_delta
 * with usage, message_stop).
 *
 * A script is a pure function of the conversation (the request's messages): the n-th assistant
 * turn of a session is whatever the script answers when n-1 assistant turns are in the request,
 * so the stand-in keeps no state between requests. Every request is kept (`requests`) for a test
 * to check what Claude Code sent.
 *
 * Run as a program (`node dist/infra/messagesStandin.js [--port 8790]`), it serves `studyScript`:
 * every stage of a study of any task with a replay corpus (replay/lockin, replay/faults), each as
 * a short agent session that also tries what a session must not do (read a reference, run Bash,
 * write plan.md under Test-Guided, rewrite the contract under Contract-First). docs/models.md
 * "Claude Code sessions" shows the commands.
 */
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import type { AddressInfo } from 'net';
import { STANDIN_MODEL_PREFIX } from '../protocol/model';

/** A content block of an assistant turn. */
export type Block = { type: 'text'; text: string } | { type: 'tool_use'; id?: string; name: string; input: Record<string, unknown> };
/** One scripted assistant turn. */
export interface Turn {
  content: Block[];
  /** Default: tool_use when the turn has a tool_use block, else end_turn. */
  stop_reason?: string;
}
/** A message of the conversation as Claude Code sends it. */
export interface Msg {
  role: 'user' | 'assistant';
  content: string | { type: string; text?: string; content?: unknown; tool_use_id?: string; is_error?: boolean; name?: string; input?: unknown; id?: string }[];
}
/** What a script sees of one request. */
export interface ScriptContext {
  model: string;
  /** The first user message's text (the stage prompt). */
  prompt: string;
  /** Assistant turns already in the conversation (0 for the session's first request). */
  turn: number;
  /** The tool results of the last user message: tool_use id → {text, isError}. */
  results: Map<string, { text: string; isError: boolean }>;
  messages: Msg[];
  tools: string[];
}
export type Script = (ctx: ScriptContext) => Turn;

/** A request the stand-in received. */
export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | null;
}

/** The text of a message content (a string, or its text and tool-result blocks). Pure. */
export function textOf(content: Msg['content'] | unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (typeof b === 'string' ? b : b?.type === 'text' ? b.text ?? '' : b?.type === 'tool_result' ? textOf(b.content) : '')).join('\n');
}

/** The script's view of a request body. Pure. */
export function scriptContext(body: Record<string, unknown>): ScriptContext {
  const messages = (body.messages ?? []) as Msg[];
  const firstUser = messages.find((m) => m.role === 'user');
  const last = messages[messages.length - 1];
  const results = new Map<string, { text: string; isError: boolean }>();
  if (last && last.role === 'user' && Array.isArray(last.content)) {
    for (const b of last.content) if (b.type === 'tool_result' && b.tool_use_id) results.set(b.tool_use_id, { text: textOf(b.content), isError: !!b.is_error });
  }
  return {
    model: String(body.model ?? ''),
    prompt: firstUser ? textOf(firstUser.content) : '',
    turn: messages.filter((m) => m.role === 'assistant').length,
    results,
    messages,
    tools: ((body.tools ?? []) as { name: string }[]).map((t) => t.name),
  };
}

/** A rough, deterministic token count (4 characters a token). */
const tokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

/** The Messages API reply of a turn (ids numbered from the turn). Pure. */
export function assistantMessage(turn: Turn, model: string, n: number, inputTokens: number): Record<string, unknown> {
  let k = 0;
  const content = turn.content.map((b) => (b.type === 'tool_use' ? { ...b, id: b.id ?? `toolu_standin_${n}_${++k}` } : b));
  const stop = turn.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
  return { id: `msg_standin_${n}`, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: tokens(JSON.stringify(content)), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } };
}

/** Writes a message as the API's server-sent events. */
function writeStream(res: http.ServerResponse, msg: Record<string, unknown>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${String(msg.id)}` });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const usage = msg.usage as Record<string, number>;
  send('message_start', { type: 'message_start', message: { ...msg, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } });
  (msg.content as Block[]).forEach((b, index) => {
    if (b.type === 'text') {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: b.text } });
    } else {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
    }
    send('content_block_stop', { type: 'content_block_stop', index });
  });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: msg.stop_reason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

/** A running stand-in. */
export interface Standin {
  /** The base URL to give as ANTHROPIC_BASE_URL. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts the stand-in on 127.0.0.1 (port 0: any free port).
 * `POST /v1/messages` answers `script`'s turn as model `replyModel(requested)` (default: the model
 * requested, as the API does); an error thrown by the script answers 400 with its
 * message); `POST /v1/messages/count_tokens` answers a count; anything else 404.
 */
export function startStandin(script: Script, opts: { port?: number; log?: (line: string) => void; replyModel?: (requested: string) => string } = {}): Promise<Standin> {
  const requests: RecordedRequest[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> | null = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = null;
      }
      const url = req.url ?? '';
      requests.push({ path: url, headers: req.headers, body });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'POST' && url.startsWith('/v1/messages/count_tokens')) return json(200, { input_tokens: tokens(raw) });
      if (req.method !== 'POST' || !url.startsWith('/v1/messages') || !body) return json(404, { type: 'error', error: { type: 'not_found_error', message: `the stand-in answers POST /v1/messages only (${req.method} ${url})` } });
      let turn: Turn;
      const ctx = scriptContext(body);
      try {
        turn = script(ctx);
      } catch (e) {
        // 400, not 5xx: Claude Code retries a 5xx for minutes; a script that cannot answer should fail the session at once.
        opts.log?.(`${new Date().toISOString()} turn ${ctx.turn + 1} → script error: ${(e as Error).message}`);
        return json(400, { type: 'error', error: { type: 'invalid_request_error', message: `stand-in script: ${(e as Error).message}` } });
      }
      const msg = assistantMessage(turn, opts.replyModel ? opts.replyModel(ctx.model) : ctx.model, ++n, tokens(raw));
      opts.log?.(`${new Date().toISOString()} turn ${ctx.turn + 1} → ${(msg.content as Block[]).map((b) => (b.type === 'text' ? 'text' : `${b.name}`)).join(', ')}`);
      if (body.stream) writeStream(res, msg);
      else json(200, msg);
    });
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

/** A script that plays `turns` in order (the last one again if the session goes on). */
export function sequence(turns: Turn[]): Script {
  return (ctx) => turns[Math.min(ctx.turn, turns.length - 1)];
}

export const write = (file_path: string, content: string): Block => ({ type: 'tool_use', name: 'Write', input: { file_path, content } });
export const read = (file_path: string): Block => ({ type: 'tool_use', name: 'Read', input: { file_path } });
export const bash = (command: string): Block => ({ type: 'tool_use', name: 'Bash', input: { command, description: 'look around' } });
export const pytest = (): Block => ({ type: 'tool_use', name: 'mcp__lockin__run_pytest', input: {} });
export const say = (text: string): Block => ({ type: 'text', text });

/** The stage a prompt is for, from the heading each template starts with (activities/model/prompts/*.md). Pure. */
export function stageOf(prompt: string): { stage: string; taskId: string } {
  // The stage prompt's heading (Claude Code may put its own context, with headings, before it).
  const h = /^#\s+((?:Task|PlanAudit stage|Obligation labels)\b.*)$/m.exec(prompt)?.[1] ?? '';
  const task = /task (q\d+[ab]?)\b|^Task (q\d+[ab]?)\b/i.exec(h);
  const taskId = task?.[1] ?? task?.[2] ?? '';
  const audit = /PlanAudit stage C-(\S+) \((\w+)(?: (\d))?\)/.exec(h);
  if (audit) {
    const names: Record<string, string> = { '1': 'c1-extract', '2': 'c2-assess', '2.5': 'c2_5-ground', '3': 'c3-audit', '4': 'c4-recommend' };
    return { stage: audit[1] === '5' ? `c5-revise-${audit[3] ?? '1'}` : names[audit[1]] ?? `c${audit[1]}`, taskId };
  }
  if (/^Obligation labels/.test(h)) return { stage: 'judge', taskId };
  if (/\(C-0 Contract\)/.test(h)) return { stage: 'c0-contract', taskId };
  const cf = /\(contract revision (\d)\)/.exec(h);
  if (cf) return { stage: `cf-revise-${cf[1]}`, taskId };
  const rev = /\(revision (\d)\)/.exec(h);
  if (rev) return { stage: `revise-${rev[1]}`, taskId };
  return { stage: 'generate', taskId };
}

/** The fenced files and the text of a replay file (front matter dropped). */
function replayReply(file: string): { text: string; files: Record<string, string> } {
  const raw = fs.readFileSync(file, 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
  const files: Record<string, string> = {};
  const re = /^(`{3,}|~{3,})[^\n`]*?\s([\w.]+\.(?:py|md))\n([\s\S]*?)\n\1\s*$/gm;
  for (let m = re.exec(raw); m; m = re.exec(raw)) files[m[2]] = `${m[3]}\n`;
  return { text: raw, files };
}

/**
 * The study script: every stage of a study as a short session, built from replay corpora so the
 * artifacts run. The snapshot is replay/faults' (a wrong metric: a false pass) with a test file
 * whose import of a missing name fails collection, so Test-Guided revises and Contract-First's
 * contract fails; the revisions and C-5 write replay/lockin's files. Each stage also tries what
 * it may not do:
 *  generate:    Read task.yaml (allowed); Read a reference outside the folder (refused);
 *               Write the three files; Bash (not offered); end.
 *  revise-N:    Read the files; Write plan.md (refused: Test-Guided keeps plan.md frozen);
 *               run_pytest; Write the fixed test_solution.py; run_pytest; end.
 *  c0-contract: Write contract_test.py (replay/lockin); end.
 *  cf-revise-N: Read; Write contract_test.py (refused: the contract is frozen); Write solution.py; end.
 *  c5-revise-N: Read; Write the three files; run_pytest; end.
 * (Claude Code refuses a Write to an existing file its session has not read: each revision reads first.)
 *  C-1..C-4:    end with replay/lockin's JSON reply.
 *  judge:       Read judge_evidence.json; end with every obligation it names labelled
 *               present / satisfied / covered.
 * @param replayRoot the replay/ folder; @param outside a path outside every session folder the
 *   generate session tries to read (a reference).
 */
export function studyScript(replayRoot: string, outside: string): Script {
  return (ctx) => {
    const { stage, taskId } = stageOf(ctx.prompt);
    const lockin = (rel: string) => replayReply(path.join(replayRoot, 'lockin', taskId, rel));
    const snapshot = () => {
      const f = replayReply(path.join(replayRoot, fs.existsSync(path.join(replayRoot, 'faults', taskId, 'generate.md')) ? 'faults' : 'lockin', taskId, 'generate.md')).files;
      return { ...f, 'test_solution.py': `from solution import STANDIN_MISSING_NAME  # noqa: F401  (the stand-in's collection error)\n${f['test_solution.py']}` };
    };
    const t = ctx.turn;
    const done = (text: string): Turn => ({ content: [say(text)], stop_reason: 'end_turn' });
    switch (stage) {
      case 'generate': {
        const files = snapshot();
        return [
          { content: [say('I read the task first.'), read('task.yaml')] },
          { content: [read(outside)] },
          { content: Object.entries(files).map(([n, c]) => write(n, c)) },
          { content: [bash('ls ..')] },
          done('plan.md, solution.py and test_solution.py are written.'),
        ][Math.min(t, 4)];
      }
      case 'revise-1':
      case 'revise-2': {
        const fixed = lockin('generate.md').files;
        return [
          { content: [read('plan.md'), read('test_solution.py'), read('pytest_failures.md')] },
          { content: [write('plan.md', '# Plan\n\nrewritten by the revision (must be refused)\n')] },
          { content: [pytest()] },
          { content: [write('test_solution.py', fixed['test_solution.py'])] },
          { content: [pytest()] },
          done('The import of a missing name is removed; the tests pass.'),
        ][Math.min(t, 5)];
      }
      case 'c0-contract':
        return [{ content: [write('contract_test.py', lockin('contract-first/c0-contract.md').files['contract_test.py'])] }, done('contract_test.py is written.')][Math.min(t, 1)];
      case 'cf-revise-1':
      case 'cf-revise-2':
        return [
          { content: [read('solution.py'), read('contract_failures.md')] },
          { content: [write('contract_test.py', 'def test_nothing():\n    pass\n')] },
          { content: [write('solution.py', lockin('generate.md').files['solution.py'])] },
          done('solution.py sums the extended sales price now.'),
        ][Math.min(t, 3)];
      case 'c5-revise-1':
      case 'c5-revise-2': {
        const f = lockin('generate.md').files;
        return [{ content: Object.keys(f).map((n) => read(n)) }, { content: Object.entries(f).map(([n, c]) => write(n, c)) }, { content: [pytest()] }, done('Revised.')][Math.min(t, 3)];
      }
      case 'judge': {
        if (t === 0) return { content: [read('judge_evidence.json')] };
        const evidence = [...ctx.results.values()].map((r) => r.text).join('\n');
        const ids = [...new Set([...evidence.matchAll(/"id":\s*"(O\d+)"/g)].map((m) => m[1]))];
        const labels = ids.map((id) => ({ id, plan: 'present', code: 'satisfied', test: 'covered', rationale: 'stand-in judge' }));
        return done('```json\n' + JSON.stringify({ labels }, null, 2) + '\n```');
      }
      default:
        return done(lockin(`plan-audit/${stage}.md`).text);
    }
  };
}

/** `node dist/infra/messagesStandin.js [--port N]`: serves studyScript until stopped. */
async function main(): Promise<void> {
  const i = process.argv.indexOf('--port');
  const port = i > 0 ? Number(process.argv[i + 1]) : 8790;
  const root = path.resolve(__dirname, '..', '..');
  const outside = path.join(process.env.LOCKIN_HOME ?? path.join(root, '.lockin'), 'data', 'references');
  // Replies name the model `standin-<model>`: the call files, the provenance and the (absent) price say no model answered.
  const s = await startStandin(studyScript(path.join(root, 'replay'), outside), { port, log: (l) => process.stdout.write(`${l}\n`), replyModel: (m) => `${STANDIN_MODEL_PREFIX}${m}` });
  process.stdout.write(`Messages API stand-in at ${s.url} (ANTHROPIC_BASE_URL=${s.url} ANTHROPIC_API_KEY=standin)\n`);
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  });
}
