/**
 * Hostile candidates, each written the way it was found: suites that fake a
 * pass (a JUnit file then os._exit, a report hook registered at import, pytest_plugins, an
 * all-skipped suite; the harness's own messages written on its descriptor then os._exit; the
 * harness patched at import; exits with any code; a pickle that resolves an exit), and code that
 * plants symlinks to overwrite host files. Each attack is first refused by the reach check
 * (docs/verdicts.md layer 1: never run, the reason recorded); each is then run with the check
 * off (`reachCheck: false`, tests only) to show the layers behind it (the token, the accounting,
 * the runtime guard) still make it "not passed". None of the suites here uses Spark, so each
 * pytest run takes a few seconds. Every case runs in both Spark modes: cold, and as a
 * job of a warm slot (activities/execution/slots.ts).
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

/** One pytest run of `dir` in `m`, with the reach check off (the layers behind it); checks that it really ran in that mode. */
async function pytestIn(m: SparkMode, dir: string) {
  const out = await runPytest({ dir, settings: SETTINGS, timeoutMs: 60000, runLabel: 'initial', sparkMode: m, reachCheck: false });
  expect(out.spark?.mode).toBe(m);
  return out;
}

/** The same run with the reach check on (as every study runs it): refused, never run. */
async function refusedIn(m: SparkMode, dir: string) {
  const out = await runPytest({ dir, settings: SETTINGS, timeoutMs: 60000, runLabel: 'checked', sparkMode: m });
  expect(out).toMatchObject({ passed: false, status: 'crash', exitCode: null });
  expect(out.spark).toBeUndefined(); // nothing ran
  expect(fs.readFileSync(out.failuresFile, 'utf8')).toContain(`pytest was not run: ${out.notPassedBecause}`);
  return out.notPassedBecause;
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
      expect(await refusedIn(m, dir)).toBe('reaches sys.argv (not among the sys attributes a test needs) (test_solution.py line 8) and 1 more');
      const out = await pytestIn(m, dir);
      expect(out.exitCode).toBe(0); // what the process said
      expect(out.status).toBe('crash');
      expect(out.passed).toBe(false);
      expect(out.notPassedBecause).toBe('the process ended (exit 0) before pytest returned: the suite or the code under test ended it; a test\'s phases were not reported once each, in order: test_solution::test_zz_fake (setup)');
      expect(out.counts).toEqual({ passed: 0, failed: 1, errored: 0, collectionFailed: 0, skipped: 0, total: 1 });
      expect(fs.readFileSync(out.failuresFile, 'utf8')).toContain('Not a pass: the process ended (exit 0)');
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
      expect(await refusedIn(m, dir)).toBe('reaches import of gc (not a module a DataFrame test needs) (test_solution.py line 1) and 6 more');
      const out = await pytestIn(m, dir);
      // Behind the check, the runtime guard refuses gc.get_objects at import: the module does not
      // load (a collection error), and the refusal is the reason.
      expect(out.passed).toBe(false);
      expect(out.notPassedBecause).toContain("reaches the interpreter's objects (gc.get_objects) (refused at run time)");
      expect(out.counts.collectionFailed).toBe(1);
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
      expect(await refusedIn(m, dir)).toBe("reaches pytest_plugins (loads plugins) (test_solution.py line 1) and 4 more");
      const out = await pytestIn(m, dir);
      expect(out.passed).toBe(false);
      expect(out.counts.failed).toBe(1);
      expect(out.notPassedBecause).toContain('the suite registered its own pytest hooks: solution.pytest_runtest_makereport (pytest_runtest_makereport)');
    });

    test("the harness's own messages written on every descriptor, then os._exit(0): forged, not a pass", async () => {
      const dir = condition('forged-channel', {
        'solution.py': SOLUTION,
        'test_solution.py': [
          'import json, os',
          '',
          'def test_wrong():',
          '    assert 1 == 2',
          '',
          'def test_zz_forge():',
          '    msgs = [{"event": "start"}, {"event": "collected", "ids": ["test_solution.py::test_wrong"]}]',
          '    for when in ("setup", "call", "teardown"):',
          '        msgs.append({"event": "phase", "id": "test_solution.py::test_wrong", "when": when, "raw": "passed", "reported": "passed", "xfail": False, "message": "", "text": ""})',
          '    msgs.append({"event": "finished", "exitstatus": 0, "foreignHooks": []})',
          '    data = "".join(json.dumps(x) + "\\n" for x in msgs).encode()',
          '    for fd in range(3, 64):',
          '        try:',
          '            os.write(fd, data)',
          '        except OSError:',
          '            pass',
          '    os._exit(0)',
          '',
        ].join('\n'),
      });
      expect(await refusedIn(m, dir)).toBe('reaches os.write (not among the os attributes a test needs) (test_solution.py line 14) and 1 more');
      const out = await pytestIn(m, dir);
      expect(out).toMatchObject({ passed: false, status: 'crash', exitCode: 0 });
      // The runner's descriptor is private and non-inheritable, but the test found it among 3..63:
      // its 6 messages lack the token. (Had it not found it, the reason would be the early end alone.)
      expect(out.notPassedBecause).toMatch(/^(6 message\(s\) on the harness channel without the run's token \(forged\); )?the process ended \(exit 0\) before pytest returned/);
      expect(out.counts.failed).toBe(1);
    });

    test('the harness patched at import (its send function and hook list replaced) plus a report hook: not a pass', async () => {
      const dir = condition('patched-harness', {
        'solution.py': SOLUTION,
        'test_solution.py': [
          'import sys, pytest',
          'h = sys.modules.get("pytest_harness") or __import__("pytest_harness")',
          'h.ALLOWED_HOOK_MODULES = h.ALLOWED_HOOK_MODULES + ("test_solution",)',
          'h.foreign_hooks = lambda *a, **k: []',
          'h.clip = lambda *a, **k: ""',
          '',
          'class _Forge:',
          '    @pytest.hookimpl(wrapper=True)',
          '    def pytest_runtest_makereport(self, item, call):',
          '        rep = yield',
          '        rep.outcome = "passed"',
          '        rep.longrepr = None',
          '        return rep',
          '',
          'import gc',
          'for _o in gc.get_objects():',
          '    if type(_o).__name__ == "Config":',
          '        _o.pluginmanager.register(_Forge(), "forge")',
          '',
          'def test_wrong():',
          '    assert 1 == 2',
          '',
        ].join('\n'),
      });
      expect(await refusedIn(m, dir)).toBe('reaches sys.modules (not among the sys attributes a test needs) (test_solution.py line 2) and 9 more');
      const out = await pytestIn(m, dir);
      expect(out.passed).toBe(false);
      expect(out.notPassedBecause).toContain("reaches the interpreter's objects (gc.get_objects) (refused at run time)");
    });

    test.each([
      ['os._exit(1)', 'import os\n\ndef test_a():\n    assert True\n\ndef test_b():\n    os._exit(1)\n', 'reaches os._exit (not among the os attributes a test needs) (test_solution.py line 7)', 'the process ended (exit 1) before pytest returned'],
      ['a SIGKILL of itself', 'import os, signal\n\ndef test_a():\n    assert True\n\ndef test_b():\n    os.kill(os.getpid(), signal.SIGKILL)\n', 'reaches import of signal (not a module a DataFrame test needs) (test_solution.py line 1) and 1 more', 'reaches sending a signal (os.kill) (refused at run time)'],
      ['a SIGKILL of its parent', 'import os, signal\n\ndef test_a():\n    assert True\n\ndef test_b():\n    os.kill(os.getppid(), signal.SIGKILL)\n', 'reaches import of signal (not a module a DataFrame test needs) (test_solution.py line 1) and 1 more', 'reaches sending a signal (os.kill) (refused at run time)'],
      ['a pickle that resolves os._exit', 'import pickle\n\ndef test_a():\n    pickle.loads(b"cposix\\n_exit\\n(I0\\ntR.")\n', 'reaches import of pickle (not a module a DataFrame test needs) (test_solution.py line 1)', 'reaches a pickle resolving posix._exit (refused at run time)'],
    ])('exiting early: %s is not a pass, the reason recorded', async (name, text, refusal, reason) => {
      const dir = condition(`exit-${name.replace(/\W+/g, '-')}`, { 'solution.py': SOLUTION, 'test_solution.py': text });
      expect(await refusedIn(m, dir)).toBe(refusal);
      const out = await pytestIn(m, dir);
      expect(out.passed).toBe(false);
      expect(out.notPassedBecause).toContain(reason);
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
      const out = await runPytest({ dir, settings: SETTINGS, timeoutMs: 60000, runLabel: 'initial', sparkMode: m }); // reach check on
      expect(out.spark?.mode).toBe(m);
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
      expect(await refusedIn(m, dir)).toMatch(/^reaches os\.getcwd|^reaches os\.symlink/);
      const out = await pytestIn(m, dir);
      expect(fs.readFileSync(victim, 'utf8')).toBe('precious host file\n');
      expect(out).toMatchObject({ status: 'completed', passed: true }); // only the private /tmp took the symlinks
      const pytestDir = path.join(work, m, 'victim', 'pytest');
      expect(fs.readdirSync(pytestDir).sort()).toEqual(['failures-checked.md', 'failures-initial.md', 'junit-initial.xml', 'pytest-checked.log', 'pytest-initial.log']);
      for (const f of fs.readdirSync(pytestDir)) expect(fs.lstatSync(path.join(pytestDir, f)).isFile()).toBe(true);
      expect(fs.existsSync(path.join(work, m, 'victim', 'artifacts', 'summary.json'))).toBe(false);
    });
  });
});
