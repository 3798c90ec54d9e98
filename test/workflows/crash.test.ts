/**
 * Crash test (issue "The study as Temporal workflows"): SIGKILL the worker process mid-study,
 * start it again; the study completes, its run records equal an uninterrupted run's, and the
 * model backend (a local stub of the Messages API) received exactly one request per distinct
 * request: no call paid twice. Killed while calls are in flight (paid once): each lost
 * request is sent again once, billed once where the API honours its idempotency key (the
 * stub's chat completions) and twice where it does not (the Messages API), and each repeat is
 * reported in the ledger, the call file and the study's summary line.
 */
import { ChildProcess, spawn } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { AddressInfo } from 'net';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createTestEnv } from '../support/temporalEnv';
import { buildStudyInput } from '../../client/studyInput';
import { PAPER_CONDITIONS } from '../../protocol/conditions';
import { readRunRecords } from '../../activities/store/records';
import { REPO_ROOT, sparkTestsJar } from '../../activities/common/paths';
import { ledgerRepeats, readLedger } from '../../activities/model/ledger';
import { repeatsLine } from '../../client/studyRunner';
import { idempotencyKey } from '../../activities/model/sends';
import { modelStudyId } from '../../protocol/layout';
import { ACTIVITY_TIMEOUTS_MEMO } from '../../workflows/interceptors';

/** Activities lost with a killed worker are tried again after 10 s, not 30 s (workflows/interceptors.ts). */
const memo = { [ACTIVITY_TIMEOUTS_MEMO]: { heartbeatTimeout: '10s', initialInterval: '1s' } };

const FENCE = '```';
const REPLY = [
  'Here are the artifacts.',
  `${FENCE}markdown plan.md`, '# Plan', 'Join store_sales to date_dim; filter; aggregate.', FENCE,
  `${FENCE}python solution.py`, 'def solve(spark, tables):', "    return tables['date_dim'].limit(1)", FENCE,
  `${FENCE}python test_solution.py`, 'def test_total(spark):', '    assert 1 == 1', FENCE,
  `${FENCE}json`,
  JSON.stringify({
    obligations: [{ id: 'A1', statement: 'join on the date key' }],
    assessments: [{ id: 'A1', support: 'stated' }],
    groundings: [],
    audit: [{ id: 'A1', plan: 'covered', code: 'covered', tests: 'partial' }],
    actionable: true,
    repairs: [{ id: 'A1', artifact: 'test_solution.py', action: 'assert the join' }],
  }),
  FENCE,
].join('\n');

interface Stub {
  server: http.Server;
  url: string;
  /** sha256 of every request body received (path included), in order. */
  bodies: string[];
  /** The Idempotency-Key header of every request received (undefined when absent), in order. */
  keys: (string | undefined)[];
  /** Requests the stub billed: every Messages API request; a chat completion only the first time its Idempotency-Key is seen. */
  billed: number;
  /** Requests received and not yet answered. */
  pending: number;
  /** When the last answer was sent (ms since epoch). */
  lastAnswerAt: number;
  /** How long the n-th request (1-based) waits for its answer, ms (default 200). */
  delayFor: (n: number) => number;
}

/**
 * A stub of the Messages API (/v1/messages) and of OpenAI-compatible chat completions
 * (/v1/chat/completions) that answers after 200 ms (so a test can tell when no call is in
 * flight). Chat completions honour Idempotency-Key as the IETF draft describes: a request with
 * a key already seen gets the first request's answer and is not billed again.
 */
function startStub(): Promise<Stub> {
  const stub = { bodies: [] as string[], keys: [] as (string | undefined)[], billed: 0, pending: 0, lastAnswerAt: 0, delayFor: () => 200 } as Stub;
  const answers = new Map<string, Promise<string>>();
  stub.server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const openai = (req.url ?? '').endsWith('/chat/completions');
      const key = req.headers['idempotency-key'] as string | undefined;
      stub.bodies.push(crypto.createHash('sha256').update(`${req.url}\n${body}`).digest('hex'));
      stub.keys.push(key);
      stub.pending += 1;
      const n = stub.bodies.length;
      const make = () => {
        stub.billed += 1;
        return new Promise<string>((resolve) =>
          setTimeout(
            () =>
              resolve(
                JSON.stringify(
                  openai
                    ? { id: `chatcmpl_${n}`, object: 'chat.completion', model: 'stub-model', choices: [{ index: 0, message: { role: 'assistant', content: REPLY }, finish_reason: 'stop' }], usage: { prompt_tokens: 1000, completion_tokens: 200 } }
                    : { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: REPLY }], stop_reason: 'end_turn', usage: { input_tokens: 1000, output_tokens: 200 } },
                ),
              ),
            stub.delayFor(n),
          ),
        );
      };
      let answer: Promise<string>;
      if (openai && key && answers.has(key)) answer = answers.get(key)!;
      else {
        answer = make();
        if (openai && key) answers.set(key, answer);
      }
      void answer.then((text) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(text);
        stub.pending -= 1;
        stub.lastAnswerAt = Date.now();
      });
    });
  });
  return new Promise((resolve) => stub.server.listen(0, '127.0.0.1', () => {
    stub.url = `http://127.0.0.1:${(stub.server.address() as AddressInfo).port}`;
    resolve(stub);
  }));
}

let env: TestWorkflowEnvironment;
let stub: Stub;
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-home-'));
const runs = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-runs-'));
const script = { delayMs: 600, pytest: { 'one-pass': [false], 'test-guided': [false, false, true], 'plan-audit': [false, true] } };

function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'test', 'support', 'crashWorker.js')], {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: env.address,
      LOCKIN_HOME: home,
      LOCKIN_RUNS: runs,
      ANTHROPIC_BASE_URL: stub.url,
      ANTHROPIC_API_KEY: 'test-key',
      OPENAI_BASE_URL: `${stub.url}/v1`,
      OPENAI_API_KEY: 'test-key',
      LOCKIN_MODEL_RPM: '0',
      LOCKIN_TEST_SCRIPT: JSON.stringify(script),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('worker ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
  });
}

beforeAll(async () => {
  // The preflight reads the query texts from the Spark tests jar under LOCKIN_HOME.
  fs.mkdirSync(path.dirname(path.join(home, 'cache', 'jars', 'x')), { recursive: true });
  const realJar = sparkTestsJar();
  process.env.LOCKIN_HOME = home;
  if (fs.existsSync(realJar)) fs.symlinkSync(realJar, sparkTestsJar());
  process.env.LOCKIN_RUNS = runs;
  stub = await startStub();
  env = await createTestEnv();
}, 120_000);

afterAll(async () => {
  await env?.teardown();
  stub?.server.close();
});

function comparable(studyId: string) {
  return readRunRecords(studyId).map((r) => ({ task: r.taskId, condition: r.condition, calls: r.callsUsed, stop: r.stopReason, stages: r.stages.map((s) => s.stage), artifacts: r.artifacts, testPassed: r.testPassed }));
}

test('SIGKILL mid-study: the study completes, equals an uninterrupted run, and pays each call once', async () => {
  const tasks = ['q3', 'q7'];
  // Interrupted run.
  const input = buildStudyInput({ studyId: 'crash', tasks, conditions: [...PAPER_CONDITIONS], model: 'anthropic:claude-sonnet-4-6', taskConcurrency: 1, report: false });
  let worker = await startWorker();
  const handle = await env.client.workflow.start('runStudy', { args: [input], workflowId: 'study-crash', taskQueue: 'lockin-default', memo });
  const deadline = Date.now() + 60_000;
  // Kill mid-study, but not while a paid reply is on its way to the worker: a reply the worker
  // never stored would be paid again on retry (at-least-once), which is not what this test measures.
  const quiet = () => stub.pending === 0 && Date.now() - stub.lastAnswerAt > 300;
  // Tasks run one at a time: after q3's 9 calls and q7's shared initial generation, every condition of
  // q7 starts with a 600 ms pytest run, a quiet moment in the middle of the study.
  while (!(stub.bodies.length >= 10 && quiet()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(stub.bodies.length).toBeGreaterThanOrEqual(10);
  worker.kill('SIGKILL');
  await new Promise((r) => worker.once('exit', r));
  const atKill = stub.bodies.length;
  worker = await startWorker();
  try {
    await handle.result();
  } finally {
    worker.kill('SIGKILL');
  }
  expect(atKill).toBeLessThan(stub.bodies.length);
  // Per task: 1 shared generate + test-guided 2 revisions + plan-audit 5 audit + 1 revision = 9 distinct requests.
  expect(new Set(stub.bodies).size).toBe(tasks.length * 9);
  expect(stub.bodies.length).toBe(new Set(stub.bodies).size);

  // Uninterrupted run with a fresh model cache: the same records.
  fs.rmSync(path.join(home, 'cache', 'model'), { recursive: true, force: true });
  worker = await startWorker();
  try {
    await env.client.workflow.execute('runStudy', { args: [{ ...input, studyId: 'clean' }], workflowId: 'study-clean', taskQueue: 'lockin-default', memo });
  } finally {
    worker.kill('SIGKILL');
  }
  const a = comparable('crash');
  expect(a).toHaveLength(6);
  expect(a.map((r) => `${r.task}/${r.condition}:${r.calls}`)).toEqual(['q3/one-pass:1', 'q3/test-guided:3', 'q3/plan-audit:7', 'q7/one-pass:1', 'q7/test-guided:3', 'q7/plan-audit:7']);
  expect(comparable('clean')).toEqual(a);
}, 300_000);

test('SIGKILL while two paid calls are in flight: each is sent again once under its idempotency key; the API that honours the key bills it once, the other twice, and both repeats are reported', async () => {
  fs.rmSync(path.join(home, 'cache', 'model'), { recursive: true, force: true }); // earlier studies cached the same request
  const ANTHROPIC = 'anthropic:claude-sonnet-4-6';
  const OPENAI = 'openai:stub-model';
  // A model matrix runs its models' sub-studies at once: both generate calls are in flight together.
  const input = buildStudyInput({ studyId: 'inflight', tasks: ['q3'], conditions: ['one-pass'], model: ANTHROPIC, models: [ANTHROPIC, OPENAI], taskConcurrency: 1, report: false });
  const from = stub.bodies.length;
  const billedBefore = stub.billed;
  stub.delayFor = (n) => (n <= from + 2 ? 5000 : 200); // the first request of each sub-study is still in flight at the kill
  let worker = await startWorker();
  const handle = await env.client.workflow.start('runStudy', { args: [input], workflowId: 'study-inflight', taskQueue: 'lockin-default', memo });
  const deadline = Date.now() + 60_000;
  while (!(stub.bodies.length >= from + 2 && stub.pending === 2) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(stub.pending).toBe(2);
  worker.kill('SIGKILL');
  await new Promise((r) => worker.once('exit', r));
  worker = await startWorker();
  try {
    await handle.result();
  } finally {
    worker.kill('SIGKILL');
    stub.delayFor = () => 200;
  }
  // Two distinct calls (one generate per model), each sent twice; same body and same key each time.
  const sent = stub.bodies.slice(from);
  const keys = stub.keys.slice(from);
  expect(sent).toHaveLength(4);
  expect(new Set(sent).size).toBe(2);
  const openaiKey = idempotencyKey({ studyId: modelStudyId('inflight', OPENAI), taskId: 'q3', condition: 'shared', stage: 'generate', callIndex: 1, replicate: null, sample: 1, model: OPENAI }, 1);
  expect([...keys].sort()).toEqual([openaiKey, openaiKey, undefined, undefined]);
  // Billed: the Messages API request twice (it takes no key), the chat completion once.
  expect(stub.billed - billedBefore).toBe(3);
  for (const [model, header] of [[ANTHROPIC, null], [OPENAI, 'Idempotency-Key']] as const) {
    const sub = modelStudyId('inflight', model);
    const lines = readLedger().filter((l) => l.studyId === sub);
    const r = ledgerRepeats(lines);
    expect(r.lostSends).toHaveLength(1);
    expect(r.repeats).toHaveLength(1);
    expect(r.repeats[0]).toMatchObject({ status: 'ok', send: 'paid', stage: 'generate', repeatOf: r.lostSends[0].sendId, idempotencyKey: r.lostSends[0].idempotencyKey, attempt: 1, idempotencyHeader: header });
    const cost = model === ANTHROPIC ? '0.0060' : '0.0000'; // 1000 × $3/M + 200 × $15/M; the openai backend has no price table
    expect(repeatsLine(sub)).toBe(
      `paid more than once: 1 request(s) sent whose reply was lost (worker killed mid-call), 1 of them sent again: q3 shared generate call 1${header ? ` (same ${header})` : ''}; the repeats cost $${cost}, the lost requests' cost is in no record (${path.join(home, 'ledger.jsonl')}: status sent without completion; repeatOf)`,
    );
    // The run record's call file names the repeat.
    const call = JSON.parse(fs.readFileSync(path.join(runs, sub, 'tasks', 'q3', 'snapshot', 'calls', '01-generate.json'), 'utf8'));
    expect(call).toMatchObject({ repeatOf: r.lostSends[0].sendId, idempotencyHeader: header, attempt: 1 });
  }
}, 300_000);
