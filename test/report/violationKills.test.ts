/**
 * Kills of the obligation violations by the frozen suites, per condition (activities/report/tables.ts
 * tableViolationKills; the violations used as mutants). The expected rows are counted by hand from the runs below;
 * the intervals are Wilson's, worked out by hand: 2/3 → [20.77%, 93.85%], 4/4 → [51.01%, 100%].
 */
import { tableViolationKills, type ViolationKillRun } from '../../activities/report/tables';

const L = (test: string, source = 'executable') => ({ test, source: { test: source } });

test('per condition: suites with executable test labels, invalid on gold, violations killed, Wilson interval', () => {
  const runs: ViolationKillRun[] = [
    // q3 one-pass: three executable labels (2 covered), one heuristic label (not a violation run: left out).
    { condition: 'one-pass', labels: [L('covered'), L('not-covered'), L('covered'), L('covered', 'heuristic')] },
    // q1 one-pass: the suite fails gold; its labels are no kills and no misses.
    { condition: 'one-pass', labels: [L('invalid-on-gold'), L('invalid-on-gold')] },
    // q3 contract-first: four covered.
    { condition: 'contract-first', labels: [L('covered'), L('covered'), L('covered'), L('covered')] },
    // test-guided: no executable label at all (a task without executable forms).
    { condition: 'test-guided', labels: [L('not-covered', 'judge')] },
  ];
  expect(tableViolationKills(runs, ['one-pass', 'test-guided', 'plan-audit', 'contract-first']).split('\n')).toEqual([
    '| Condition | Suites with executable test labels | Suites invalid on gold | Violations killed (valid suites) | Kill rate [95% Wilson] |',
    '|---|---|---|---|---|',
    '| Frozen One-Pass | 2 | 1 | 2/3 | 66.67% [20.77%, 93.85%] |',
    '| Test-Guided Revision | 0 | 0 | 0/0 | — |',
    '| PlanAudit-Guided Revision | 0 | 0 | 0/0 | — |',
    '| Contract-First Revision | 1 | 0 | 4/4 | 100.00% [51.01%, 100.00%] |',
  ]);
});
