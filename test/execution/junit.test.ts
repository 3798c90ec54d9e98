/** Pure JUnit parsing and the §4 pass rule (no Python; milliseconds). */
import { countCases, formatFailures, parseJunit, suitePassed } from '../../activities/execution/junit';

const XML = `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="2" failures="2" skipped="2" tests="7">
<testcase classname="test_solution" name="test_ok" time="0.1"/>
<testcase classname="test_solution" name="test_bad" time="0.1"><failure message="AssertionError: totals differ&#10;assert 4 == 5">def test_bad():
&gt;       assert 4 == 5
E       assert 4 == 5</failure></testcase>
<testcase classname="test_solution" name="test_bad_and_teardown" time="0.1"><failure message="boom">x</failure><error message="failed on teardown with &quot;RuntimeError: cleanup&quot;">y</error></testcase>
<testcase classname="test_solution" name="test_setup_error" time="0.1"><error message="failed on setup with &quot;KeyError&quot;">z</error></testcase>
<testcase classname="test_solution" name="test_skip" time="0.0"><skipped type="pytest.skip" message="not today">reason</skipped></testcase>
<testcase classname="test_solution" name="test_xfail" time="0.0"><skipped type="pytest.xfail" message="expected"/></testcase>
<testcase classname="" name="tests.test_other" time="0.0"><error message="collection failure">import noise
E   SyntaxError: invalid syntax</error></testcase>
</testsuite></testsuites>`;

describe('parseJunit / countCases', () => {
  test('counts every outcome like pytest does (a failing test whose teardown errors counts in both)', () => {
    const cases = parseJunit(XML);
    expect(cases.map((c) => c.id)).toEqual([
      'test_solution::test_ok', 'test_solution::test_bad', 'test_solution::test_bad_and_teardown',
      'test_solution::test_setup_error', 'test_solution::test_skip', 'test_solution::test_xfail', 'tests.test_other',
    ]);
    expect(countCases(cases)).toEqual({ passed: 1, failed: 2, errored: 2, collectionFailed: 1, skipped: 2, total: 7 });
    expect(cases[1].details[0].message).toBe('AssertionError: totals differ\nassert 4 == 5');
  });

  test('the §4 pass rule: exit 0 and none failed, errored or collection-failed', () => {
    const clean = { passed: 3, failed: 0, errored: 0, collectionFailed: 0, skipped: 1, total: 4 };
    expect(suitePassed(0, clean)).toBe(true);
    expect(suitePassed(1, clean)).toBe(false);
    expect(suitePassed(5, { ...clean, passed: 0, total: 0 })).toBe(false);
    expect(suitePassed(0, { ...clean, errored: 1 })).toBe(false);
    expect(suitePassed(0, { ...clean, collectionFailed: 1 })).toBe(false);
    expect(suitePassed(null, clean)).toBe(false);
  });

  test('a report without <testsuite> is an error naming the file', () => {
    expect(() => parseJunit('<html/>', 'runs/x/junit-initial.xml')).toThrow('runs/x/junit-initial.xml: no <testsuite> element');
  });

  test('the failure summary lists failing cases only; collection errors keep their E lines', () => {
    const text = formatFailures('pytest exit code 1.', parseJunit(XML));
    expect(text).toContain('## FAILED test_solution::test_bad\nAssertionError: totals differ');
    expect(text).toContain('## ERROR test_solution::test_setup_error');
    expect(text).toContain('## COLLECTION ERROR tests.test_other\ncollection failure\n\n```\nE   SyntaxError: invalid syntax\n```');
    expect(text).not.toContain('import noise');
    expect(text).not.toContain('test_ok');
    expect(text).not.toContain('test_skip');
  });
});
