/**
 * The work inside a study's jobs (client/jobWork.ts) on a study folder written here, so every
 * sum is known: what each kind of job measured, copies of identical runs left out.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { toCsv } from '../../activities/common/csv';
import { executionSeconds, jobCountRows, noJobSeconds, JOB_COUNT_COLUMNS, jobWorkLines, junitSeconds, notRunAgainLines, sparkJobLines, studyJobWork, suiteSeconds, suiteSparkJobs } from '../../client/jobWork';

let study: string;
const put = (rel: string, text: string) => {
  const f = path.join(study, rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, text);
};
const junit = (t: number) => `<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="2" time="${t}"><testcase name="a" time="1.0"/></testsuite></testsuites>`;
const exec = (solve: number, output: number) => `[exec] spark: 9000 ms\n[exec] tables: 800 ms\n[exec] import: 1 ms\n[exec] solve: ${solve} ms\n[exec] output: ${output} ms\nsome stderr\n`;
const rows = (...ms: [string, number, string?][]) => ms.map(([v, m, status]) => JSON.stringify({ variant: v, exitCode: 1, passed: false, ms: m, status: status ?? 'completed' })).join('\n') + '\n';

beforeAll(() => {
  study = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-jobwork-'));
  put('tasks/q3/one-pass/pytest/initial/junit-initial.xml', junit(5.5));
  put('tasks/q3/contract-first/pytest/contract-initial/junit-contract-initial.xml', junit(2.25));
  // a copy of one-pass's run: no job ran
  put('tasks/q3/test-guided/pytest/initial/junit-initial.xml', junit(5.5));
  put('tasks/q3/test-guided/pytest/initial/reused.json', '{}');
  put('tasks/q3/evaluation/one-pass/execution.log', exec(114, 1886));
  put('tasks/q3/evaluation/one-pass/variants/nulls/execution.log', exec(100, 400));
  put('tasks/q3/evaluation/plan-audit/execution.log', exec(114, 1886));
  put('tasks/q3/evaluation/plan-audit/reused.json', '{}');
  put('tasks/q3/evaluation/contract-first/execution.log', 'the process died before the candidate ran\n');
  put('tasks/q3/one-pass/executable-labels/acceptance/results.jsonl', rows(['candidate', 8000]));
  put('tasks/q3/one-pass/executable-labels/suite/results.jsonl', rows(['gold', 5300], ['O1', 0, 'not-run'], ['O2', 0, 'not-run']));
  put('tasks/q3/one-pass/executable-labels/suite/junit-gold.xml', junit(99));
  put('mutation/q3/one-pass/results.jsonl', `${rows(['gold', 7200], ['m1', 600])}not json\n`);
  put('.reuse/pytest/abc/junit.xml', junit(1000));
  // How Spark ran the suites' processes (activities/mutation/suites.ts SUITE_SPARK_FILE)
  const spark = (...r: object[]) => r.map((x) => JSON.stringify(x)).join('\n') + '\n';
  put('tasks/q3/one-pass/executable-labels/acceptance/spark.jsonl', spark({ mode: 'warm', slot: 1, job: 1, jvmStarted: true, order: ['candidate'], ms: { slot: 20000, process: 6500, check: 250 } }));
  put('tasks/q3/one-pass/executable-labels/suite/spark.jsonl', spark(
    { mode: 'warm', slot: 2, job: 4, jvmStarted: false, restart: 'a process left running: 77 python3 x.py', order: ['gold', 'O1', 'O2'], charged: 'O1' },
    { mode: 'warm', slot: 2, job: 1, jvmStarted: true, order: ['O2'], ms: { slot: 18000, process: 3000, check: 500 } },
  ));
  put('tasks/q3/test-guided/executable-labels/suite/spark.jsonl', spark({ mode: 'warm', jvmStarted: true, ms: { slot: 1000, process: 1000, check: 1000 } }));
  put('tasks/q3/test-guided/executable-labels/suite/reused.json', '{}');
  put('mutation/q3/one-pass/spark.jsonl', `${spark({ mode: 'cold', jvmStarted: true, order: ['gold', 'm1'] }, { mode: 'warm', jvmStarted: false, restart: 'the job timed out' })}not json\n`);
  // a job whose slot's JVM was lost under it, run again cold (activities/execution/slots.ts rerunCold)
  put('mutation/q3/plan-audit/spark.jsonl', spark({ mode: 'cold', jvmStarted: true, coldBecause: 'x', lostSlot: { slot: 'slot-1-3', job: 7, reason: 'the slot\'s JVM exited (status 1)' }, order: ['gold', 'm1'] }));
});
afterAll(() => fs.rmSync(study, { recursive: true, force: true }));

test('each kind sums what its jobs measured; copies, not-run programs, gold JUnit beside a suite and the .reuse store count nothing', () => {
  const w = studyJobWork(study);
  expect(w.pytest).toEqual({ seconds: 7.75, jobs: 2 });
  expect(w.execution).toEqual({ seconds: 2.5, jobs: 2 });
  expect(w.labels).toEqual({ seconds: 13.3, jobs: 2 });
  expect(w['mutation suites']).toEqual({ seconds: 7.8, jobs: 2 });
  expect(jobWorkLines(w, 47.1).at(-2)).toBe("  step 4's jobs worked 23.6 s; the study workflow took 47.1 s of wall time = 2.00× their work");
});

test('the suites\' Spark records: counted by kind, copies left out, each restart with its reason', () => {
  const s = suiteSparkJobs(study);
  // two of the three label jobs were timed (the copy's times count nothing): 6.5 + 3 s in their processes
  expect(s.labels).toEqual({ jobs: 3, cold: 0, warm: 3, slotStarts: 2, restarts: { 'a process left running: 77 python3 x.py': 1 }, seconds: { timed: 2, slot: 38, process: 9.5, check: 0.75 } });
  expect(s['mutation suites']).toEqual({ jobs: 3, cold: 2, warm: 1, slotStarts: 0, restarts: { 'the job timed out': 1, 'the slot\'s JVM exited (status 1) (the JVM was lost during the job: it ran again cold)': 1 }, seconds: noJobSeconds() });
  expect(sparkJobLines('labels', s.labels)).toEqual([
    '  labels: 3 job(s) (0 cold; 3 warm, 2 of which started their slot\'s JVM and the rest found one running; 1 restarted after a job)',
    '    wall time of 2 job(s): 9.5 s in their processes (4.75 s a job), 0.8 s in the slots\' checks after them, 38.0 s waiting for, starting and filling slots',
    '    restarted 1×: a process left running: 77 python3 x.py',
  ]);
  expect(sparkJobLines('x', { jobs: 4, cold: 0, warm: 4, slotStarts: 1, restarts: { a: 1, b: 2, c: 1 }, seconds: noJobSeconds() }, 2)).toEqual([
    '  x: 4 job(s) (0 cold; 4 warm, 1 of which started their slot\'s JVM and the rest found one running; 4 restarted after a job)',
    '    restarted 2×: b',
    '    restarted 1×: a',
    '    … and 1 other reason(s)',
  ]);
  expect(suiteSparkJobs(path.join(study, 'nope')).labels).toEqual({ jobs: 0, cold: 0, warm: 0, slotStarts: 0, restarts: {}, seconds: noJobSeconds() });
});

test('the readers on one file each', () => {
  expect(junitSeconds(junit(3.5))).toBe(3.5);
  expect(junitSeconds('<testsuites/>')).toBe(0);
  expect(executionSeconds(exec(250, 750))).toBe(1);
  expect(executionSeconds('[exec] spark: 100 ms\n')).toBeNull();
  expect(suiteSeconds(rows(['gold', 1500], ['x', 500]))).toEqual({ programs: 2, seconds: 2 });
});

test('a study folder that does not exist: zeros, and no ratio line', () => {
  const w = studyJobWork(path.join(study, 'nope'));
  expect(w.labels).toEqual({ seconds: 0, jobs: 0 });
  expect(jobWorkLines(w, 10)).toHaveLength(5);
});

test('the jobs CSV of study profile: one row per group, the counts and work above (activities from the histories, given here)', () => {
  const activities = { coldJobs: 1, warmJobs: 3, warmStarts: 2, slotRestarts: 1, reusedJobs: 4, seconds: { timed: 3, slot: 1.25, process: 30.5, check: 0.75 } };
  const rows = jobCountRows(activities, suiteSparkJobs(study), studyJobWork(study));
  expect(toCsv(JOB_COUNT_COLUMNS, rows).split('\n')).toEqual([
    'group,jobs,cold_jobs,warm_jobs,slot_starts,restarts,copied,programs,work_seconds,timed_jobs,process_seconds,check_seconds,slot_seconds',
    'activities,4,1,3,2,1,4,4,10.25,3,30.5,0.75,1.25',
    'labels,3,0,3,2,1,0,2,13.3,2,9.5,0.75,38',
    'mutation suites,3,2,1,0,2,0,2,7.8,0,0,0,0',
    '',
  ]);
});

test('what was not run again: label folders copied from an identical run, and mutation suites from the cache or shared with an identical suite', () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-notrun-'));
  try {
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(d, rel)), { recursive: true });
      fs.writeFileSync(path.join(d, rel), text);
    };
    expect(notRunAgainLines(d)).toEqual([]);
    write('tasks/q87/test-guided/executable-labels/suite/reused.json', '{}');
    write('tasks/q87/test-guided/executable-labels/acceptance/reused.json', '{}');
    write('tasks/q87/one-pass/executable-labels/suite/results.jsonl', '');
    write('tasks/q3/plan-audit/executable-labels/suite/reused.json', '{}');
    // a mutation.json from before `ran` was recorded says nothing of the suites
    write('mutation.json', JSON.stringify({ suites: [{ task: 'q3', condition: 'one-pass' }] }));
    expect(notRunAgainLines(d)).toEqual(['  labels not run again (copied from an identical run of the study, reused.json): 3: q3/plan-audit suite, q87/test-guided acceptance, q87/test-guided suite']);
    write('mutation.json', JSON.stringify({ suites: [
      { task: 'q3', condition: 'contract-first', ran: 'here' }, { task: 'q3', condition: 'one-pass', ran: 'here' },
      { task: 'q3', condition: 'plan-audit', ran: 'cache' }, { task: 'q3', condition: 'test-guided', ran: 'same-suite' }, { task: 'q87', condition: 'test-guided', ran: 'cache' },
    ] }));
    expect(notRunAgainLines(d)[1]).toBe('  mutation suites not run again: 3 of 5 (mutation.json `ran`); copied from an identical run (another condition\'s in this study, or an earlier study\'s): q3/plan-audit, q87/test-guided; one run shared with an identical suite: q3/test-guided');
    write('mutation.json', '{"suites": [');
    expect(notRunAgainLines(d)).toHaveLength(1);
  } finally {
    fs.rmSync(d, { recursive: true, force: true });
  }
});
