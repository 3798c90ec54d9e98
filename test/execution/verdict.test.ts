/** The pytest verdict from the runner's channel (activities/execution/verdict.ts; docs/verdicts.md layer 2): worked examples, one per rule. */
import { caseId, pytestVerdict, testFunction } from '../../activities/execution/verdict';

const ok = { exitCode: 0, timedOut: false, memoryExceeded: false };
const lines = (...msgs: object[]) => msgs.map((m) => JSON.stringify(m)).join('\n') + '\n';
const phase = (id: string, when: string, raw: string, reported = raw, extra: object = {}) => ({ event: 'phase', id, when, raw, reported, xfail: false, message: raw === 'failed' ? 'AssertionError: no' : '', text: '', ...extra });
const passing = (id: string) => [phase(id, 'setup', 'passed'), phase(id, 'call', 'passed'), phase(id, 'teardown', 'passed')];
const start = { event: 'start' };
const finished = (exitstatus = 0, foreignHooks: string[] = []) => ({ event: 'finished', exitstatus, foreignHooks });

test('caseId writes pytest node ids the way JUnit names cases', () => {
  expect(caseId('test_solution.py::test_a')).toBe('test_solution::test_a');
  expect(caseId('test_solution.py::TestX::test_b[1-2]')).toBe('test_solution.TestX::test_b[1-2]');
  expect(caseId('test_solution.py')).toBe('test_solution');
});

test('an honest passing run passes', () => {
  const v = pytestVerdict(lines(start, { event: 'collected', ids: ['t.py::a', 't.py::b'] }, ...passing('t.py::a'), ...passing('t.py::b'), finished()), ok);
  expect(v).toMatchObject({ status: 'completed', passed: true, exitCode: 0, counts: { passed: 2, failed: 0, errored: 0, collectionFailed: 0, skipped: 0, total: 2 } });
  expect(v.notPassedBecause).toBeUndefined();
});

test('an xfail-marked failure reported skipped is pytest rule, not a disagreement', () => {
  const v = pytestVerdict(lines(start, { event: 'collected', ids: ['t.py::a', 't.py::x'] }, ...passing('t.py::a'), phase('t.py::x', 'setup', 'passed'), phase('t.py::x', 'call', 'failed', 'skipped', { xfail: true }), phase('t.py::x', 'teardown', 'passed'), finished()), ok);
  expect(v.passed).toBe(true);
  expect(v.counts).toMatchObject({ passed: 1, skipped: 1, failed: 0 });
});

test('each veto, alone, makes a would-be pass not a pass', () => {
  const base = [start, { event: 'collected', ids: ['t.py::a'] }, ...passing('t.py::a')];
  expect(pytestVerdict(lines(...base, finished(0, ['solution.pytest_runtest_makereport (pytest_runtest_makereport)'])), ok).notPassedBecause).toBe(
    'the suite registered its own pytest hooks: solution.pytest_runtest_makereport (pytest_runtest_makereport)',
  );
  expect(pytestVerdict(lines(...base, finished(1)), ok).notPassedBecause).toBe('pytest returned exit status 1 but its process exited 0');
  expect(pytestVerdict(lines(...base, ...passing('t.py::ghost'), finished()), ok).notPassedBecause).toBe('outcomes for tests that were not collected: t::ghost');
  const missing = pytestVerdict(lines(start, { event: 'collected', ids: ['t.py::a', 't.py::b'] }, ...passing('t.py::a'), finished()), ok);
  expect(missing).toMatchObject({ passed: false, notPassedBecause: 'collected tests without an outcome: t::b' });
  const none = pytestVerdict(lines(start, { event: 'collected', ids: [] }, finished(5)), { ...ok, exitCode: 5 });
  expect(none).toMatchObject({ status: 'completed', passed: false, notPassedBecause: 'no test was collected' });
});

test('no channel at all (the plugin never loaded) is a crash', () => {
  expect(pytestVerdict('', ok)).toMatchObject({ status: 'crash', passed: false, notPassedBecause: 'the runner never reported: pytest did not start' });
});

test('a time-out is a timeout, without a veto about the missing final report', () => {
  const v = pytestVerdict(lines(start, { event: 'collected', ids: ['t.py::a'] }), { exitCode: null, timedOut: true, memoryExceeded: false });
  expect(v).toMatchObject({ status: 'timeout', passed: false, exitCode: null });
  expect(v.notPassedBecause).toBeUndefined();
});

test('a run ended by a signal or by the memory watchdog says so (a file past the size limit, another signal, memory)', () => {
  const begun = lines(start, { event: 'collected', ids: ['t.py::a'] });
  expect(pytestVerdict(begun, { exitCode: null, timedOut: false, memoryExceeded: false, signal: 'SIGXFSZ' }).notPassedBecause).toContain("a file it wrote passed the sandbox's size limit (SIGXFSZ)");
  expect(pytestVerdict(begun, { exitCode: null, timedOut: false, memoryExceeded: false, signal: 'SIGSEGV' }).notPassedBecause).toContain('the process was killed by SIGSEGV');
  const mem = pytestVerdict(begun, { exitCode: null, timedOut: false, memoryExceeded: true, signal: 'SIGKILL' });
  expect(mem).toMatchObject({ status: 'crash', passed: false });
  expect(mem.notPassedBecause).toContain('the run was stopped for using too much memory');
  expect(mem.notPassedBecause).not.toContain('SIGKILL');
});

describe('the token, the accounting and the independent count', () => {
  const T = 'a'.repeat(64);
  const tok = (...msgs: object[]) => lines(...msgs.map((m) => ({ ...m, t: T })));
  const honest = [start, { event: 'collected', ids: ['t.py::test_a'] }, ...passing('t.py::test_a')];

  test('testFunction reads the function a node id names', () => {
    expect(testFunction('test_solution.py::TestX::test_b[1-2]')).toBe('TestX::test_b');
    expect(testFunction('test_solution.py::test_a')).toBe('test_a');
  });

  test('with the token and the file\'s own tests, an honest run passes', () => {
    const v = pytestVerdict(tok(...honest, finished()), ok, { token: T, tests: ['test_a'] });
    expect(v).toMatchObject({ passed: true, tests: [{ id: 't.py::test_a', outcome: 'passed', obligations: [] }] });
    expect(v.notPassedBecause).toBeUndefined();
  });

  test('messages written without the token (a forged channel) are not a pass', () => {
    const v = pytestVerdict(tok(start, { event: 'collected', ids: ['t.py::test_a'] }, phase('t.py::test_a', 'setup', 'passed'), phase('t.py::test_a', 'call', 'failed')) + lines(phase('t.py::test_a', 'call', 'passed'), phase('t.py::test_a', 'teardown', 'passed'), finished()), ok, { token: T, tests: ['test_a'] });
    expect(v).toMatchObject({ status: 'crash', passed: false });
    expect(v.notPassedBecause).toBe("3 message(s) on the harness channel without the run's token (forged); the process ended (exit 0) before pytest returned: the suite or the code under test ended it; a test's phases were not reported once each, in order: t::test_a (setup,call)");
  });

  test('a line that is not a message is forged too, a partial last line (a killed writer) is not', () => {
    expect(pytestVerdict(tok(...honest, finished()) + 'garbage\n', ok, { token: T }).notPassedBecause).toBe("1 message(s) on the harness channel without the run's token (forged)");
    expect(pytestVerdict(tok(...honest, finished()) + '{"event": "pha', ok, { token: T }).passed).toBe(true);
  });

  test('the runtime guard\'s refusal is the reason', () => {
    const v = pytestVerdict(tok(...honest, { event: 'reached', what: 'a pickle resolving posix.write' }, finished()), ok, { token: T });
    expect(v.notPassedBecause).toBe('reaches a pickle resolving posix.write (refused at run time)');
  });

  test('repeated reports, a phase twice, phases out of order, messages after the end', () => {
    expect(pytestVerdict(tok(...honest, ...passing('t.py::test_a'), finished()), ok, { token: T }).notPassedBecause).toBe('a test\'s phases were not reported once each, in order: t::test_a (setup,call,teardown,setup,call,teardown)');
    expect(pytestVerdict(tok(start, { event: 'collected', ids: ['t.py::test_a'] }, phase('t.py::test_a', 'call', 'passed'), phase('t.py::test_a', 'setup', 'passed'), phase('t.py::test_a', 'teardown', 'passed'), finished()), ok, { token: T }).notPassedBecause).toBe('a test\'s phases were not reported once each, in order: t::test_a (call,setup,teardown)');
    expect(pytestVerdict(tok(...honest, { event: 'collected', ids: ['t.py::test_a'] }, finished()), ok, { token: T }).notPassedBecause).toBe("the runner's messages repeat (1 start, 2 collected, 1 finished)");
    expect(pytestVerdict(tok(...honest, finished(), start), ok, { token: T }).notPassedBecause).toBe("the runner's messages repeat (2 start, 1 collected, 1 finished); messages after the final report");
  });

  test('a collected test the file does not define (an injected item) is not a pass', () => {
    const v = pytestVerdict(tok(start, { event: 'collected', ids: ['t.py::test_a', 't.py::test_fake[1]'] }, ...passing('t.py::test_a'), ...passing('t.py::test_fake[1]'), finished()), ok, { token: T, tests: ['test_a'] });
    expect(v.notPassedBecause).toBe('collected tests the file does not define: test_fake');
    expect(pytestVerdict(tok(start, { event: 'collected', ids: ['t.py::test_a', 't.py::test_fake[1]'] }, ...passing('t.py::test_a'), ...passing('t.py::test_fake[1]'), finished()), ok, { token: T, tests: ['test_a'], maybeTests: ['test_fake'] }).passed).toBe(true);
  });

  test('a memory kill says so', () => {
    expect(pytestVerdict(tok(start), { exitCode: null, timedOut: false, memoryExceeded: true }, { token: T }).notPassedBecause).toBe('the run was stopped for using too much memory');
  });
});
