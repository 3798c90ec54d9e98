/**
 * `lockin study status <id>` on a study with failed runs (findings #13, #27; client/studyStatus.ts):
 * newuser2's study (tasks q3, q4; q4's task workflow failed on a missing replay reply while q3 was
 * still running) and the same study after the end, read from runs/<id>/failures.json.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { failureLines, failureWorkflowId, innermostMessage, readStudyFailures, studyProgressLine } from '../../client/studyStatus';
import type { StudyProgress } from '../../protocol/inputs';

const CAUSE = 'replay reply not found: /work/nu2/lockin/replay/lockin/q4/contract-first/cf-revise-2.md';

function progress(p: Partial<StudyProgress>): StudyProgress {
  return { studyId: 's', tasksTotal: 2, tasksDone: 0, tasksFailed: [], running: [], callsUsed: 0, step: 'running tasks', startedAt: 0, ...p };
}

test('a failed task run is failed, not done; a failed condition is named and its task counts as done', () => {
  // The workflow counts q4 in tasksDone when it fails (finally block): 1 done by the query is 0 done.
  expect(studyProgressLine(progress({ tasksDone: 1, tasksFailed: ['q4'], running: ['q3'] }))).toBe(
    '  done 0 of 2 task runs, failed 1 (q4), running: q3; step: running tasks; model calls of finished task runs: 0',
  );
  expect(studyProgressLine(progress({ tasksDone: 2, tasksFailed: ['q4/contract-first'], callsUsed: 19, step: 'writing the report' }))).toBe(
    "  done 2 of 2 task runs, failed 0, running: -; conditions failed: q4/contract-first (the task's other conditions have records); step: writing the report; model calls of finished task runs: 19",
  );
});

test('after the end: the failed runs with their causes, one line each; none → no line', () => {
  expect(failureLines([{ task: 'q4', error: CAUSE }, { task: 'q3/contract-first', error: 'pytest\ntimed out' }])).toEqual([
    '  2 task run(s) or condition(s) FAILED, without a run record (the report counts their runs as assigned runs that neither passed nor matched):',
    `    q4 (every condition): ${CAUSE}`,
    '    q3 × contract-first: pytest timed out',
  ]);
  expect(failureLines([])).toEqual([]);
});

test('failures.json is read from the study folder; absent or malformed → null', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-status-'));
  try {
    expect(readStudyFailures(dir)).toBeNull();
    fs.writeFileSync(path.join(dir, 'failures.json'), JSON.stringify({ failed: [{ task: 'q4', error: CAUSE }] }));
    expect(readStudyFailures(dir)).toEqual([{ task: 'q4', error: CAUSE }]);
    fs.writeFileSync(path.join(dir, 'failures.json'), '{');
    expect(readStudyFailures(dir)).toBeNull();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('while running, a failure key leads to the workflow that holds its cause', () => {
  expect(failureWorkflowId('study-s', 'q4')).toBe('study-s/q4');
  expect(failureWorkflowId('study-s', 'q4/contract-first')).toBe('study-s/q4/contract-first');
  expect(failureWorkflowId('study-s', 'q4@r1')).toBe('study-s/q4/replicate-r1');
  expect(failureWorkflowId('study-s', 'q4~s2/test-guided')).toBe('study-s/q4/sample-2/test-guided');
  const err = Object.assign(new Error('Workflow execution failed'), { cause: Object.assign(new Error('Activity task failed'), { cause: new Error(CAUSE) }) });
  expect(innermostMessage(err)).toBe(CAUSE);
  expect(innermostMessage('plain')).toBe('plain');
});
