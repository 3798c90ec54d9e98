/** The shipped corpus: every task folder validates and passes its self checks; eligibility.yaml has the 103 variants. */
import * as fs from 'fs';
import * as path from 'path';
import { checkTaskSelf } from '../../activities/tasks/check';
import { checkConventionNullability } from '../../activities/tasks/corpus';
import { ALL_VARIANTS, loadEligibility } from '../../activities/tasks/eligibility';
import { formatProblem, listTaskIds, loadTaskFolder, TaskLoadError } from '../../activities/tasks/load';
import { tasksRoot } from '../../activities/common/paths';
import { STUDY_TASKS } from '../../protocol/corpus';

describe('the shipped task corpus', () => {
  const ids = listTaskIds();

  test('lists task folders', () => {
    expect(ids.length).toBeGreaterThan(0);
    for (const q of ids) expect(STUDY_TASKS as readonly string[]).toContain(q);
  });

  test.each(listTaskIds())('%s validates (zod, ids, passages, nullability rule)', (taskId) => {
    let problems: string[] = [];
    try {
      const t = loadTaskFolder(path.join(tasksRoot(), taskId));
      problems = [...checkTaskSelf(t), ...checkConventionNullability(t)].map(formatProblem);
    } catch (e) {
      problems = e instanceof TaskLoadError ? e.problems.map(formatProblem) : [(e as Error).message];
    }
    expect(problems).toEqual([]);
  });

  test('a task folder with a gold folder has the three gold files', () => {
    for (const q of ids) {
      const g = path.join(tasksRoot(), q, 'gold');
      if (!fs.existsSync(g)) continue;
      for (const f of ['solution.py', 'plan.md', 'test_solution.py']) expect([q, fs.existsSync(path.join(g, f))]).toEqual([q, true]);
    }
  });
});

describe('tasks/eligibility.yaml', () => {
  test('the 103 variants in order, valid and consistent with the protocol', () => {
    const { value, problems } = loadEligibility();
    expect(problems.map(formatProblem)).toEqual([]);
    expect(value!.variants.map((v) => v.id)).toEqual([...ALL_VARIANTS]);
    expect(value!.variants).toHaveLength(103);
    expect(value!.variants.filter((v) => v.role === 'study').map((v) => v.id).sort()).toEqual([...STUDY_TASKS].sort());
    expect(value!.variants.filter((v) => v.role === 'extra-reference').map((v) => v.id)).toEqual(['q23b', 'q54', 'q85']);
  });

  test('ALL_VARIANTS splits 14, 23, 24, 39', () => {
    expect(ALL_VARIANTS).toHaveLength(103);
    expect(ALL_VARIANTS.slice(12, 16)).toEqual(['q13', 'q14a', 'q14b', 'q15']);
    expect(ALL_VARIANTS[102]).toBe('q99');
  });
});
