/** The progress display fits the terminal: header, one line per running task, the plain line; and the main job's resume command. */
import { headerLine, plainLine, taskLine, type LiveTask } from '../../client/progress';
import { fitWidth, firstThatFits, RESTORE_TERMINAL } from '../../client/terminal';
import { mainResumeCommand } from '../../client/mainJob';
import { dataBarLine, parseDataLine } from '../../client/dataProgress';
import { STUDY_TASKS } from '../../protocol/corpus';

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

describe('step 2 as one bar per phase (client/dataProgress.ts), from the data scripts\' own lines', () => {
  // Lines as a study at SF=0.01 printed them (2026-12-06).
  const lines = [
    '[02:49:24 +0.0s] generate: tpcgen-cli 4.0.0 sf0.01: 24 table(s) -> /x/.lockin/cache/tpcgen/sf0.01',
    '[02:49:27 +2.5s] generate: call_center: 2 rows',
    '[02:49:27 +2.5s] load: 24 table(s) -> /x/.lockin/data/tpcds/sf0.01',
    '[02:49:43 +16.0s] load: call_center: 2 rows in 6.7s',
    '[02:50:11 +43.6s] load: wrote /x/.lockin/data/tpcds/sf0.01/manifest.json (hash e26743ede5da…)',
    '[02:50:27 +15.6s] analyze: 103 variant(s) on /x/.lockin/data/tpcds/sf0.01',
    '[02:50:28 +16.0s] analyze: [1/103] q1: ok',
    '[02:53:48 +186.4s] references: [27/33] q70: running',
    '[02:53:23 +161.3s] references: [19/33] q12: FAILED [DIVIDE_BY_ZERO] Division by zero.',
    '(Spark logged ERROR Executor: Exception in task 0.0; the step goes on and its summary says what failed)',
    '[02:54:05 +203.8s] references: [33/33] q85: 0 rows in 1.8s',
  ];
  test('each line read as a step of its phase, a failure printed too, anything else printed', () => {
    const totals = new Map<string, number>();
    let db: string | null = null;
    const parsed = lines.map((l) => {
      const p = parseDataLine(l, db, totals);
      if (p.step?.db) db = p.step.db;
      return p;
    });
    expect(parsed.map((p) => (p.step ? [p.step.db, p.step.phase, p.step.done, p.step.total, p.step.item ?? null, !!p.step.complete] : null))).toEqual([
      ['sf0.01', 'generate', 0, 24, null, false],
      ['sf0.01', 'generate', -1, 24, 'call_center', false],
      ['sf0.01', 'load', 0, 24, null, false],
      ['sf0.01', 'load', -1, 24, 'call_center', false],
      ['sf0.01', 'load', 24, 24, null, true],
      ['sf0.01', 'analyze', 0, 103, null, false],
      ['sf0.01', 'analyze', 1, 103, 'q1', false],
      ['sf0.01', 'references', 26, 33, 'q70', false],
      ['sf0.01', 'references', 19, 33, 'q12', false],
      null,
      ['sf0.01', 'references', 33, 33, 'q85', true],
    ]);
    expect(parsed.map((p) => p.print ?? null).filter(Boolean)).toEqual([lines[8], lines[9]]);
  });
  test('a bar line: database, phase, bar, count, the item or "done", the time', () => {
    expect(dataBarLine({ db: 'sf0.01', phase: 'references', done: 19, total: 33, item: 'q12' }, 161.3, 120)).toBe(`  [data] sf0.01 references ${'█'.repeat(12)}${'░'.repeat(8)}   19/33  q12  (2m41s)`);
    expect(dataBarLine({ db: null, phase: 'load', done: 24, total: 24, complete: true }, 43.6, 120)).toBe(`  [data] load       ${'█'.repeat(20)}   24/24  done  (44s)`);
    expect(dataBarLine({ db: 'sf1', phase: 'analyze', done: 5, total: 103, item: 'q14a' }, 3, 30)).toHaveLength(30);
  });
});
