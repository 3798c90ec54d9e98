/** `lockin study status <id>`'s lines for the study's main job (client/mainJob.ts mainJobStatusLines), and its default study id (mainStudyId). */
import * as crypto from 'crypto';
import { mainJobStatusLines, mainStudyId, mutationStillLine } from '../../client/mainJob';
import { STUDY_TASKS } from '../../protocol/corpus';
import { liveTaskText } from '../../client/progress';
import { referencesLine, smallReferencesNote } from '../../workflows/mainJob';

const start = new Date('2026-12-02T10:00:00.000Z');

test('a running main job: one line per step started, the running one last, with its latest line', () => {
  const progress = {
    studyId: 'main-sf1-replay-lockin',
    steps: [
      { n: 2, title: 'database and references', workflowId: 'lockin-prepare-sf1', seconds: 412.25, lines: ['24 tables loaded', '33 references stored'] },
      { n: 3, title: 'evaluator checks', workflowId: 'checks-main-sf1-replay-lockin', lines: [] },
    ],
  };
  expect(mainJobStatusLines('main-sf1-replay-lockin', 'RUNNING', start, progress)).toEqual([
    'main job of study main-sf1-replay-lockin (workflow main-main-sf1-replay-lockin): RUNNING (started 2026-12-02T10:00:00.000Z)',
    '  step 2 database and references (lockin-prepare-sf1): done in 412.3 s; 33 references stored',
    '  step 3 evaluator checks (checks-main-sf1-replay-lockin): running',
  ]);
});

test('a running main job whose query nobody answers says how to resume; a finished one is one line', () => {
  expect(mainJobStatusLines('x', 'RUNNING', start, null)).toEqual([
    'main job of study x (workflow main-x): RUNNING (started 2026-12-02T10:00:00.000Z)',
    '  steps not available (no worker answered): `npm run study` again runs one and resumes',
  ]);
  expect(mainJobStatusLines('x', 'COMPLETED', start, null)).toEqual(['main job of study x (workflow main-x): COMPLETED (started 2026-12-02T10:00:00.000Z)']);
});

test('step 5 says once a minute that it is working: tasks done, the tasks running, the time in step 5', () => {
  expect(mutationStillLine({ tasksTotal: 3, tasksDone: 1, lines: [], running: ['q3', 'q98'] }, 372_000)).toBe('1 of 3 task(s) analysed; analysing: q3, q98 (still working, step 5 for 6m12s)');
  // Progress of a workflow from before `running` existed.
  expect(mutationStillLine({ tasksTotal: 2, tasksDone: 0, lines: [] }, 61_000)).toBe('0 of 2 task(s) analysed (still working, step 5 for 1m01s)');
  expect(mutationStillLine({ tasksTotal: 2, tasksDone: 0, lines: [], running: ['q87'] }, 61_000, ['q87: suite 2 of 4 (test-guided) on gold and its mutants'])).toBe('0 of 2 task(s) analysed; analysing: q87; now: q87: suite 2 of 4 (test-guided) on gold and its mutants (still working, step 5 for 1m01s)');
  // Before the first task, and after the last (new-user finding 29: "0/0 tasks", then "1/1" for minutes).
  expect(mutationStillLine({ tasksTotal: 0, tasksDone: 0, lines: [], running: [] }, 5_000)).toBe("listing the study's frozen suites and the tasks to analyse (still working, step 5 for 0m05s)");
  expect(mutationStillLine({ tasksTotal: 1, tasksDone: 1, lines: [], running: [] }, 330_000)).toBe('all 1 task(s) analysed; measuring the labellers on known truth (acceptance tests on gold and the obligation violations) (still working, step 5 for 5m30s)');

  // The labeller checks, queued behind the tasks: 11 tasks' checks took 20 minutes with no sign of progress (corpus run, 2026-12-04).
  expect(mutationStillLine({ tasksTotal: 11, tasksDone: 11, lines: [], running: [], checksDone: 7, checking: ['q80', 'q94'] }, 1_260_000)).toBe(
    'all 11 task(s) analysed; measuring the labellers on known truth (acceptance tests on gold and the obligation violations): 7 of 11 task(s) checked, checking: q80, q94 (still working, step 5 for 21m00s)');
  expect(mutationStillLine({ tasksTotal: 3, tasksDone: 2, lines: [], running: ['q98'], checksDone: 0, checking: ['q3'] }, 600_000)).toBe(
    '2 of 3 task(s) analysed; analysing: q98; labellers on known truth: 0 of 3 task(s) checked, checking: q3 (still working, step 5 for 10m00s)');
});

test('a running task in the progress line: calls per condition, then each condition\'s phase (new-user finding 14)', () => {
  expect(liveTaskText('q3', [{ used: '1', phase: 'done' }, { used: '1', phase: 'labels' }, { used: '6', phase: 'calls' }, { used: '2', phase: 'waiting' }])).toBe('q3 1·1·6·2 [done·labels·calls·waiting]');
  // A condition not started yet; workflows started before the phase query existed show no phases.
  expect(liveTaskText('q4', [{ used: '1', phase: 'calls' }, { used: '-', phase: '-' }])).toBe('q4 1·- [calls·-]');
  expect(liveTaskText('q5', [{ used: '3', phase: '-' }, { used: '-', phase: '-' }])).toBe('q5 3·-');
});

test("step 2's references line names the failed and the empty references, marking the study's tasks", () => {
  expect(referencesLine({ count: 32, failed: [{ id: 'q12', error: '[DIVIDE_BY_ZERO] Division by zero. Use try_divide' }], empty: ['q78', 'q23b', 'q54', 'q85'] }, ['q3', 'q12', 'q78'])).toBe(
    '32 references stored, 1 FAILED (q12: [DIVIDE_BY_ZERO] Division by zero; left out of the study at this scale), 4 empty at this scale (q78 (study task), q23b, q54, q85: an empty output agrees with them; the report\'s discrimination table flags them)',
  );
  // With the scale: a division by zero below SF=1 is expected, any other failure is not.
  expect(referencesLine({ count: 32, failed: [{ id: 'q12', error: '[DIVIDE_BY_ZERO] Division by zero. Use try_divide' }], empty: ['q78'] }, ['q3'], 0.01)).toBe(
    '32 references stored; q12 has no reference at SF=0.01 (division by zero under ANSI): expected, left out of the study at this scale; 1 empty at this scale (q78: an empty output agrees with them; the report\'s discrimination table flags them)',
  );
  expect(referencesLine({ count: 32, failed: [{ id: 'q12', error: '[DIVIDE_BY_ZERO] Division by zero. Use try_divide' }] }, ['q3'], 1)).toBe('32 references stored, 1 FAILED (q12: [DIVIDE_BY_ZERO] Division by zero; left out of the study at this scale)');
  // Results of older prepare workflows have no `empty`.
  expect(referencesLine({ count: 33, failed: [] }, ['q3'])).toBe('33 references stored');
});

test("step 2's line on the equivalence check's small database names what it lacks (new-user finding: q12's failure there was unexplained)", () => {
  expect(smallReferencesNote({ count: 32, failed: [{ id: 'q12', error: '[DIVIDE_BY_ZERO] Division by zero. Use try_divide' }], empty: ['q78', 'q23b', 'q54', 'q85'] }, 0.01, 1)).toBe(
    '; q12 has no reference here ([DIVIDE_BY_ZERO] Division by zero): its mutants are checked at SF=1; empty at SF=0.01: q78, q23b, q54, q85 (an empty mutant output agrees with them there)',
  );
  expect(smallReferencesNote({ count: 33, failed: [] }, 0.01, 1)).toBe('');
});

test('the default study id: the model and scale for the 30 tasks, the tasks appended for a subset (a hash past four), the same for the same tasks in any order', () => {
  expect(mainStudyId(1, 'replay:lockin', [...STUDY_TASKS].reverse())).toBe('main-sf1-replay-lockin');
  expect(mainStudyId(0.01, 'replay:lockin', ['q98', 'q3'])).toBe('main-sf0.01-replay-lockin-q3-q98');
  expect(mainStudyId(1, 'replay:lockin', ['q14b', 'q98', 'q14a', 'q3'])).toBe('main-sf1-replay-lockin-q3-q14a-q14b-q98');
  expect(mainStudyId(1, 'anthropic:claude-x', ['q36', 'q51', 'q69', 'q87'])).toBe('main-sf1-anthropic-claude-x-q36-q51-q69-q87');
  const five = ['q1', 'q2', 'q3', 'q4', 'q5'];
  const hash = crypto.createHash('sha256').update('q1,q2,q3,q4,q5').digest('hex').slice(0, 8);
  expect(mainStudyId(1, 'replay:lockin', five)).toBe(`main-sf1-replay-lockin-5tasks-${hash}`);
  expect(mainStudyId(1, 'replay:lockin', [...five].reverse())).toBe(`main-sf1-replay-lockin-5tasks-${hash}`);
  expect(mainStudyId(1, 'replay:lockin', STUDY_TASKS.slice(1))).toMatch(/^main-sf1-replay-lockin-29tasks-[0-9a-f]{8}$/);
});
