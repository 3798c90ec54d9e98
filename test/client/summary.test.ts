/** The summary table `lockin study run` and `study status` print (client/summary.ts). */
import { renderSummary, summarize } from '../../client/summary';
import type { RunRecord } from '../../protocol/types';

/** A record with only the fields summarize reads. */
function rec(condition: string, testPassed: boolean, agrees: boolean, calls: number, replicate?: string): RunRecord {
  return { condition, testPassed, referenceAgreement: agrees, falsePass: testPassed && !agrees, callsUsed: calls, execution: { status: 'ok' }, replicate } as unknown as RunRecord;
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
});
