/** The optional study side files in the shapes their writers use (activities/compare, client/mainJob). */
import { parseControls, parseReproduce, parseMutation, acceptReject } from '../../activities/report/sideFiles';
import { tableII, tableVReproduce, tableMutation } from '../../activities/report/tables';

test('controls.json as activities/compare writes it ({controls: [{kind, qid, expected, observed, verified}]})', () => {
  const rows = parseControls({
    counts: {},
    controls: [
      { id: 'unchanged:q1', kind: 'unchanged', qid: 'q1', expected: 'accept', observed: 'accept', verified: null },
      { id: 'row-permutation:q1', kind: 'row-permutation', qid: 'q1', expected: 'accept', observed: 'accept', verified: true },
      { id: 'null-injection:q3', kind: 'null-injection', qid: 'q3', expected: 'reject', observed: 'reject', verified: true },
      { id: 'type-change:q4', kind: 'type-change', qid: 'q4', expected: 'reject', observed: 'skipped', verified: false },
    ],
  });
  expect(rows.map((r) => [r.category, r.query, r.asExpected])).toEqual([['unchanged', 'q1', true], ['row-permutation', 'q1', true], ['null-injection', 'q3', true], ['type-change', 'q4', false]]);
  expect(tableII(rows)).toContain('| **Total** | 2 accept / 2 reject | 3 | 4 | 3/4 | 2 |');
  expect(tableII(null)).toContain('not run');
  expect(() => parseControls([{ category: 'x', expected: 'maybe', outcome: 'accept' }], 'c.json')).toThrow(/c\.json \(\[0\]\.expected\)/);
  expect(acceptReject('Rejected')).toBe('reject');
});

test('reproduce.json as the main job writes it ({reproduced, total, results: [{id, reproduced, reason}]})', () => {
  const rows = parseReproduce({ reproduced: 2, total: 3, results: [{ id: 'q1', reproduced: true, reason: '', seconds: 1 }, { id: 'q2', reproduced: false, reason: '2513 rows vs 53', seconds: 2 }, { id: 'q54', reproduced: true, reason: '', seconds: 1 }] });
  expect(rows).toEqual([{ query: 'q1', reproduced: true, detail: '' }, { query: 'q2', reproduced: false, detail: '2513 rows vs 53' }, { query: 'q54', reproduced: true, detail: '' }]);
  expect(tableVReproduce(rows, ['q1', 'q2', 'q3'])).toContain('Reproduced: 2/3 references; 1/3 study tasks.');
  expect(parseReproduce({ q1: true, q2: { status: 'mismatch' } })).toEqual([{ query: 'q1', reproduced: true, detail: '' }, { query: 'q2', reproduced: false, detail: 'mismatch' }]);
});

test('mutation.json: per suite killed/total, aggregated per condition', () => {
  const rows = parseMutation({ suites: [{ task: 'q1', condition: 'one-pass', killed: 3, total: 8, validOnGold: true }, { task: 'q3', condition: 'one-pass', killed: 5, mutants: 8, valid: false }] });
  // q3's suite fails gold: its 5 "kills" are not counted (activities/mutation/score.ts).
  expect(tableMutation(rows)).toContain('| Frozen One-Pass | 2 | 1 | 3/8 | 37.50% | 37.50% |');
  expect(tableMutation(rows)).toContain('| Test-Guided Revision | 0 | 0 | 0/0 | — | — |');
  expect(tableMutation(null)).toContain('not run');
});
