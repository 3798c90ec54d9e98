/**
 * The preflight leak check (docs/protocol.md §3): before any model call, a leak in the condition
 * directory or the outgoing request stops the call and the stub receives nothing. Reference SQL
 * is read from Spark's tests jar at run time (never copied into the repository).
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { ApplicationFailure } from '@temporalio/common';
import { callModel } from '../../activities/model/gateway';
import { findLeaks, leakMessage, ownProducedHashes, preflight } from '../../activities/preflight/preflight';
import { referenceSql } from '../../activities/preflight/referenceSql';
import { sqlTokens } from '../../activities/preflight/sqlNgrams';
import { errorBody, generateReply, messageBody, readJson, stageRequest, startStub, Stub, tempEnv } from '../model/support';

let stub: Stub;
let env: ReturnType<typeof tempEnv>;

beforeAll(async () => {
  stub = await startStub({ status: 200, body: messageBody(generateReply()) });
  env = tempEnv(stub.url);
});
afterAll(async () => {
  await stub.close();
  env.cleanup();
});
beforeEach(() => {
  stub.requests.length = 0;
  fs.rmSync(env.taskDir, { recursive: true, force: true });
  fs.rmSync(path.join(env.home, 'data'), { recursive: true, force: true });
  fs.rmSync(path.join(env.home, 'cache'), { recursive: true, force: true });
});

async function leakOf(p: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await p.catch((e) => e);
  expect(err).toBeInstanceOf(ApplicationFailure);
  expect(err.type).toBe('LeakError');
  expect(err.nonRetryable).toBe(true);
  return err;
}

/** `count` consecutive tokens of a reference query's text, re-joined (a pasted fragment). */
async function fragment(id: string, from: number, count: number): Promise<string> {
  const { texts } = await referenceSql();
  const toks = sqlTokens(texts[id]);
  expect(toks.length).toBeGreaterThan(from + count);
  return toks.slice(from, from + count).join(' ');
}

test('a clean request passes and is sent', async () => {
  const dir = env.dir('snapshot');
  const res = await callModel(stageRequest({ workDir: dir }));
  expect(res.ok).toBe(true);
  expect(stub.requests).toHaveLength(1);
  const pf = readJson(res.callFile).preflight;
  expect(pf.sqlTexts).toBe(103);
  expect(pf.sqlSource).toMatch(/^(queries\.py \(spark-tests-jar\)|jar \()/);
  expect(pf.thresholds).toEqual({ n: 8, minRunTokens: 40, minRatio: 0.5 });
});

test('a reference file planted in a condition directory stops the call before anything is sent', async () => {
  const dir = env.dir('test-guided');
  fs.writeFileSync(path.join(dir, 'solution.py'), 'def solve(spark, tables):\n    return None\n');
  fs.writeFileSync(path.join(dir, 'reference.parquet'), 'PAR1 not really parquet');
  const err = await leakOf(callModel(stageRequest({ workDir: dir, condition: 'test-guided', stage: 'revise-1', callIndex: 2 })));
  expect(err.message).toContain(`reference-output: reference output file name reference.parquet in ${path.join(dir, 'reference.parquet')}`);
  expect(err.message).toContain('nothing was sent');
  expect(stub.requests).toHaveLength(0);
  expect(readJson(path.join(dir, 'calls', '02-revise-1.json')).status).toBe('preflight-failed');
});

test('a renamed copy of a stored reference is found by content', async () => {
  const refDir = path.join(env.home, 'data', 'references', 'sf1', 'q3');
  fs.mkdirSync(refDir, { recursive: true });
  fs.writeFileSync(path.join(refDir, 'reference.arrow'), 'ARROW1 reference bytes of q3');
  const dir = env.dir('plan-audit');
  fs.writeFileSync(path.join(dir, 'expected.bin'), 'ARROW1 reference bytes of q3');
  const err = await leakOf(callModel(stageRequest({ workDir: dir, condition: 'plan-audit', stage: 'c1-extract', callIndex: 2 })));
  expect(err.message).toContain(`identical to reference file ${path.join(refDir, 'reference.arrow')} in ${path.join(dir, 'expected.bin')}`);
  expect(stub.requests).toHaveLength(0);
});

test('labels and scores are caught by name', async () => {
  const dir = env.dir('one-pass');
  for (const f of ['labels-final.csv', 'summary.json', 'records.jsonl', 'controls.json']) fs.writeFileSync(path.join(dir, f), 'x');
  const { findings } = await findLeaks({ conditionDir: dir, condition: 'one-pass', otherConditionDirs: [], requestText: '' });
  expect(findings.map((f) => [f.kind, path.basename(f.where)]).sort()).toEqual([
    ['label-or-score', 'controls.json'],
    ['label-or-score', 'labels-final.csv'],
    ['label-or-score', 'records.jsonl'],
    ['label-or-score', 'summary.json'],
  ]);
});

test("another condition's artifact is a leak; a file identical to the shared snapshot is not", async () => {
  const snap = env.dir('snapshot');
  const tg = env.dir('test-guided');
  const pa = env.dir('plan-audit');
  for (const d of [snap, tg, pa]) fs.writeFileSync(path.join(d, 'plan.md'), '# shared plan\n');
  fs.writeFileSync(path.join(tg, 'solution.py'), 'def solve(spark, tables):\n    return 42  # revised in test-guided\n');
  fs.writeFileSync(path.join(pa, 'solution.py'), 'def solve(spark, tables):\n    return 1\n');
  // identical pytest summaries in two conditions are derived files, not artifacts: allowed
  fs.writeFileSync(path.join(tg, 'pytest-failures.txt'), 'FAILED test_x\n');
  fs.writeFileSync(path.join(pa, 'pytest-failures.txt'), 'FAILED test_x\n');
  const clean = await preflight({ conditionDir: pa, condition: 'plan-audit', sharedSnapshotDir: snap, otherConditionDirs: [tg], requestText: 'hello' });
  expect(clean.ok).toBe(true);

  fs.copyFileSync(path.join(tg, 'solution.py'), path.join(pa, 'notes.txt'));
  const err = await leakOf(callModel(stageRequest({ workDir: pa, condition: 'plan-audit', stage: 'c1-extract', callIndex: 2 })));
  expect(err.message).toContain(`other-condition-artifact: identical to another condition's file ${path.join(tg, 'solution.py')} in ${path.join(pa, 'notes.txt')}`);
  expect(err.message).not.toContain('plan.md');
  expect(stub.requests).toHaveLength(0);
});

test("the same file written independently by two conditions' own calls is not a leak; a copy is", async () => {
  const snap = env.dir('snapshot');
  const tg = env.dir('test-guided');
  const pa = env.dir('plan-audit');
  const revised = 'def test_x():\n    assert True  # fixture fix, the same in both revisions\n';
  for (const d of [tg, pa]) fs.writeFileSync(path.join(d, 'test_solution.py'), revised);
  const sha = crypto.createHash('sha256').update(revised).digest('hex');
  const findingsOf = async () => (await findLeaks({ conditionDir: tg, condition: 'test-guided', sharedSnapshotDir: snap, otherConditionDirs: [pa], requestText: 'x' })).findings;
  // Not produced by test-guided's own calls: a leak.
  expect((await findingsOf()).map((f) => f.kind)).toEqual(['other-condition-artifact']);
  // test-guided's revise-1 reply wrote exactly this file (parsed.artifacts holds its sha256): allowed.
  fs.mkdirSync(path.join(tg, 'calls'), { recursive: true });
  fs.writeFileSync(path.join(tg, 'calls', '02-revise-1.json'), JSON.stringify({ stage: 'revise-1', parsed: { artifacts: { 'test_solution.py': sha } } }));
  expect(await findingsOf()).toEqual([]);
  expect([...ownProducedHashes(tg)]).toEqual([sha]);
});

test('a pasted SQL fragment in the request is caught (the feedback file lies outside the directory)', async () => {
  const dir = env.dir('test-guided');
  const feedback = path.join(env.taskDir, 'failures.txt');
  fs.writeFileSync(feedback, `AssertionError: expected the query\n${await fragment('q12', 10, 45)}\n`);
  const err = await leakOf(callModel(stageRequest({ workDir: dir, condition: 'test-guided', stage: 'revise-1', callIndex: 2, inputs: { feedbackFile: feedback } })));
  expect(err.message).toMatch(/reference-sql: reference SQL of q12 \(verbatim run of 45 tokens, \d+% of its 8-grams\) in request/);
  expect(stub.requests).toHaveLength(0);
});

test('reference SQL in a file of the condition directory is caught, whatever its name or casing', async () => {
  const dir = env.dir('one-pass');
  const { texts } = await referenceSql();
  fs.writeFileSync(path.join(dir, 'notes.md'), `# notes\n\n${texts['q3'].toUpperCase().replace(/\s+/g, '  ')}\n`);
  const { findings } = await findLeaks({ conditionDir: dir, condition: 'one-pass', otherConditionDirs: [], requestText: 'clean' });
  // q52 is a near-copy of q3 in TPC-DS, so it is reported too; q3 comes first as exact text.
  expect(findings.map((f) => [f.kind, f.where])).toEqual(findings.map(() => ['reference-sql', path.join(dir, 'notes.md')]));
  expect(findings[0].detail).toMatch(/^reference SQL of q3 \(exact text, verbatim run of \d+ tokens, 100% of its 8-grams\)$/);
});

test('a short shared run (a column list) is not a leak', async () => {
  const dir = env.dir('one-pass');
  const { findings } = await findLeaks({ conditionDir: dir, condition: 'one-pass', otherConditionDirs: [], requestText: `the plan: ${await fragment('q98', 0, 30)}` });
  expect(findings).toEqual([]);
});

test('the leak message says what leaked on its first line (a summary shows only that line)', () => {
  const findings = [
    { kind: 'reference-output' as const, where: '/r/c/out/reference.arrow', detail: 'reference output file name reference.arrow' },
    { kind: 'label-or-score' as const, where: '/r/c/labels.json', detail: 'label/score file labels.json' },
  ];
  const msg = leakMessage({ condition: 'one-pass', conditionDir: '/r/c' }, findings);
  expect(msg.split('\n')).toEqual([
    'preflight: leak detected for condition one-pass (/r/c); nothing was sent: reference-output: reference output file name reference.arrow in /r/c/out/reference.arrow (and 1 more finding(s), listed below)',
    '  - reference-output: reference output file name reference.arrow in /r/c/out/reference.arrow',
    '  - label-or-score: label/score file labels.json in /r/c/labels.json',
  ]);
});
