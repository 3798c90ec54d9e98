/** The progress display fits the terminal (issue 50): header, one line per running task, the plain line; and the main job's resume command. */
import { headerLine, plainLine, taskLine, type LiveTask } from '../../client/progress';
import { fitWidth, firstThatFits, RESTORE_TERMINAL } from '../../client/terminal';
import { mainResumeCommand } from '../../client/mainJob';
import { STUDY_TASKS } from '../../activities/tasks/schema';

const q3: LiveTask = {
  task: 'q3',
  conditions: [
    { condition: 'one-pass', used: '1', phase: 'done' },
    { condition: 'test-guided', used: '1', phase: 'labels' },
    { condition: 'plan-audit', used: '6', phase: 'calls' },
    { condition: 'contract-first', used: '-', phase: '-' },
  ],
};
const progress = { tasksDone: 1, tasksTotal: 2, callsUsed: 12, step: 'running tasks', tasksFailed: [] as string[] };

test('fitWidth cuts with one "…"; firstThatFits takes the longest form that fits', () => {
  expect(fitWidth('abcdef', 6)).toBe('abcdef');
  expect(fitWidth('abcdef', 4)).toBe('abc…');
  expect(fitWidth('abc', 0)).toBe('');
  expect(firstThatFits(['a long one', 'short', 'x'], 6)).toBe('short');
  expect(firstThatFits(['a long one', 'medium'], 3)).toBe('me…');
  expect(RESTORE_TERMINAL).toBe('\x1b[?7h\x1b[?25h');
});

test('a running task: conditions named on a wide terminal, compact on a narrow one, never wider than the terminal', () => {
  expect(taskLine(q3, 160)).toBe('  q3    one-pass 1 call, done │ test-guided 1 call, labels │ plan-audit 6 calls, calls │ contract-first not started');
  expect(taskLine(q3, 100)).toBe('  q3    one-pass 1, done │ test-guided 1, labels │ plan-audit 6, calls │ contract-first not started');
  expect(taskLine(q3, 60)).toBe('  q3 1·1·6·- [done·labels·calls·-]');
  expect(taskLine(q3, 20)).toBe('  q3 1·1·6·- [done·…');
  expect(taskLine({ task: 'lockin--replay-gold', conditions: [], text: '3/30 tasks ended' }, 80)).toBe('  lockin--replay-gold  3/30 tasks ended');
});

test('the header keeps the elapsed time ahead of what may be cut, and says the step once', () => {
  const wide = headerLine(progress, '3m05s', 160);
  expect(wide).toBe(`tasks ended ${'█'.repeat(15)}${'░'.repeat(15)} 1/2 | 3m05s | calls in finished tasks 12 | step: running tasks`);
  expect(wide.match(/running tasks/g)).toHaveLength(1);
  const narrow = headerLine({ ...progress, tasksFailed: ['q7'] }, '3m05s', 60);
  expect(narrow.length).toBeLessThanOrEqual(60);
  expect(narrow).toContain('3m05s');
  expect(headerLine(progress, '3m05s', 40)).toBe('1/2 tasks ended | 3m05s | step: running…');
});

test('the plain line (not a terminal) names the running tasks once, with the conditions as its legend', () => {
  expect(plainLine(progress, [q3], ['one-pass', 'test-guided', 'plan-audit', 'contract-first'])).toBe(
    '[lockin] 1/2 tasks ended, 12 calls in finished tasks, step: running tasks; running (calls one-pass·test-guided·plan-audit·contract-first [phases]): q3 1·1·6·- [done·labels·calls·-]',
  );
});

test('the resume command of an interrupted main job makes the same study', () => {
  expect(mainResumeCommand({ scale: 0.01, model: 'replay:lockin', tasks: ['q3', 'q98'] }, 'replay:lockin', 'main-sf0.01-replay-lockin-q3-q98')).toBe('npx lockin study main --scale 0.01 --tasks q3,q98');
  expect(mainResumeCommand({ scale: 1, model: 'replay:gold', tasks: [...STUDY_TASKS], studyId: 'mine', skipMutation: true }, 'replay:lockin', 'mine')).toBe('npx lockin study main --scale 1 --model replay:gold --study-id mine --no-mutation');
});
