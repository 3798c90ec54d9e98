/** The study side files, read with their writers' schemas (protocol/sideFiles.ts). */
import { parseControls, parseReproduce, parseMutation } from '../../activities/report/sideFiles';
import { tableII, tableVReproduce, tableMutation, tableSurvivors } from '../../activities/report/tables';

const control = (kind: string, taskId: string, expected: 'accept' | 'reject', observed: 'accept' | 'reject' | 'skipped', verified: boolean | null) => ({ id: `${kind}:${taskId}`, kind, taskId, expected, observed, asExpected: expected === observed, verified });

test('controls.json as activities/compare writes it: rows per control, Table II totals', () => {
  const file = {
    counts: { controls: 4, asExpected: 3 },
    allAsExpected: false,
    controls: [control('unchanged', 'q1', 'accept', 'accept', null), control('row-permutation', 'q1', 'accept', 'accept', true), control('null-injection', 'q3', 'reject', 'reject', true), control('type-change', 'q4', 'reject', 'skipped', false)],
  };
  const rows = parseControls(file);
  expect(rows.map((r) => [r.category, r.taskId, r.asExpected])).toEqual([['unchanged', 'q1', true], ['row-permutation', 'q1', true], ['null-injection', 'q3', true], ['type-change', 'q4', false]]);
  expect(tableII(rows)).toContain('| **Total** | 2 accept / 2 reject | 3 | 4 | 3/4 (1 skipped: q4) | 2 |');
  // The skipped control's category says so; the others do not.
  expect(tableII(rows)).toContain('| type-change | reject | 1 | 1 | 0/1 (1 skipped: q4) | 0 |');
  expect(tableII(rows)).toContain('| null-injection | reject | 1 | 1 | 1/1 | 1 |');
  expect(tableII(null)).toContain('not run');
});

test('controls.json written before the rename names the task `qid`: read as taskId (test/fixtures/study/runs/fx1 is one)', () => {
  const { taskId, ...old } = control('null-injection', 'q7', 'reject', 'reject', true);
  const rows = parseControls({ counts: { controls: 1, asExpected: 1 }, allAsExpected: true, controls: [{ ...old, qid: taskId }] });
  expect(rows.map((r) => [r.category, r.taskId, r.asExpected])).toEqual([['null-injection', 'q7', true]]);
});

test('controls.json in any other shape is an error naming the file and field (no guessing)', () => {
  expect(() => parseControls([{ category: 'x', expected: 'accept', outcome: 'accept' }], 'c.json')).toThrow(/c\.json/);
  const bad = { counts: { controls: 1, asExpected: 1 }, allAsExpected: true, controls: [{ ...control('unchanged', 'q1', 'accept', 'accept', null), expected: 'maybe' }] };
  expect(() => parseControls(bad, 'c.json')).toThrow(/c\.json \(controls\.0\.expected\)/);
});

test('reproduce.json as reexecuteReferences writes it ({scale, reproduced, total, querySource, results: [{id, reproduced, reason, seconds}]})', () => {
  const file = { scale: 1, reproduced: 2, total: 3, querySource: 'jar', databaseManifestHash: 'h', results: [{ id: 'q1', reproduced: true, reason: '', seconds: 1 }, { id: 'q2', reproduced: false, reason: '2513 rows vs 53', seconds: 2 }, { id: 'q54', reproduced: true, reason: '', seconds: 1 }] };
  const rows = parseReproduce(file);
  expect(rows).toEqual([{ taskId: 'q1', reproduced: true, detail: '', rows: null }, { taskId: 'q2', reproduced: false, detail: '2513 rows vs 53', rows: null }, { taskId: 'q54', reproduced: true, detail: '', rows: null }]);
  expect(tableVReproduce(rows, ['q1', 'q2', 'q3'])).toContain('Reproduced: 2/3 references; 1/3 study tasks.\n');
  // With row counts: an empty reference (q54, q78 at SF=0.01) reproduces trivially and says so.
  const counted = parseReproduce({ ...file, results: [{ id: 'q1', reproduced: true, reason: '', seconds: 1, rows: 100 }, { id: 'q54', reproduced: true, reason: '', seconds: 1, rows: 0 }, { id: 'q78', reproduced: true, reason: '', seconds: 1, rows: 0 }] });
  const md = tableVReproduce(counted, ['q1', 'q78']).split('\n');
  expect(md[0]).toBe('Reproduced: 3/3 references; 2/2 study tasks. Of the reproduced, 2 are empty (q54, q78; in the study: q78): 0 rows both times, which shows little.');
  expect(md.slice(4)).toEqual(['| q1 | yes | yes |  |', '| q54 | no | yes (empty reference) |  |', '| q78 | yes | yes (empty reference) |  |']);
  // The old lenient shapes ({q1: true}) are not guessed at.
  expect(() => parseReproduce({ q1: true, q2: { status: 'mismatch' } }, 'r.json')).toThrow(/r\.json/);
});

test('mutation.json: per suite killed/total, aggregated per condition; a suite invalid on gold counts nothing', () => {
  const suite = (task: string, validOnGold: boolean, killed: number, total: number) => ({ task, condition: 'one-pass', suiteSha: 's', validOnGold, goldExitCode: validOnGold ? 0 : 1, total, killed, equivalent: 1, undecided: 0, score: validOnGold ? killed / total : null, mutants: [], survivorsByOperator: {} });
  const rows = parseMutation({ studyId: 'x', equivalenceScale: 0.01, confirmScale: null, maxPerOperator: 2, suites: [suite('q1', true, 3, 8), suite('q3', false, 0, 8)], mutants: {} });
  expect(tableMutation(rows)).toContain('| Frozen One-Pass | 2 | 1 (0) | 3/8 | 37.50% | 37.50% |');
  // A condition of the study without a suite gets a row of zeros; without the study's list only the rows' conditions show.
  expect(tableMutation(rows, ['one-pass', 'test-guided'])).toContain('| Test-Guided Revision | 0 | 0 (0) | 0/0 | — | — |');
  expect(tableMutation(rows)).not.toContain('Test-Guided');
  expect(tableMutation(null)).toContain('not run');
  expect(() => parseMutation({ suites: [{ task: 'q1', killed: 1, mutants: 8 }] }, 'm.json')).toThrow(/m\.json/);
});

test('mutation.json per-mutant rows: kills per operator and condition over valid suites (the new join operators shown)', () => {
  const m = (operator: string, killed: boolean) => ({ id: `${operator}-x`, operator, killed, detected: killed, status: 'completed' });
  const suite = (task: string, condition: string, validOnGold: boolean, mutants: ReturnType<typeof m>[]) => ({
    task, condition, suiteSha: 's', validOnGold, goldExitCode: validOnGold ? 0 : 1, total: mutants.length, killed: validOnGold ? mutants.filter((x) => x.killed).length : 0,
    equivalent: 0, undecided: 0, score: null, mutants, survivorsByOperator: {},
  });
  const rows = parseMutation({
    studyId: 'x', equivalenceScale: 0.01, confirmScale: null, maxPerOperator: 2, mutants: {},
    suites: [
      suite('q35', 'one-pass', true, [m('semi-join', true), m('semi-join', false), m('join-type', true)]),
      suite('q69', 'one-pass', true, [m('anti-join', true), m('semi-join', false)]),
      // Invalid on gold: its rows count for nothing.
      suite('q33', 'one-pass', false, [m('semi-join', false)]),
      suite('q35', 'plan-audit', true, [m('semi-join', true)]),
    ],
  });
  expect(rows[0].byOperator).toEqual({ 'semi-join': { killed: 1, total: 2 }, 'join-type': { killed: 1, total: 1 } });
  expect(rows[2].byOperator).toEqual({});
  expect(tableSurvivors(rows, ['one-pass', 'test-guided', 'plan-audit']).split('\n').slice(2)).toEqual([
    '| anti-join | 1/1 | — | — |',
    '| join-type | 1/1 | — | — |',
    '| semi-join | 1/3 | — | 1/1 |',
  ]);
  expect(tableSurvivors(rows).split('\n')[0]).toBe('| Operator | Frozen One-Pass (killed/non-equivalent) | PlanAudit-Guided Revision (killed/non-equivalent) |');
  // With the tasks' verdicts: the equivalent mutants per operator, and an operator with only equivalent mutants (rollup) listed.
  const v = (operator: string, verdict: string) => ({ id: `${operator}-x`, operator, verdict, categories: [] });
  const verdicts = { q35: [v('join-type', 'equivalent'), v('join-type', 'equivalent'), v('semi-join', 'killable')], q69: [v('rollup', 'equivalent'), v('join-type', 'equivalent')] };
  expect(tableSurvivors(rows, ['one-pass', 'plan-audit'], verdicts).split('\n')).toEqual([
    '| Operator | Frozen One-Pass (killed/non-equivalent) | PlanAudit-Guided Revision (killed/non-equivalent) | Gold mutants dropped as equivalent (all tasks) |',
    '|---|---|---|---|',
    '| anti-join | 1/1 | — | 0 |',
    '| join-type | 1/1 | — | 3 |',
    '| rollup | — | — | 1 |',
    '| semi-join | 1/3 | 1/1 | 0 |',
  ]);
});
