/**
 * The trajectories table (activities/report/tables.ts tableTrajectories): counts per revision
 * branch with the assertions-changed count in parentheses, "—" for Contract-First, whose judging
 * suite is its own frozen contract suite (new-user finding 20).
 */
import { tableTrajectories } from '../../activities/report/tables';

const row = (pm: number, r: number, nd: number, uc: number, ch: [number, number, number, number]) => ({
  'persistent-mistake': { count: pm, assertionsChanged: ch[0] },
  repair: { count: r, assertionsChanged: ch[1] },
  'new-defect': { count: nd, assertionsChanged: ch[2] },
  'unchanged-correct': { count: uc, assertionsChanged: ch[3] },
});

test('Test-Guided shows its changed-assertion counts; Contract-First shows none; a branch without runs has no row', () => {
  expect(tableTrajectories({ 'test-guided': row(3, 1, 0, 7, [2, 1, 0, 0]), 'contract-first': row(2, 2, 1, 6, [2, 2, 1, 6]) }).split('\n')).toEqual([
    '| Branch | Persistent mistake | Repair | New defect | Unchanged-correct |',
    '|---|---|---|---|---|',
    '| Test-Guided Revision | 3 (2) | 1 (1) | 0 (0) | 7 (0) |',
    '| Contract-First Revision | 2 (—) | 2 (—) | 1 (—) | 6 (—) |',
  ]);
});
