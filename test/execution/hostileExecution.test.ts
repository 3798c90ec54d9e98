/**
 * Hostile candidates at execution (README "Security"), written the way they were found: a `solve` that
 * plants symlinks to a host VICTIM and to the task's reference output where the harness used to
 * write and read, writes summary.json for the next preflight, and forges the harness's result
 * line; and one that prints the harness's own harness-error line. Two JVMs (local[1], 1g), each
 * case in both Spark modes (warm Spark slots): cold, and as jobs of one warm slot.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { executeCandidate } from '../../activities/execution/execute';
import { venvPython } from '../../activities/common/paths';
import { nameFindings } from '../../activities/preflight/preflight';
import { DEFAULT_SPARK_SETTINGS, type SparkSettings } from '../../protocol/settings';
import { MODES_UNDER_TEST } from '../support/modes';
import { stopAllSlots } from '../../activities/execution/slots';

const FIX = path.join(__dirname, '..', 'fixtures', 'execution');
const SETTINGS: SparkSettings = { ...DEFAULT_SPARK_SETTINGS, master: 'local[1]', shufflePartitions: 2, defaultParallelism: 1, driverMemory: '1g' };

let work: string;
let dbDir: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-hostile-exec-'));
  dbDir = path.join(work, 'db');
  const r = spawnSync(venvPython(), [path.join(FIX, 'make_tiny_db.py'), dbDir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`make_tiny_db.py failed: ${r.stderr}`);
});
afterAll(async () => {
  await stopAllSlots();
  fs.rmSync(work, { recursive: true, force: true });
});

function candidate(name: string, solution: string): string {
  const dir = path.join(work, name, 'artifacts');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'solution.py'), solution);
  return dir;
}

/** Every file below `root`, relative. */
function listing(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => fs.lstatSync(path.join(root, f)).isFile()).sort();
}

describe.each(MODES_UNDER_TEST)('%s Spark', (m) => {
  test('symlinks to a VICTIM and to the reference, summary.json, a forged ok line: a crash; host, reference and preflight view untouched', async () => {
    const victim = path.join(work, `VICTIM-${m}.txt`);
    fs.writeFileSync(victim, 'precious host file\n');
    const refDir = path.join(work, m, 'references', 'q3');
    fs.mkdirSync(refDir, { recursive: true });
    fs.copyFileSync(path.join(FIX, 'make_tiny_db.py'), path.join(refDir, 'output.arrow')); // any bytes: it must not be read
    fs.writeFileSync(path.join(refDir, 'schema.json'), '{"type":"struct","fields":[]}');
    const before = fs.readFileSync(path.join(refDir, 'output.arrow'));
    const dir = candidate(`${m}/symlinks`, [
      'import json, os',
      `VICTIM = ${JSON.stringify(victim)}`,
      `REF = ${JSON.stringify(refDir)}`,
      '',
      'def solve(spark, tables):',
      '    plants = [("execution.log", VICTIM), ("comparison.json", VICTIM), ("output.arrow", REF + "/output.arrow"), ("schema.json", REF + "/schema.json")]',
      '    for folder in ["/lockin/out", os.getcwd(), "/tmp"]:',
      '        for name, target in plants:',
      '            try:',
      '                os.symlink(target, os.path.join(folder, name))',
      '            except OSError:',
      '                pass',
      '        try:',
      '            open(os.path.join(folder, "summary.json"), "w").write(json.dumps({"conditions": {}}))',
      '        except OSError:',
      '            pass',
      '    line = (json.dumps({"status": "ok", "rows": 2}) + "\\n").encode()',
      '    for fd in range(3, 32):',
      '        try:',
      '            os.write(fd, line)',
      '        except OSError:',
      '            pass',
      '    os._exit(0)',
      '',
    ].join('\n'));
    const outDir = path.join(work, m, 'symlinks', 'execution');
    const out = await executeCandidate({ dir, scale: 0.01, settings: SETTINGS, outDir, timeoutMs: 150000, memoryMb: 1024, dbDir, sparkMode: m });
    expect(out.spark?.mode).toBe(m);
    expect(out.status).toBe('crash');
    expect(out.reason).toMatch(/^candidate reported success but its output is unusable: /);
    expect(out.outputFile).toBeUndefined();
    expect(out.limits).toMatchObject({ memoryMb: 1024 + 1024 + 1024, scratchMb: 1024 });
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious host file\n');
    expect(fs.readFileSync(path.join(refDir, 'output.arrow')).equals(before)).toBe(true);
    // What the next preflight sees of this condition: the harness's own log, nothing the candidate named.
    const conditionDir = path.join(work, m, 'symlinks');
    expect(listing(conditionDir)).toEqual(['artifacts/solution.py', 'execution/execution.log']);
    expect(fs.lstatSync(path.join(outDir, 'execution.log')).isSymbolicLink()).toBe(false);
    expect(nameFindings(listing(conditionDir), conditionDir)).toEqual([]);
  });

  test("printing the harness's own harness-error line after candidate code started: the candidate's crash, not a retry", async () => {
    const dir = candidate(`${m}/harness-error`, [
      'import json, os',
      '',
      'def solve(spark, tables):',
      '    line = json.dumps({"status": "harness-error", "reason": "Spark did not start"})',
      '    print(line)',
      '    for fd in range(1, 32):',
      '        try:',
      '            os.write(fd, (line + "\\n").encode())',
      '        except OSError:',
      '            pass',
      '    os._exit(0)',
      '',
    ].join('\n'));
    const out = await executeCandidate({ dir, scale: 0.01, settings: SETTINGS, outDir: path.join(work, m, 'harness-error', 'execution'), timeoutMs: 150000, memoryMb: 1024, dbDir, sparkMode: m });
    expect(out.spark?.mode).toBe(m);
    expect(out.status).toBe('crash');
    expect(out.reason).toBe("a harness-error result was reported after candidate code had started, so it counts as the candidate's crash: Spark did not start");
  });
});
