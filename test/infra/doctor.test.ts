/** `lockin doctor`'s machine section: worker slots, sandbox and the Temporal ports, as lines. */
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { machineLines } from '../../client/commands/doctor';
import { defaultSlotCount } from '../../activities/common/sparkMode';

const KEYS = ['LOCKIN_HOME', 'LOCKIN_SPARK_SLOTS', 'LOCKIN_SPARK_CONCURRENCY', 'LOCKIN_MODEL_CONCURRENCY', 'LOCKIN_ISOLATION', 'LOCKIN_TEMPORAL_PORT', 'LOCKIN_TEMPORAL_UI_PORT', 'TEMPORAL_ADDRESS', 'LOCKIN_SPARK_MODE', 'LOCKIN_SUITE_PROCESSES', 'LOCKIN_SPARK_JIT'];
const saved: Record<string, string | undefined> = {};
let server: net.Server;
let takenPort = 0;
let freePort = 0;

async function listen(): Promise<net.Server> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return s;
}

beforeAll(async () => {
  for (const k of KEYS) saved[k] = process.env[k];
  server = await listen();
  takenPort = (server.address() as net.AddressInfo).port;
  const probe = await listen();
  freePort = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  process.env.LOCKIN_HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-doctor-'));
  process.env.LOCKIN_SPARK_CONCURRENCY = '1';
  delete process.env.LOCKIN_SPARK_SLOTS;
  process.env.LOCKIN_MODEL_CONCURRENCY = '3';
  process.env.LOCKIN_ISOLATION = 'checked-only';
  delete process.env.TEMPORAL_ADDRESS;
  delete process.env.LOCKIN_SPARK_MODE;
  delete process.env.LOCKIN_SUITE_PROCESSES;
  delete process.env.LOCKIN_SPARK_JIT;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  for (const k of KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

test('names the slots from the environment, the sandbox, and a gRPC port taken by another process', async () => {
  process.env.LOCKIN_TEMPORAL_PORT = String(takenPort);
  process.env.LOCKIN_TEMPORAL_UI_PORT = String(freePort);
  const lines = await machineLines();
  expect(lines.slice(1)).toEqual([
    `Spark jobs at once: 1 (from LOCKIN_SPARK_CONCURRENCY); warm slots kept at most: ${defaultSlotCount(1, os.totalmem())} (2 × Spark jobs at once + 1, at most one per 4 GiB of memory; LOCKIN_SPARK_SLOTS overrides)`,
    `suite variants at once: ${os.cpus().length >= 2 ? 2 : 1} (2 when the Spark jobs at once leave two cores per job, else 1; LOCKIN_SUITE_PROCESSES overrides; a suite that reaches what a JVM's sessions share runs one at a time; the same for a job executing gold, its mutants and violations below SF=1, one at SF=1)`,
    'model calls at once: 3 (from LOCKIN_MODEL_CONCURRENCY)',
    'sandbox for candidate code and tests: checked file access only (neither bubblewrap nor unshare usable: candidate code is NOT network-isolated)',
    'Spark mode: warm (the default), but jobs run cold here: isolation is checked-only, warm slots need bubblewrap',
    'JIT of the jobs\' JVMs: tiered, the JVM\'s default (LOCKIN_SPARK_JIT=quick for C1 only, which gained nothing measurable here once JVMs are warm); the database build and the references keep the default (docs/timings.md "The floor: the cores")',
    `Temporal: not running; port(s) ${takenPort} taken by another process: set LOCKIN_TEMPORAL_PORT / LOCKIN_TEMPORAL_UI_PORT, or TEMPORAL_ADDRESS`,
  ]);
  expect(lines[0]).toMatch(new RegExp(`^cores: ${os.cpus().length}; memory: `));
});

test('says both ports are free when nothing listens, and leaves Temporal out for a cluster', async () => {
  process.env.LOCKIN_TEMPORAL_PORT = String(freePort);
  process.env.LOCKIN_TEMPORAL_UI_PORT = String(freePort);
  expect((await machineLines())[7]).toBe(`Temporal: not running; ports ${freePort} (gRPC) and ${freePort} (UI) are free (\`lockin server start\`, or any study command, starts it)`);
  process.env.LOCKIN_SPARK_JIT = 'c2';
  await expect(machineLines()).rejects.toThrow('LOCKIN_SPARK_JIT: "c2" is not tiered or quick');
  delete process.env.LOCKIN_SPARK_JIT;
  process.env.TEMPORAL_ADDRESS = 'temporal.example:7233';
  expect(await machineLines()).toHaveLength(7);
  delete process.env.TEMPORAL_ADDRESS;
});
