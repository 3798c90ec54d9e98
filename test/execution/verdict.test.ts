/** The pytest verdict from the harness channel (activities/execution/verdict.ts): worked examples, one per rule. */
import { caseId, pytestVerdict } from '../../activities/execution/verdict';

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
  expect(pytestVerdict(lines(...base, finished(1)), ok).notPassedBecause).toBe('pytest reported exit status 1 but its process exited 0');
  expect(pytestVerdict(lines(...base, ...passing('t.py::ghost'), finished()), ok).notPassedBecause).toBe('outcomes for tests that were not collected: t::ghost');
  const missing = pytestVerdict(lines(start, { event: 'collected', ids: ['t.py::a', 't.py::b'] }, ...passing('t.py::a'), finished()), ok);
  expect(missing).toMatchObject({ passed: false, notPassedBecause: 'collected tests without an outcome: t::b' });
  const none = pytestVerdict(lines(start, { event: 'collected', ids: [] }, finished(5)), { ...ok, exitCode: 5 });
  expect(none).toMatchObject({ status: 'completed', passed: false, notPassedBecause: 'no test was collected' });
});

test('no channel at all (the plugin never loaded) is a crash', () => {
  expect(pytestVerdict('', ok)).toMatchObject({ status: 'crash', passed: false, notPassedBecause: 'the harness plugin never reported: pytest did not start' });
});

test('a time-out is a timeout, without a veto about the missing final report', () => {
  const v = pytestVerdict(lines(start, { event: 'collected', ids: ['t.py::a'] }), { exitCode: null, timedOut: true, memoryExceeded: false });
  expect(v).toMatchObject({ status: 'timeout', passed: false, exitCode: null });
  expect(v.notPassedBecause).toBeUndefined();
});
