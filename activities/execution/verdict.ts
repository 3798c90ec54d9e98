/**
 * The verdict of a suite run, decided here, outside every process that runs candidate code
 * (docs/verdicts.md "Layer 2"; docs/protocol.md §4 "Test outcome"; the earlier checks and the
 * verdict runner's). Input: the channel text the run's runner (activities/python/verdict_runner.py and its
 * plugin pytest_harness.py) wrote, the run's token, the test functions the reach check enumerated
 * from the file before the run, and how the process ended. Pure functions.
 */
import type { PytestCounts, PytestOutcome } from '../../protocol/types';
import { countCases, suitePassed, type CaseOutcome, type JunitCase } from './junit';

/** One message of the runner (every one carries the run's token `t`). */
type Message =
  | { event: 'start' }
  | { event: 'collect-error'; id: string; text: string }
  | { event: 'collected'; ids: string[]; marks?: Record<string, string[]> }
  | { event: 'phase'; id: string; when: 'setup' | 'call' | 'teardown'; raw: 'passed' | 'failed' | 'skipped'; reported: string | null; xfail: boolean; message: string; text: string }
  | { event: 'reached'; what: string }
  | { event: 'finished'; exitstatus: number; foreignHooks: string[] };

/** How the sandboxed process ended. */
export interface PytestProcessEnd {
  exitCode: number | null;
  timedOut: boolean;
  memoryExceeded: boolean;
  /** The signal that ended the process, when one did (e.g. SIGXFSZ: a file passed the sandbox's size limit). */
  signal?: string | null;
}

/** What the verdict is checked against, known before the run (absent fields: not checked). */
export interface VerdictExpect {
  /** The run's token: a message without it is forged. */
  token?: string;
  /** The test functions the suite file defines ("test_x", "TestC::test_y"; the reach check's `tests`). */
  tests?: string[];
  /** Names pytest may also collect (reach check's `maybeTests`). */
  maybeTests?: string[];
}

/** The verdict: what PytestOutcome needs, plus the cases for the failure summary. */
export interface PytestVerdict {
  status: PytestOutcome['status'];
  exitCode: number | null;
  counts: PytestCounts;
  cases: JunitCase[];
  passed: boolean;
  /** Why the run is not a pass although pytest might say so (first reason first); absent when nothing was vetoed. */
  notPassedBecause?: string;
  /** Each test with an outcome, by node id, with its obligation markers (acceptance tests). */
  tests: { id: string; outcome: 'passed' | 'failed' | 'error' | 'skipped'; obligations: string[] }[];
  /** The collected node ids, in order (the first `collected` message). */
  collected: string[];
  /** Per collected node id, its obligation markers' arguments. */
  marks: Record<string, string[]>;
}

/** "test_solution.py::TestX::test_y[1]" → "test_solution.TestX::test_y[1]" (the JUnit id form). */
export function caseId(nodeid: string): string {
  const parts = nodeid.split('::');
  const mod = parts[0].replace(/\.py$/, '').replace(/\//g, '.');
  if (parts.length === 1) return mod;
  return `${[mod, ...parts.slice(1, -1)].join('.')}::${parts[parts.length - 1]}`;
}

/** "test_solution.py::TestX::test_y[1]" → "TestX::test_y" (the reach check's form). Pure. */
export function testFunction(nodeid: string): string {
  return nodeid.split('::').slice(1).join('::').replace(/\[[\s\S]*\]$/, '');
}

/** Messages of the channel text; lines that are not a message, or lack the token, are counted as forged. */
function parseMessages(text: string, token: string | undefined): { msgs: Message[]; forged: number } {
  const out: Message[] = [];
  let forged = 0;
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    const partialLast = i === lines.length - 1; // no newline after it: a killed process's last write
    try {
      const m = JSON.parse(line) as Message & { t?: unknown };
      if (!m || typeof m !== 'object' || typeof (m as { event?: unknown }).event !== 'string') {
        if (!partialLast) forged += 1;
        continue;
      }
      if (token !== undefined && m.t !== token) {
        forged += 1;
        continue;
      }
      out.push(m);
    } catch {
      if (!partialLast) forged += 1;
    }
  }
  return { msgs: out, forged };
}

const list = (ids: string[], n = 3) => `${ids.slice(0, n).join(', ')}${ids.length > n ? ` and ${ids.length - n} more` : ''}`;

/**
 * Decides the pytest outcome from the channel text, what is expected and the process end.
 * status: "timeout" when the wall-clock limit stopped it; "completed" when the runner's final
 * report (sent after pytest returned) arrived and pytest exited 0, 1, 2 or 5; "crash" otherwise.
 * passed: completed, §4's rule (exit 0, no failed/errored/collection-failed case) and none of
 * these vetoes, in order: a message without the run's token (forged); the runtime guard refused
 * something; the process ended before pytest returned; the exit code differs from the reported
 * status; more than one start, collected or finished message, or a message after finished; hooks
 * registered by modules other than pytest's and lockin's; a phase whose report disagrees with what
 * happened (an xfail-marked failure reported skipped is pytest's rule); a test's phases not
 * exactly once each in order (setup, call unless setup did not pass, teardown); phases of tests
 * that were not collected; collected tests without an outcome; a collected test the file does not
 * define, or a test the file defines that was not collected (against `expect.tests`); no test
 * passed (none collected, or all skipped).
 */
export function pytestVerdict(channel: string, end: PytestProcessEnd, expect: VerdictExpect = {}): PytestVerdict {
  const { msgs, forged } = parseMessages(channel, expect.token);
  const of = <E extends Message['event']>(e: E) => msgs.filter((m): m is Extract<Message, { event: E }> => m.event === e);
  const starts = of('start');
  const finishes = of('finished');
  const collects = of('collected');
  const finished = finishes[0];
  const collected = collects[0]?.ids ?? [];
  const phases = of('phase');
  const collectErrors = of('collect-error');
  const reached = of('reached');

  const cases: JunitCase[] = [];
  const tests: PytestVerdict['tests'] = [];
  for (const e of collectErrors) cases.push({ id: caseId(e.id), outcomes: ['collection-failed'], details: [{ kind: 'collection-failed', message: 'collection failure', text: e.text }] });
  const order = [...new Set([...collected, ...phases.map((p) => p.id)])];
  const tampered: string[] = [];
  const misordered: string[] = [];
  for (const id of order) {
    const mine = phases.filter((p) => p.id === id);
    if (!mine.length) continue;
    const whens = mine.map((p) => p.when).join(',');
    const setupPassed = mine[0]?.when === 'setup' && mine[0].raw === 'passed';
    if (whens !== (setupPassed ? 'setup,call,teardown' : 'setup,teardown')) misordered.push(`${caseId(id)} (${whens})`);
    const details: JunitCase['details'] = [];
    const outcomes = new Set<CaseOutcome>();
    for (const p of mine) {
      const xfailed = p.raw === 'failed' && p.xfail && p.reported === 'skipped';
      if (p.raw === 'failed' && !xfailed) {
        const kind: CaseOutcome = p.when === 'call' ? 'failed' : 'errored';
        outcomes.add(kind);
        details.push({ kind, message: p.message, text: p.text });
      } else if (p.raw === 'skipped' || xfailed) {
        outcomes.add('skipped');
        details.push({ kind: 'skipped', message: p.message, text: '' });
      }
      const agrees = p.reported === p.raw || xfailed || (p.raw === 'passed' && p.xfail && p.reported === 'failed');
      if (!agrees) tampered.push(`${caseId(id)} (${p.when}: ${p.raw === 'failed' ? p.message || 'raised' : p.raw}, reported ${p.reported ?? 'nothing'})`);
    }
    const ranCall = mine.some((p) => p.when === 'call' && p.raw === 'passed');
    if (!outcomes.size && ranCall) outcomes.add('passed');
    if (!outcomes.size) continue; // setup passed but the call never reported: counted as missing below
    cases.push({ id: caseId(id), outcomes: [...outcomes], details });
    const o = [...outcomes];
    tests.push({ id, outcome: o.includes('errored') ? 'error' : o.includes('failed') ? 'failed' : o.includes('skipped') && !o.includes('passed') ? 'skipped' : 'passed', obligations: collects[0]?.marks?.[id] ?? [] });
  }
  const counts = countCases(cases);

  const exitCode = end.timedOut || end.memoryExceeded ? null : end.exitCode;
  const completed = !end.timedOut && !end.memoryExceeded && starts.length > 0 && finished !== undefined && exitCode !== null && [0, 1, 2, 5].includes(exitCode);
  const status: PytestOutcome['status'] = end.timedOut ? 'timeout' : completed ? 'completed' : 'crash';

  const reasons: string[] = [];
  if (forged) reasons.push(`${forged} message(s) on the harness channel without the run's token (forged)`);
  for (const r of reached) reasons.push(`reaches ${r.what} (refused at run time)`);
  if (!starts.length) reasons.push('the runner never reported: pytest did not start');
  else if (!finished && !end.timedOut && !end.memoryExceeded) reasons.push(`the process ended (exit ${end.exitCode ?? 'none'}) before pytest returned: the suite or the code under test ended it`);
  if (end.memoryExceeded) reasons.push('the run was stopped for using too much memory');
  if (!end.timedOut && !end.memoryExceeded && end.signal) reasons.push(end.signal === 'SIGXFSZ' ? 'a file it wrote passed the sandbox\'s size limit (SIGXFSZ)' : `the process was killed by ${end.signal}`);
  if (finished && exitCode !== null && finished.exitstatus !== exitCode) reasons.push(`pytest returned exit status ${finished.exitstatus} but its process exited ${exitCode}`);
  if (starts.length > 1 || collects.length > 1 || finishes.length > 1) reasons.push(`the runner's messages repeat (${starts.length} start, ${collects.length} collected, ${finishes.length} finished)`);
  if (finished && msgs.indexOf(finished) !== msgs.length - 1) reasons.push('messages after the final report');
  if (finished?.foreignHooks?.length) reasons.push(`the suite registered its own pytest hooks: ${list(finished.foreignHooks)}`);
  if (tampered.length) reasons.push(`pytest's report disagrees with what happened: ${list(tampered)}`);
  if (misordered.length) reasons.push(`a test's phases were not reported once each, in order: ${list(misordered)}`);
  const reportedIds = new Set(cases.map((c) => c.id));
  const missing = collected.filter((id) => !reportedIds.has(caseId(id)));
  if (finished && missing.length) reasons.push(`collected tests without an outcome: ${list(missing.map(caseId))}`);
  const strays = [...new Set(phases.map((p) => p.id))].filter((id) => !collected.includes(id));
  if (strays.length) reasons.push(`outcomes for tests that were not collected: ${list(strays.map(caseId))}`);
  if (expect.tests && collects.length && !collectErrors.length) {
    const known = new Set([...expect.tests, ...(expect.maybeTests ?? [])]);
    const injected = [...new Set(collected.map(testFunction))].filter((f) => !known.has(f));
    if (injected.length) reasons.push(`collected tests the file does not define: ${list(injected)}`);
  }
  if (finished && counts.passed === 0 && counts.failed + counts.errored + counts.collectionFailed === 0) {
    reasons.push(collected.length ? `no test ran: all ${collected.length} collected tests were skipped` : 'no test was collected');
  }
  const passed = status === 'completed' && suitePassed(exitCode, counts) && reasons.length === 0;
  return { status, exitCode, counts, cases, passed, tests, collected, marks: collects[0]?.marks ?? {}, ...(reasons.length ? { notPassedBecause: reasons.join('; ') } : {}) };
}
