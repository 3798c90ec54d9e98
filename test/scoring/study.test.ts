/** Loading a study folder: missing runs keep the assigned-task denominators; pairing and final labels. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadStudy, parseRecords } from '../../activities/scoring/study';
import { scoreRun, summarizeCondition, pairedForBranch } from '../../activities/scoring/analysis';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'study');

test('a missing run counts as assigned in Table III (not passed, zero scores) but is not paired in Table IV', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-study-'));
  try {
    fs.cpSync(path.join(FIXTURE, 'runs', 'fx1'), dir, { recursive: true });
    const recFile = path.join(dir, 'records.jsonl');
    const kept = fs.readFileSync(recFile, 'utf8').split('\n').filter((l) => !(l.includes('"taskId": "q12"') && l.includes('"condition": "plan-audit"')));
    fs.writeFileSync(recFile, kept.join('\n'));
    const study = await loadStudy(dir, { tasksDir: path.join(FIXTURE, 'tasks') });
    expect(study.runs).toHaveLength(12);
    expect(study.replicates).toHaveLength(3);
    expect(study.finalLabelsUnmatched).toEqual(['q3|one-pass|O12']);
    const scored = study.runs.map(scoreRun);
    const s = summarizeCondition(scored, 'plan-audit', study.tasks);
    // q12 plan-audit missing: 3/4 passed, 1/4 matched (q3), plan (0.75 + 1 + 0.8125 + 0) / 4
    expect(s).toMatchObject({ tasks: 4, testPassed: 3, referenceAgreement: 1, falsePasses: 2, falsePassRate: 0.5, missingRuns: 1, planScoreMean: 0.640625, modelCalls: 21 });
    expect(s.conditionalFalsePassProportion).toBeCloseTo(2 / 3, 12);
    const p = pairedForBranch(scored, 'plan-audit', study.tasks);
    // q12 has no plan-audit record: not a paired task (findings #15), not a −100 pp decrease.
    expect(p.code.n).toBe(3);
    expect(p.code.missing).toEqual(['q12']);
    expect(p.code.changes.map((c) => c.task)).toEqual(['q1', 'q3', 'q7']);
    expect(p.code.improved + p.code.unchanged + p.code.decreased).toBe(3);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('records.jsonl errors name the line and field', () => {
  // The first field of RunRecordSchema that is missing is named.
  expect(() => parseRecords('{"studyId":"s"}\n', 'r.jsonl')).toThrow(/r\.jsonl \(line 1: schemaVersion\)/);
  const full = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'study', 'runs', 'fx1', 'records.jsonl'), 'utf8').split('\n')[0]);
  expect(() => parseRecords(`${JSON.stringify({ ...full, falsePass: 'yes' })}\n`, 'r.jsonl')).toThrow(/r\.jsonl \(line 1: falsePass\)/);
  expect(parseRecords(`${JSON.stringify(full)}\n`, 'r.jsonl')[0].taskId).toBe('q1');
  // fx1 holds version-1 records: referenceMatched is read as version 2's referenceAgreement.
  expect(full).toMatchObject({ schemaVersion: 1, referenceMatched: false });
  const upgraded = parseRecords(`${JSON.stringify(full)}\n`, 'r.jsonl')[0];
  expect(upgraded).toMatchObject({ schemaVersion: 2, referenceAgreement: false });
  expect(upgraded).not.toHaveProperty('referenceMatched');
  // a version-2 record must carry the new name
  expect(() => parseRecords(`${JSON.stringify({ ...full, schemaVersion: 2 })}\n`, 'r.jsonl')).toThrow(/r\.jsonl \(line 1: referenceAgreement\)/);
  expect(() => parseRecords('\n{nope\n', 'r.jsonl')).toThrow(/r\.jsonl \(line 2\): not JSON/);
});

test('a run labelled before an obligation existed scores over the obligations it has labels for, and says so; an unknown label is an error', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-study-'));
  try {
    fs.cpSync(path.join(FIXTURE, 'runs', 'fx1'), dir, { recursive: true });
    const file = path.join(dir, 'tasks', 'q3', 'one-pass', 'labels.json');
    const lf = JSON.parse(fs.readFileSync(file, 'utf8'));
    const all = lf.labels;
    // Drop O8 (the fixture's q3 has eight obligations): as if O8 had been added after labelling.
    lf.labels = all.filter((l: { obligation: string }) => l.obligation !== 'O8');
    fs.writeFileSync(file, JSON.stringify(lf));
    const study = await loadStudy(dir, { tasksDir: path.join(FIXTURE, 'tasks') });
    expect(study.unlabelled).toEqual(['q3/one-pass: O8']);
    const run = study.runs.find((r) => r.taskId === 'q3' && r.condition === 'one-pass')!;
    expect(run.labels.map((l) => l.obligation.id)).toEqual(['O1', 'O2', 'O3', 'O4', 'O5', 'O6', 'O7']);
    lf.labels = [...all, { ...all[0], obligation: 'O99' }];
    fs.writeFileSync(file, JSON.stringify(lf));
    await expect(loadStudy(dir, { tasksDir: path.join(FIXTURE, 'tasks') })).rejects.toThrow(/a label for obligation O99, which q3 does not have/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
