/** The summary table `lockin study run` and `study status` print (client/summary.ts). */
import { renderSummary, summarize } from '../../client/summary';
import type { RunRecord } from '../../protocol/types';

/** A record with only the fields summarize reads. */
function rec(condition: string, testPassed: boolean, agrees: boolean, calls: number, replicate?: string, taskId = 'q1', sample?: number): RunRecord {
  return { taskId, condition, testPassed, referenceAgreement: agrees, falsePass: testPassed && !agrees, callsUsed: calls, execution: { status: 'ok' }, replicate, sample } as unknown as RunRecord;
}

test('no run recorded yet: one line, not a table with no rows', () => {
  expect(renderSummary(summarize([]), true)).toBe("no run recorded yet (a task's runs are recorded when its conditions finish)\n");
});

test('rows for the conditions with runs only, replicates left out, in protocol order', () => {
  const rows = summarize([rec('contract-first', true, false, 3), rec('one-pass', true, true, 1), rec('one-pass', true, false, 1), rec('one-pass', false, false, 1, 'r1')]);
  expect(rows).toEqual([
    { condition: 'one-pass', runs: 2, testPassed: 2, executed: 2, referenceAgreement: 1, falsePasses: 1, modelCalls: 2 },
    { condition: 'contract-first', runs: 1, testPassed: 1, executed: 1, referenceAgreement: 0, falsePasses: 1, modelCalls: 3 },
  ]);
  const text = renderSummary(rows, false);
  expect(text).toContain('50.0%');
  expect(text).toContain('100.0%');
  expect(text).not.toContain('REPLAYED');
  expect(text).toContain('counts the runs recorded so far');
});

test('an ended study: denominators are the assigned runs as in report.md Table III, missing runs counted (findings #27)', () => {
  // newuser2's study: q3 recorded in every condition (a false pass each), q4 failed with no record.
  const conditions = ['one-pass', 'test-guided', 'plan-audit', 'contract-first'];
  const records = [...conditions.map((c) => rec(c, true, false, c === 'one-pass' ? 1 : 6, undefined, 'q3')), rec('one-pass', true, true, 1, undefined, 'q3', 2)];
  const rows = summarize(records, { tasks: ['q3', 'q4'], conditions });
  expect(rows[0]).toEqual({ condition: 'one-pass', runs: 2, testPassed: 1, executed: 1, referenceAgreement: 0, falsePasses: 1, modelCalls: 1, missing: 1 });
  expect(rows.map((r) => [r.condition, r.runs, r.missing])).toEqual(conditions.map((c) => [c, 2, 1]));
  const text = renderSummary(rows, true);
  expect(text).toContain('50.0%');
  expect(text).not.toContain('100.0%');
  expect(text).toContain('missing runs');
  expect(text.trim().split('\n').pop()).toBe('denominators: every assigned run (sample 1 of each task), as in report.md Table III; 4 run(s) have no record and count as neither passed nor matched');
});
