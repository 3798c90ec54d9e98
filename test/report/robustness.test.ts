import { tableKeyedRobustness, type RunExtras } from '../../activities/report/tables';

const run = (taskId: string, condition: RunExtras['condition'], agree: boolean | null, toleranceAgreement: number | null | undefined): RunExtras => ({
  taskId, condition, agree, toleranceAgreement, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, costUsd: 0,
});

describe('report: key-aligned tolerance comparison per task', () => {
  test('one row per task with keys; cells give the primary verdict and the tightest agreeing tolerance', () => {
    const runs = [
      run('q17', 'one-pass', false, 1e-6),
      run('q17', 'test-guided', true, 1e-8),
      run('q17', 'plan-audit', false, null),
      run('q13', 'one-pass', true, undefined),
      run('q3', 'one-pass', true, undefined),
    ];
    const md = tableKeyedRobustness(runs, { q17: ['i_item_id', 'i_item_desc', 's_state'], q13: [] }, ['q3', 'q13', 'q17']);
    const lines = md.split('\n');
    expect(lines[0]).toBe('| Task | Keys | Frozen One-Pass | Test-Guided Revision | PlanAudit-Guided Revision |');
    expect(lines.slice(2)).toEqual([
      '| q13 | (none: one group) | not computed | — | — |',
      '| q17 | i_item_id, i_item_desc, s_state | disagree → 1e-6 | agree (1e-8) | disagree; no tolerance |',
    ]);
  });

  test('a task whose record has a keyed result but no keys now is still shown; none at all says so', () => {
    expect(tableKeyedRobustness([run('q2', 'one-pass', false, 1e-4)], {}, ['q2'], ['one-pass', 'test-guided', 'plan-audit'])).toContain('| q2 | (not recorded now) | disagree → 1e-4 | — | — |');
    // without the study's conditions, only the runs' conditions are columns
    expect(tableKeyedRobustness([run('q2', 'one-pass', false, 1e-4)], {}, ['q2']).split('\n')[0]).toBe('| Task | Keys | Frozen One-Pass |');
    expect(tableKeyedRobustness([run('q3', 'one-pass', true, undefined)], {}, ['q3'])).toMatch(/^_No task of this study has recorded keys/);
  });
});
