/**
 * Shared test utilities of the gateway and preflight tests: a local HTTP stub of the Messages API
 * (and of OpenAI-compatible chat completions: it answers any path)
 * (127.0.0.1, random port) for the real SDK, a per-file temporary LOCKIN_HOME and run tree, and
 * a StageRequest builder for the fixture task q900 (test/fixtures/model/tasks/q900/task.yaml).
 */
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import type { AddressInfo } from 'net';
import { parseReplayText } from '../../activities/model/backends/replay';
import type { StageRequest } from '../../protocol/types';

export const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'model');
export const TASK_ID = 'q900';

export interface StubResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Sent as is instead of JSON.stringify(body) (a malformed reply). */
  raw?: string;
}

export interface StubRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface Stub {
  url: string;
  requests: StubRequest[];
  /** Responses served in order; when empty, `fallback` answers. */
  queue: StubResponse[];
  fallback: StubResponse;
  close(): Promise<void>;
}

/** A Messages API success body with the given text and usage. */
export function messageBody(text: string, usage = { input_tokens: 1000, output_tokens: 500 }, stopReason = 'end_turn'): unknown {
  return {
    id: 'msg_stub',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [{ type: 'text', text }],
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...usage },
  };
}

/** An API error body as the Messages API sends it. */
export function errorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message } };
}

/** Starts the stub; every request is recorded, answered from `queue`, else from `fallback`. */
export async function startStub(fallback: StubResponse = { status: 500, body: errorBody('api_error', 'stub: no scripted response') }): Promise<Stub> {
  const requests: StubRequest[] = [];
  const queue: StubResponse[] = [];
  const stub = { requests, queue, fallback } as Stub;
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(data);
      } catch {
        body = data;
      }
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      const r = stub.queue.shift() ?? stub.fallback;
      res.writeHead(r.status, { 'content-type': 'application/json', ...(r.headers ?? {}) });
      res.end(r.raw ?? JSON.stringify(r.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections(); // the SDK keeps connections alive
    });
  return stub;
}

/** A temporary LOCKIN_HOME + run tree; sets the environment the gateway reads. */
export function tempEnv(stubUrl?: string): { home: string; taskDir: string; dir(condition: string): string; cleanup(): void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-gw-'));
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  process.env.LOCKIN_HOME = home;
  process.env.LOCKIN_TASKS = path.join(FIXTURES, 'tasks');
  process.env.ANTHROPIC_API_KEY = 'test-key';
  process.env.LOCKIN_MODEL_BACKOFF_MS = '5';
  process.env.LOCKIN_MODEL_MAX_RETRIES = '3';
  process.env.LOCKIN_MODEL_RPM = '0';
  if (stubUrl) process.env.ANTHROPIC_BASE_URL = stubUrl;
  const taskDir = path.join(root, 'runs', 'study1', 'tasks', TASK_ID);
  return {
    home,
    taskDir,
    dir(condition: string) {
      const d = path.join(taskDir, condition);
      fs.mkdirSync(d, { recursive: true });
      return d;
    },
    cleanup() {
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A StageRequest for the fixture task with the study's parameters. */
export function stageRequest(over: Partial<StageRequest> & Pick<StageRequest, 'workDir'>): StageRequest {
  return {
    studyId: 'study1',
    taskId: TASK_ID,
    condition: 'shared',
    stage: 'generate',
    callIndex: 1,
    model: 'anthropic:claude-sonnet-4-6',
    params: { temperature: 1, topP: 1, maxTokens: 4000, longContext: true },
    inputs: {},
    ...over,
  };
}

/** A valid generate reply (the replay fixture's text, without its provenance front matter). */
export function generateReply(): string {
  const file = path.join(FIXTURES, 'replay', TASK_ID, 'generate.md');
  return parseReplayText(fs.readFileSync(file, 'utf8'), file).text;
}

export function readJson(file: string): any {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}
