// A worker process for the crash test: the real workflows, the real model gateway (anthropic
// backend pointed at a local stub by ANTHROPIC_BASE_URL) and the real store; pytest, execution
// and evaluation are scripted (LOCKIN_TEST_SCRIPT) and slow enough to be killed mid-study.
'use strict';
const fs = require('fs');
const path = require('path');
const { NativeConnection } = require('@temporalio/worker');
const dist = path.resolve(__dirname, '..', '..', 'dist');
const { createWorkers, installQuietRuntime } = require(path.join(dist, 'worker', 'createWorkers'));

const script = JSON.parse(process.env.LOCKIN_TEST_SCRIPT);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function whereIs(dir) {
  const parts = dir.split(path.sep);
  return { taskId: parts[parts.lastIndexOf('tasks') + 1], condition: parts[parts.length - 1] };
}

const overrides = {
  async runPytest(req) {
    await sleep(script.delayMs);
    const { taskId, condition } = whereIs(req.dir);
    const i = req.runLabel === 'initial' ? 0 : Number(/(\d+)$/.exec(req.runLabel)[1]);
    const passed = script.pytest[condition][i];
    fs.mkdirSync(req.outDir, { recursive: true });
    const failuresFile = path.join(req.outDir, 'failures.txt');
    fs.writeFileSync(failuresFile, passed ? '' : `${taskId}: test_total failed`);
    return { passed, exitCode: passed ? 0 : 1, counts: { passed: passed ? 1 : 0, failed: passed ? 0 : 1, errored: 0, collectionFailed: 0, skipped: 0, total: 1 }, status: 'completed', failuresFile, durationMs: script.delayMs };
  },
  async smokeCheck() {
    return { ok: true, durationMs: 0 };
  },
  async executeCandidate(req) {
    await sleep(script.delayMs);
    return { status: 'exception', reason: 'scripted: no database in this test', isolation: 'scripted', durationMs: script.delayMs };
  },
  async executeOnVariants() {
    return { databases: [] };
  },
  async labelByExecution(req) {
    return { file: path.join(req.conditionDir, 'executable-labels.json'), code: 0, test: 0, suitePassesGold: false };
  },
  async judgeRequest() {
    return null;
  },
  async labelRun() {
    return { method: 'heuristic', obligations: 0 };
  },
  async evaluateRun() {
    return { agree: false, categories: ['runtime'], primaryCategory: 'runtime', summary: 'scripted' };
  },
  // The long steps (evaluator checks, mutation analysis): each call is logged to
  // LOCKIN_TEST_LOG ("start <what>", "end <what>") so a test can see what ran twice.
  async runEvaluatorControls() {
    note('start controls');
    note('end controls');
    return { counts: { controls: 57, expectedAccept: 36, expectedReject: 21, accepted: 36, rejected: 21, skipped: 0, asExpected: 57, unexpected: 0, perturbations: 24, verifiedPerturbations: 24 }, allAsExpected: true, controlsFile: 'c.json', markdownFile: 'c.md' };
  },
  async reexecuteReferences() {
    note('start reexecute');
    await sleep(script.delayMs * 4);
    note('end reexecute');
    return { reproduced: 33, total: 33, recordedEarlier: false };
  },
  async mutationTasks() {
    return script.mutationTasks;
  },
  async mutationTask(req) {
    note(`start ${req.taskId}`);
    await sleep(script.delayMs);
    note(`end ${req.taskId}`);
    return { taskId: req.taskId, lines: [`suite ${req.taskId}/one-pass: valid on gold, killed 1/1`], skipped: false };
  },
  // The main job's database step and its checks between steps (scripted: no database here).
  async generateTables(req) {
    note(`start generate ${req.scale}`);
    return { scale: req.scale, skipped: true };
  },
  async loadTables(req) {
    return { manifestHash: 'scripted', load: { rows: {} } };
  },
  async analyzeQueries() {
    return { passed: 103, total: 103, failed: [] };
  },
  async buildReferences(req) {
    return { count: 33, built: [], skipped: [], failed: [], seconds: {} };
  },
  async tasksWithReferences(req) {
    return { kept: req.tasks.filter((q) => !(script.missingReferences ?? []).includes(q)), missing: req.tasks.filter((q) => (script.missingReferences ?? []).includes(q)) };
  },
  async checkStudyCorpus() {
    return { problems: script.corpusProblems ?? [] };
  },
  async labellerCheckTask(req) {
    note(`check ${req.taskId} at SF=${req.scale}`);
    return { taskId: req.taskId, cached: false };
  },
  async labellerAccuracy(req) {
    note('start labellers');
    return { file: '', line: `labellers on known truth (scripted) for ${req.studyId} at SF=${req.scale}` };
  },
  async labellerCalibration(req) {
    note('start calibration');
    return { file: '', line: `labellers on realistic faults (scripted) for ${req.studyId}` };
  },
  async finishMutationAnalysis(req) {
    note('start finish');
    return `mutation analysis of ${req.studyId}: ${script.mutationTasks.length} suites`;
  },
};

function note(line) {
  if (process.env.LOCKIN_TEST_LOG) fs.appendFileSync(process.env.LOCKIN_TEST_LOG, `${line}\n`);
}

(async () => {
  installQuietRuntime(); // before the connection creates the runtime: the SDK's logs go through lockin's logger
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS });
  const workers = await createWorkers({ connection, namespace: 'default', activityOverrides: overrides });
  process.stdout.write('worker ready\n');
  await Promise.all(workers.map((w) => w.run()));
})().catch((e) => {
  process.stderr.write(`${e.stack}\n`);
  process.exit(1);
});
