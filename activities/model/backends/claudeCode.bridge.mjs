/**
 * The claude-code backend's session process (activities/model/backends/claudeCode.ts forks it with
 * an IPC channel). It runs ONE Claude Code agent session with npm's @anthropic-ai/claude-agent-sdk
 * (an ES module, which is why this file is a plain .mjs run in its own Node process: the
 * CommonJS worker and jest cannot load it in-process) and decides nothing itself: every tool use
 * is put to the parent before Claude Code runs it (PreToolUse hook), lockin's run_pytest tool is
 * answered by the parent, and every SDK message is sent to the parent as it arrives.
 *
 * Messages from the parent:
 *   {type: 'start', prompt, options: {cwd, model, system, maxTurns, betas, tools, pytest, env}}
 *   {type: 'decision', id, allow, reason, stop}  the answer to a 'preToolUse' (stop: end the session after it)
 *   {type: 'toolResult', id, text, isError}   the answer to a 'tool' (run_pytest)
 *   {type: 'abort', reason}                   stop the session (a limit was reached)
 * Messages to the parent:
 *   {type: 'message', message}                an SDK message (assistant, user, system, result)
 *   {type: 'usage', event}                    a raw message_start or message_delta stream event (token usage)
 *   {type: 'preToolUse', id, tool, input}     may this tool use run?
 *   {type: 'tool', id, name, args}            run lockin's tool
 *   {type: 'stderr', text}                    Claude Code's stderr
 *   {type: 'done'} or {type: 'error', message}
 * Without a 'start' within 30 s, or when the parent goes away, the process exits.
 */
import { createSdkMcpServer, query, tool } from '@anthropic-ai/claude-agent-sdk';

const pending = new Map();
let nextId = 1;
const abort = new AbortController();

/** Sends a request to the parent and waits for its answer (matched by id). */
function ask(msg) {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    process.send({ ...msg, id });
  });
}

/** The in-process MCP server with lockin's pytest tool (its run happens in the parent, in lockin's sandbox). */
function lockinServer() {
  return createSdkMcpServer({
    name: 'lockin',
    version: '1',
    tools: [
      tool(
        'run_pytest',
        "Runs pytest on this folder's test_solution.py against its solution.py in lockin's sandbox (the `spark` fixture is provided) and returns the outcome and the failures. Takes no arguments.",
        {},
        async (args) => {
          const r = await ask({ type: 'tool', name: 'run_pytest', args });
          return { content: [{ type: 'text', text: r.text }], isError: !!r.isError };
        },
      ),
    ],
  });
}

async function run(prompt, o) {
  const options = {
    cwd: o.cwd,
    model: o.model,
    env: o.env,
    tools: o.tools,
    allowedTools: [],
    systemPrompt: { type: 'preset', preset: 'claude_code', append: o.system },
    settingSources: [],
    persistSession: false,
    maxTurns: o.maxTurns,
    betas: o.betas,
    includePartialMessages: true,
    permissionMode: 'default',
    abortController: abort,
    // Anything that would ask a person is refused: the parent's PreToolUse decision is the only approval.
    canUseTool: async () => ({ behavior: 'deny', message: 'this session has no approval surface: only what lockin allows runs' }),
    hooks: {
      PreToolUse: [
        {
          hooks: [
            async (input) => {
              const d = await ask({ type: 'preToolUse', tool: input.tool_name, input: input.tool_input, toolUseId: input.tool_use_id });
              const out = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: d.allow ? 'allow' : 'deny', permissionDecisionReason: d.reason ?? '' } };
              // A stopped session (a limit reached) makes no further request.
              return d.stop ? { ...out, continue: false, stopReason: d.reason } : out;
            },
          ],
        },
      ],
    },
    stderr: (text) => process.send({ type: 'stderr', text: String(text) }),
  };
  if (o.pytest) options.mcpServers = { lockin: lockinServer() };
  for await (const m of query({ prompt, options })) {
    if (m.type === 'stream_event') {
      const t = m.event?.type;
      if (t === 'message_start' || t === 'message_delta') process.send({ type: 'usage', event: m.event });
      continue;
    }
    process.send({ type: 'message', message: m });
  }
}

const startTimer = setTimeout(() => process.exit(3), 30_000);
process.on('disconnect', () => {
  abort.abort();
  process.exit(4);
});
process.on('message', (msg) => {
  if (msg.type === 'start') {
    clearTimeout(startTimer);
    run(msg.prompt, msg.options).then(
      () => process.send({ type: 'done' }, () => process.exit(0)),
      (e) => process.send({ type: 'error', message: String(e?.stack ?? e) }, () => process.exit(1)),
    );
  } else if (msg.type === 'decision' || msg.type === 'toolResult') {
    const resolve = pending.get(msg.id);
    pending.delete(msg.id);
    if (resolve) resolve(msg);
  } else if (msg.type === 'abort') {
    abort.abort();
  }
});
