/**
 * Execution group: pytest outcomes on fixture suites, and sandboxed candidate runs (timeout,
 * exception, forbidden read of a reference, correct output) on a tiny typed database.
 * Starts five JVMs in bubblewrap (local[1], 1g) plus one killed by the timeout: about 1.5 minutes
 * on an idle 2-core machine, about 5 minutes when it is saturated (load average 25+).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { tableFromIPC } from 'apache-arrow';
import { executeCandidate, smokeCheck } from '../../activities/execution/execute';
import { runPytest } from '../../activities/execution/pytest';
import { isolationMode } from '../../activities/common/isolation';
import { referencesDir, venvPython } from '../../activities/common/paths';
import { DEFAULT_SPARK_SETTINGS, type SparkSettings } from '../../protocol/settings';

const FIX = path.join(__dirname, '..', 'fixtures', 'execution');
const SETTINGS: SparkSettings = { ...DEFAULT_SPARK_SETTINGS, master: 'local[1]', shufflePartitions: 2, defaultParallelism: 1, driverMemory: '1g' };

let work: string;
let dbDir: string;
const savedHome = process.env.LOCKIN_HOME;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-exec-test-'));
  process.env.LOCKIN_HOME = path.join(work, 'home'); // a LOCKIN_HOME-like state folder with a planted reference
  dbDir = path.join(work, 'db');
  const r = spawnSync(venvPython(), [path.join(FIX, 'make_tiny_db.py'), dbDir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`make_tiny_db.py failed: ${r.stderr}`);
});

afterAll(() => {
  if (savedHome === undefined) delete process.env.LOCKIN_HOME;
  else process.env.LOCKIN_HOME = savedHome;
  if (!process.env.LOCKIN_TEST_KEEP) fs.rmSync(work, { recursive: true, force: true });
});

/** Copies a fixture folder into the work folder as `<name>/artifacts` (so ../pytest is private). */
function artifacts(fixture: string, name: string): string {
  const dir = path.join(work, name, 'artifacts');
  fs.mkdirSync(dir, { recursive: true });
  fs.cpSync(path.join(FIX, fixture), dir, { recursive: true });
  return dir;
}

describe('runPytest', () => {
  test('a passing suite passes with exact counts; the model conftest.py and pytest.ini are ignored', async () => {
    const dir = artifacts('suites/passing', 'passing');
    const out = await runPytest({ dir, settings: SETTINGS, timeoutMs: 150000, runLabel: 'initial' });
    expect(out.status).toBe('completed');
    expect(out.exitCode).toBe(0);
    expect(out.counts).toEqual({ passed: 2, failed: 0, errored: 0, collectionFailed: 0, skipped: 1, total: 3 });
    expect(out.passed).toBe(true);
    expect(out.junitFile).toBe(path.join(work, 'passing', 'pytest', 'junit-initial.xml'));
    expect(fs.existsSync(out.junitFile!)).toBe(true);
    expect(fs.readFileSync(out.failuresFile, 'utf8')).toContain('No failing case was reported.');
  });

  test('failing assertions: counted, not passed, messages in the failure summary', async () => {
    const dir = artifacts('suites/failing', 'failing');
    const outDir = path.join(work, 'failing-out');
    const out = await runPytest({ dir, settings: SETTINGS, timeoutMs: 60000, runLabel: 'revise-1', outDir });
    expect(out.status).toBe('completed');
    expect(out.exitCode).toBe(1);
    expect(out.counts).toEqual({ passed: 1, failed: 2, errored: 0, collectionFailed: 0, skipped: 0, total: 3 });
    expect(out.passed).toBe(false);
    expect(out.failuresFile).toBe(path.join(outDir, 'failures-revise-1.md'));
    const summary = fs.readFileSync(out.failuresFile, 'utf8');
    expect(summary).toContain('FAILED test_solution::test_fails');
    expect(summary).toContain('arithmetic is broken');
    expect(summary).toContain('FAILED test_solution::test_also_fails');
    expect(summary).not.toContain('test_passes');
  });

  test('a syntax error in test_solution.py is a collection failure, not a pass', async () => {
    const dir = artifacts('suites/collection', 'collection');
    const out = await runPytest({ dir, settings: SETTINGS, timeoutMs: 60000, runLabel: 'initial' });
    expect(out.status).toBe('completed');
    expect(out.exitCode).toBe(2);
    expect(out.counts).toEqual({ passed: 0, failed: 0, errored: 0, collectionFailed: 1, skipped: 0, total: 1 });
    expect(out.passed).toBe(false);
    expect(fs.readFileSync(out.failuresFile, 'utf8')).toContain('COLLECTION ERROR');
  });
});

describe('runPytest limits', () => {
  test('a hanging test is failed by the per-test limit; the rest of the report survives', async () => {
    const dir = artifacts('suites/hangs', 'hangs-per-test');
    const out = await runPytest({ dir, settings: SETTINGS, timeoutMs: 60000, runLabel: 'initial', perTestTimeoutS: 2 });
    expect(out.status).toBe('completed');
    expect(out.counts).toEqual({ passed: 1, failed: 1, errored: 0, collectionFailed: 0, skipped: 0, total: 2 });
    expect(out.passed).toBe(false);
    expect(fs.readFileSync(out.failuresFile, 'utf8')).toContain('Timeout');
    // Out of time: pytest ran once more; the outcome is the second attempt, the first is recorded.
    expect(out.timedOutTests).toEqual(['test_solution::test_hangs']);
    expect(out.rerunAfterTimeout).toMatchObject({ status: 'completed', counts: { passed: 1, failed: 1, total: 2 }, timedOutTests: ['test_solution::test_hangs'] });
    expect(fs.readFileSync(out.failuresFile.replace(/\.md$/, '.attempt-1.md'), 'utf8')).toContain('Timeout');
  });

  test('no test_solution.py: a crash outcome with a summary that says so', async () => {
    const dir = artifacts('candidates/raises', 'no-tests');
    const out = await runPytest({ dir, settings: SETTINGS, timeoutMs: 6000, runLabel: 'initial' });
    expect(out).toMatchObject({ status: 'crash', passed: false, exitCode: null });
    expect(fs.readFileSync(out.failuresFile, 'utf8')).toContain('there is no test_solution.py');
  });

  test('a suite that outlives the wall-clock limit is a timeout outcome, not an exception', async () => {
    const dir = artifacts('suites/hangs', 'hangs-wall');
    const out = await runPytest({ dir, settings: SETTINGS, timeoutMs: 6000, runLabel: 'initial', perTestTimeoutS: 600 });
    expect(out.status).toBe('timeout');
    expect(out.passed).toBe(false);
    expect(out.exitCode).toBeNull();
    expect(out.junitFile).toBeUndefined();
    expect(fs.readFileSync(out.failuresFile, 'utf8')).toContain('pytest did not finish within 6 s and was stopped.');
    expect(out.rerunAfterTimeout).toMatchObject({ status: 'timeout', timedOutTests: [] });
  });
});

describe('executeCandidate', () => {
  test('the sandbox is bubblewrap on this machine', () => {
    expect(isolationMode()).toBe('bwrap');
  });

  test('a correct candidate: ok, Arrow output with the right rows, schema.json', async () => {
    const dir = artifacts('candidates/correct', 'correct');
    const outDir = path.join(work, 'correct', 'execution');
    const out = await executeCandidate({ dir, scale: 0.01, settings: SETTINGS, outDir, timeoutMs: 150000, memoryMb: 1024, dbDir });
    expect(out.reason).toBeUndefined();
    expect(out.status).toBe('ok');
    expect(out.isolation).toBe('bwrap');
    expect(out.rows).toBe(2);
    const table = tableFromIPC(fs.readFileSync(out.outputFile!));
    const rows = table.toArray().map((r) => ({ c: String(r.i_category), q: Number(r.total_quantity), n: Number(r.sales) }));
    rows.sort((a, b) => a.c.localeCompare(b.c));
    expect(rows).toEqual([{ c: 'Books', q: 12, n: 4 }, { c: 'Music', q: 3, n: 1 }]);
    const schema = JSON.parse(fs.readFileSync(out.schemaFile!, 'utf8'));
    expect(schema.fields.map((f: { name: string; type: string }) => [f.name, f.type])).toEqual([
      ['i_category', 'string'], ['total_quantity', 'long'], ['sales', 'long'],
    ]);
  });

  test('a candidate that raises: exception with its message', async () => {
    const dir = artifacts('candidates/raises', 'raises');
    const out = await executeCandidate({ dir, scale: 0.01, settings: SETTINGS, outDir: path.join(work, 'raises', 'execution'), timeoutMs: 150000, memoryMb: 1024, dbDir });
    expect(out.status).toBe('exception');
    expect(out.reason).toContain('ValueError: the candidate gave up on purpose (solution.py line 2)');
    expect(out.outputFile).toBeUndefined();
  });

  test('a candidate that loops forever: timeout, process tree killed, the test process stays up', async () => {
    const dir = artifacts('candidates/loops', 'loops');
    const started = Date.now();
    const out = await executeCandidate({ dir, scale: 0.01, settings: SETTINGS, outDir: path.join(work, 'loops', 'execution'), timeoutMs: 15000, memoryMb: 1024, dbDir });
    expect(out.status).toBe('timeout');
    expect(out.reason).toBe('no result within 15 s; the process tree was killed');
    expect(Date.now() - started).toBeLessThan(15000 + 10000);
  });

  /** Plants a fake reference under the test LOCKIN_HOME and a candidate that reads it at import. */
  function peekingCandidate(name: string): { dir: string; ref: string } {
    const ref = path.join(referencesDir(0.01), 'q3', 'output.arrow');
    fs.mkdirSync(path.dirname(ref), { recursive: true });
    fs.writeFileSync(ref, 'SECRET-REFERENCE-ROWS');
    const dir = path.join(work, name, 'artifacts');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'solution.py'),
      `with open(${JSON.stringify(ref)}) as fh:\n    DATA = fh.read()\n\n\ndef solve(spark, tables):\n    return spark.createDataFrame([(DATA,)], "x string")\n`,
    );
    return { dir, ref };
  }

  test('a candidate that opens a reference file (at import): forbidden-access, file not readable', async () => {
    const { dir, ref } = peekingCandidate('peeks');
    const out = await executeCandidate({ dir, scale: 0.01, settings: SETTINGS, outDir: path.join(work, 'peeks', 'execution'), timeoutMs: 150000, memoryMb: 1024, dbDir });
    expect(out.status).toBe('forbidden-access');
    expect(out.isolation).toBe('bwrap');
    expect(out.reason).toContain(ref);
    expect(out.reason).not.toContain('SECRET-REFERENCE-ROWS');
    expect(out.outputFile).toBeUndefined();
  });

});

describe('smokeCheck', () => {
  test('the correct candidate returns an analysable DataFrame', async () => {
    const dir = artifacts('candidates/correct', 'smoke');
    const out = await smokeCheck({ dir, scale: 0.01, settings: SETTINGS, dbDir, timeoutMs: 150000 });
    expect(out).toMatchObject({ ok: true, schema: 'struct<i_category:string,total_quantity:bigint,sales:bigint>' });
  });
});
