/**
 * The pytest verdict from the harness channel (activities/python/pytest_harness.py), not from
 * files or output the suite's own code can write: docs/protocol.md §4 "Test outcome", and the
 * checks that "a run whose reports disagree, or that ran no test, is not a pass").
 * Pure functions over the channel text and how the process ended.
 */
import type { PytestCounts, PytestOutcome } from '../../protocol/types';
import { countCases, suitePassed, type CaseOutcome, type JunitCase } from './junit';

/** One message of pytest_harness.py. */
type Message =
  | { event: 'start' }
  | { event: 'collect-error'; id: string; text: string }
  | { event: 'collected'; ids: string[] }
  | { event: 'phase'; id: string; when: 'setup' | 'call' | 'teardown'; raw: 'passed' | 'failed' | 'skipped'; reported: string | null; xfail: boolean; message: string; text: string }
  | { event: 'finished'; exitstatus: number; foreignHooks: string[] };

/** How the sandboxed pytest process ended. */
export interface PytestProcessEnd {
  exitCode: number | null;
  timedOut: boolean;
  memoryExceeded: boolean;
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
}

/** "test_solution.py::TestX::test_y[1]" → "test_solution.TestX::test_y[1]" (the JUnit id form). */
export function caseId(nodeid: string): string {
  const parts = nodeid.split('::');
  const mod = parts[0].replace(/\.py$/, '').replace(/\//g, '.');
  if (parts.length === 1) return mod;
  return `${[mod, ...parts.slice(1, -1)].join('.')}::${parts[parts.length - 1]}`;
}

function parseMessages(text: string): Message[] {
  const out: Message[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const m = JSON.parse(line) as Message;
      if (m && typeof m === 'object' && typeof (m as { event?: unknown }).event === 'string') out.push(m);
    } catch {
      /* a partial last line of a killed process */
    }
  }
  return out;
}

const list = (ids: string[], n = 3) => `${ids.slice(0, n).join(', ')}${ids.length > n ? ` and ${ids.length - n} more` : ''}`;

/**
 * Decides the pytest outcome from the channel text and the process end.
 * status: "timeout" when the wall-clock limit stopped it; "completed" when the harness's final
 * report arrived and pytest exited 0, 1, 2 or 5; "crash" otherwise. passed: completed, §4's rule
 * (exit 0, no failed/errored/collection-failed case) and none of these vetoes, checked in order:
 * the process exit code differs from the exit status pytest reported; hooks registered by
 * modules other than pytest's own and the harness's; a phase whose report disagrees with what
 * happened (raised but reported passed, and the like; an xfail-marked failure reported skipped
 * is pytest's rule, not a disagreement); collected tests without an outcome, or outcomes for
 * tests that were not collected; no test passed (none collected, or all skipped).
 */
export function pytestVerdict(channel: string, end: PytestProcessEnd): PytestVerdict {
  const msgs = parseMessages(channel);
  const started = msgs.some((m) => m.event === 'start');
  const finished = [...msgs].reverse().find((m): m is Extract<Message, { event: 'finished' }> => m.event === 'finished');
  const collected = [...msgs].reverse().find((m): m is Extract<Message, { event: 'collected' }> => m.event === 'collected')?.ids ?? [];
  const phases = msgs.filter((m): m is Extract<Message, { event: 'phase' }> => m.event === 'phase');
  const collectErrors = msgs.filter((m): m is Extract<Message, { event: 'collect-error' }> => m.event === 'collect-error');

  const cases: JunitCase[] = [];
  for (const e of collectErrors) cases.push({ id: caseId(e.id), outcomes: ['collection-failed'], details: [{ kind: 'collection-failed', message: 'collection failure', text: e.text }] });
  const order = [...new Set([...collected, ...phases.map((p) => p.id)])];
  const tampered: string[] = [];
  for (const id of order) {
    const mine = phases.filter((p) => p.id === id);
    if (!mine.length) continue;
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
  }
  const counts = countCases(cases);

  const exitCode = end.timedOut || end.memoryExceeded ? null : end.exitCode;
  const completed = !end.timedOut && !end.memoryExceeded && started && finished !== undefined && exitCode !== null && [0, 1, 2, 5].includes(exitCode);
  const status: PytestOutcome['status'] = end.timedOut ? 'timeout' : completed ? 'completed' : 'crash';

  const reasons: string[] = [];
  if (!started) reasons.push('the harness plugin never reported: pytest did not start');
  else if (!finished && !end.timedOut && !end.memoryExceeded) reasons.push(`pytest ended (exit ${end.exitCode ?? 'none'}) before the harness's final report: the suite or the code under test ended the process itself`);
  if (finished && exitCode !== null && finished.exitstatus !== exitCode) reasons.push(`pytest reported exit status ${finished.exitstatus} but its process exited ${exitCode}`);
  if (finished?.foreignHooks.length) reasons.push(`the suite registered its own pytest hooks: ${list(finished.foreignHooks)}`);
  if (tampered.length) reasons.push(`pytest's report disagrees with what happened: ${list(tampered)}`);
  const reportedIds = new Set(cases.map((c) => c.id));
  const missing = collected.filter((id) => !reportedIds.has(caseId(id)));
  if (finished && missing.length) reasons.push(`collected tests without an outcome: ${list(missing.map(caseId))}`);
  const strays = [...new Set(phases.map((p) => p.id))].filter((id) => !collected.includes(id));
  if (strays.length) reasons.push(`outcomes for tests that were not collected: ${list(strays.map(caseId))}`);
  if (finished && counts.passed === 0 && counts.failed + counts.errored + counts.collectionFailed === 0) {
    reasons.push(collected.length ? `no test ran: all ${collected.length} collected tests were skipped` : 'no test was collected');
  }
  const passed = status === 'completed' && suitePassed(exitCode, counts) && reasons.length === 0;
  return { status, exitCode, counts, cases, passed, ...(reasons.length ? { notPassedBecause: reasons.join('; ') } : {}) };
}
