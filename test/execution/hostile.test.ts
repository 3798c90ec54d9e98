/**
 * Hostile candidates (README "Security"), each written the way it was found: suites that fake a pass,
 * and code that plants symlinks to overwrite host files or to pass the reference off as its
 * output. None of the suites here uses Spark, so each pytest run takes a few seconds. Every case
 * runs in both Spark modes (warm Spark slots): cold, and as a job of a warm slot (activities/execution/slots.ts).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runPytest } from '../../activities/execution/pytest';
import { DEFAULT_SPARK_SETTINGS, type SparkMode, type SparkSettings } from '../../protocol/settings';
import { MODES_UNDER_TEST } from '../support/modes';
import { stopAllSlots } from '../../activities/execution/slots';

const SETTINGS: SparkSettings = { ...DEFAULT_SPARK_SETTINGS, master: 'local[1]', shufflePartitions: 2, defaultParallelism: 1, driverMemory: '1g' };

let work: string;
let victim: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-hostile-test-'));
  victim = path.join(work, 'VICTIM.txt');
  fs.writeFileSync(victim, 'precious host file\n');
});
afterAll(async () => {
  await stopAllSlots();
  fs.rmSync(work, { recursive: true, force: true });
});

/** A condition folder `<name>/artifacts` holding the given files (so ../pytest is its pytest folder). */
function condition(name: string, files: Record<string, string>): string {
  const dir = path.join(work, mode, name, 'artifacts');
  fs.mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
  return dir;
}

const SOLUTION = 'def solve(spark, tables):\n    return None\n';

/** The Spark mode of the cases being defined (describe.each below). */
let mode: SparkMode = 'cold';

/** One pytest run of `dir` in `m`; checks that it really ran in that mode. */
async function pytestIn(m: SparkMode, dir: string) {
  const out = await runPytest({ dir, settings: SETTINGS, timeoutMs: 60000, runLabel: 'initial', sparkMode: m });
  expect(out.spark?.mode).toBe(m);
  return out;
}

describe.each(MODES_UNDER_TEST)('%s Spark', (m) => {
  beforeAll(() => {
    mode = m;
  });

  describe('fake passes are not passes', () => {
    test('a JUnit file written at the --junitxml path, then os._exit(0): crash, not a pass', async () => {
      const dir = condition('junit-exit', {
        'solution.py': SOLUTION,
        'test_solution.py': [
          'import os, sys',
          'FAKE = \'<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="1"><testcase classname="test_solution" name="test_ok"/></testsuite></testsuites>\'',
          '',
          'def test_wrong():',
          '    assert 1 == 2',
          '',
          'def test_zz_fake():',
          '    for a in sys.argv:',
          '        if a.startswith("--junitxml="):',
          '            with open(a.split("=", 1)[1], "w") as fh:',
          '                fh.write(FAKE)',
          '    os._exit(0)',
          '',
        ].join('\n'),
      });
      const out = await pytestIn(m, dir);
      expect(out.exitCode).toBe(0); // what the process said
      expect(out.status).toBe('crash');
      expect(out.passed).toBe(false);
      expect(out.notPassedBecause).toBe("pytest ended (exit 0) before the harness's final report: the suite or the code under test ended the process itself");
      expect(out.counts).toEqual({ passed: 0, failed: 1, errored: 0, collectionFailed: 0, skipped: 0, total: 1 });
      expect(fs.readFileSync(out.failuresFile, 'utf8')).toContain('Not a pass: pytest ended (exit 0)');
    });

    test('a makereport hook registered at import through gc: not a pass, the hook and the disagreement named', async () => {
      const dir = condition('gc-hook', {
        'solution.py': SOLUTION,
        'test_solution.py': [
          'import gc',
          'import pytest',
          'from _pytest.config import Config',
          '',
          'class _Forge:',
          '    @pytest.hookimpl(wrapper=True)',
          '    def pytest_runtest_makereport(self, item, call):',
          '        rep = yield',
          '        rep.outcome = "passed"',
          '        rep.longrepr = None',
          '        return rep',
          '',
          'for _o in gc.get_objects():',
          '    if isinstance(_o, Config):',
          '        _o.pluginmanager.register(_Forge(), "forge")',
          '',
          'def test_wrong():',
          '    assert 1 == 2',
          '',
        ].join('\n'),
      });
      const out = await pytestIn(m, dir);
      expect(out.exitCode).toBe(0); // the forged report fooled pytest itself
      expect(out.status).toBe('completed');
      expect(out.passed).toBe(false);
      expect(out.counts).toEqual({ passed: 0, failed: 1, errored: 0, collectionFailed: 0, skipped: 0, total: 1 });
      expect(out.notPassedBecause).toBe(
        'the suite registered its own pytest hooks: test_solution.pytest_runtest_makereport (pytest_runtest_makereport); ' +
          "pytest's report disagrees with what happened: test_solution::test_wrong (call: AssertionError: assert 1 == 2, reported passed)",
      );
    });

    test('pytest_plugins = ["solution"] with the hook in solution.py: not a pass', async () => {
      const dir = condition('plugins-solution', {
        'solution.py': [
          'import pytest',
          '',
          '@pytest.hookimpl(tryfirst=True)',
          'def pytest_runtest_makereport(item, call):',
          '    from _pytest.reports import TestReport',
          '    call.excinfo = None',
          '    return TestReport.from_item_and_call(item, call)',
          '',
          'def solve(spark, tables):',
          '    return None',
          '',
        ].join('\n'),
        'test_solution.py': ['pytest_plugins = ["solution"]', '', 'def test_wrong():', '    assert 1 == 2', ''].join('\n'),
      });
      const out = await pytestIn(m, dir);
      expect(out.passed).toBe(false);
      expect(out.counts.failed).toBe(1);
      expect(out.notPassedBecause).toContain('the suite registered its own pytest hooks: solution.pytest_runtest_makereport (pytest_runtest_makereport)');
    });

    test('a suite whose tests are all skipped is not a pass', async () => {
      const dir = condition('all-skipped', {
        'solution.py': SOLUTION,
        'test_solution.py': ['import pytest', '', 'pytestmark = pytest.mark.skip', '', 'def test_a():', '    assert False', '', 'def test_b():', '    assert False', ''].join('\n'),
      });
      const out = await pytestIn(m, dir);
      expect(out.exitCode).toBe(0);
      expect(out.status).toBe('completed');
      expect(out.passed).toBe(false);
      expect(out.counts).toEqual({ passed: 0, failed: 0, errored: 0, collectionFailed: 0, skipped: 2, total: 2 });
      expect(out.notPassedBecause).toBe('no test ran: all 2 collected tests were skipped');
    });

    test('an honest suite without Spark still passes (the checks do not reject it)', async () => {
      const dir = condition('honest', {
        'solution.py': SOLUTION,
        'test_solution.py': ['import pytest', '', 'def test_a():', '    assert 1 + 1 == 2', '', '@pytest.mark.skip(reason="later")', 'def test_b():', '    pass', '', '@pytest.mark.xfail', 'def test_c():', '    assert False', ''].join('\n'),
      });
      const out = await pytestIn(m, dir);
      expect(out.notPassedBecause).toBeUndefined();
      expect(out).toMatchObject({ status: 'completed', exitCode: 0, passed: true });
      expect(out.counts).toEqual({ passed: 1, failed: 0, errored: 0, collectionFailed: 0, skipped: 2, total: 3 });
      expect(out.limits).toMatchObject({ scratchMb: 1024, processes: 2048 });
    });
  });

  describe('the host is not writable from a suite', () => {
    test('symlinks to a VICTIM planted where the harness used to write its logs: the victim is untouched', async () => {
      const names = ['pytest-initial.log', 'failures-initial.md', 'junit-initial.xml', 'summary.json'];
      const dir = condition('victim', {
        'solution.py': SOLUTION,
        'test_solution.py': [
          'import os',
          `VICTIM = ${JSON.stringify(victim)}`,
          `NAMES = ${JSON.stringify(names)}`,
          'planted = []',
          'for folder in ["/lockin/out", os.getcwd(), os.path.dirname(os.getcwd()), "/tmp"]:',
          '    for n in NAMES:',
          '        try:',
          '            os.symlink(VICTIM, os.path.join(folder, n)); planted.append(folder)',
          '        except OSError:',
          '            pass',
          'try:',
          '    open(VICTIM, "w").write("overwritten by the candidate")',
          'except OSError:',
          '    pass',
          '',
          'def test_ok():',
          '    print("candidate-controlled text " * 10)',
          '    assert sorted(set(planted)) == ["/tmp"]',
          '',
        ].join('\n'),
      });
      const out = await pytestIn(m, dir);
      expect(fs.readFileSync(victim, 'utf8')).toBe('precious host file\n');
      expect(out).toMatchObject({ status: 'completed', passed: true }); // only the private /tmp took the symlinks
      const pytestDir = path.join(work, m, 'victim', 'pytest');
      expect(fs.readdirSync(pytestDir).sort()).toEqual(['failures-initial.md', 'junit-initial.xml', 'pytest-initial.log']);
      for (const f of fs.readdirSync(pytestDir)) expect(fs.lstatSync(path.join(pytestDir, f)).isFile()).toBe(true);
      expect(fs.existsSync(path.join(work, m, 'victim', 'artifacts', 'summary.json'))).toBe(false);
    });
  });
});
