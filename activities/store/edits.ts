/**
 * Post-hoc classification of each condition's edits against the shared initial generation
 * (docs/protocol.md §2: permission deviations are not blocked, intent-to-treat, but recorded).
 *
 * test_solution.py edits are classified from the two syntax trees by
 * activities/python/test_edits.py: imports/syntax, fixture data (literals only), fixture structure,
 * assertions added, removed or changed, each with the tests it can affect. Under Test-Guided
 * Revision (tests: fixtures-only, Table I) imports/syntax and fixture edits are allowed and
 * assertion edits are not; a fixture-data edit is not allowed either when a test it affects failed
 * on the snapshot and passes at the end (it changed what the test judges, the paper's reported
 * deviation case). Flips are read from the condition's JUnit files (pytest/initial/ and its last
 * pytest/after-*-N/ run).
 */
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { BUDGETS, ConditionId } from '../../protocol/conditions';
import { TEST_EDIT_KINDS, type PermissionDeviation, type TestEditKind } from '../../protocol/records';
import { runPythonJson } from '../common/python';
import { parseJunit, type JunitCase } from '../execution/junit';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

/** One test edit as test_edits.py reports it. */
export const TestEdit = z.object({
  kind: z.enum(TEST_EDIT_KINDS),
  where: z.string(),
  tests: z.array(z.string()),
  detail: z.string(),
});
export type TestEdit = z.infer<typeof TestEdit>;

/**
 * Classifies the change between two test files by their syntax trees.
 * Input: the two files (a missing file reads as empty). Output: the edits, [] when identical.
 * @throws SubprocessError when the script fails.
 */
export async function classifyTestEdits(beforeFile: string, afterFile: string): Promise<TestEdit[]> {
  const out = await runPythonJson('test_edits.py', [beforeFile, afterFile], z.object({ edits: z.array(TestEdit) }), { timeoutMs: 60_000 });
  return out.edits;
}

/** A test's name as test_edits.py gives it, from a JUnit case id ("test_solution.TestC::test_m[1]" -> "TestC.test_m"). Pure. */
export function junitTestName(id: string): string {
  const [cls, name = ''] = id.split('::');
  const bare = name.replace(/\[.*\]$/, '');
  const last = cls.split('.').pop() ?? '';
  return last.startsWith('Test') ? `${last}.${bare}` : bare;
}

/**
 * The tests that did not pass on the snapshot and pass at the end. Pure.
 * A test counts as not passing on the snapshot when it failed or errored there, or when the
 * snapshot's suite failed collection (no test of it ran). Input: the JUnit cases of both runs.
 */
export function flippedTests(initial: JunitCase[], final: JunitCase[]): string[] {
  const collectionFailed = initial.some((c) => c.outcomes.includes('collection-failed'));
  const failing = new Set(initial.filter((c) => c.outcomes.some((o) => o === 'failed' || o === 'errored')).map((c) => junitTestName(c.id)));
  const passing = final.filter((c) => c.outcomes.length > 0 && c.outcomes.every((o) => o === 'passed')).map((c) => junitTestName(c.id));
  return [...new Set(passing.filter((t) => collectionFailed || failing.has(t)))].sort();
}

const WORDS: Record<TestEditKind, string> = {
  'imports-syntax': 'imports or syntax',
  'fixture-data': 'fixture data',
  'fixture-structure': 'fixture structure',
  'assertion-added': 'assertions added',
  'assertion-removed': 'assertions removed',
  'assertion-changed': 'assertions changed',
};

/**
 * Pure core of classifyEdits: every changed artifact becomes one entry (test_solution.py one per
 * test edit), `allowed` per Table I and the flip rule of the header.
 * Input: file texts (null when absent) before (snapshot) and after (frozen condition); the test
 * edits of test_solution.py; the tests that flipped from failing to passing.
 */
export function classifyArtifactEdits(
  condition: ConditionId,
  before: Record<string, string | null>,
  after: Record<string, string | null>,
  testEdits: TestEdit[] = [],
  flipped: string[] = [],
): PermissionDeviation[] {
  const may = BUDGETS[condition].mayRevise;
  const out: PermissionDeviation[] = [];
  const changed = (n: string) => (before[n] ?? null) !== (after[n] ?? null);
  if (changed('plan.md')) out.push({ artifact: 'plan.md', change: 'plan-edit', allowed: may.plan, detail: 'plan.md differs from the snapshot' });
  if (changed('solution.py')) out.push({ artifact: 'solution.py', change: 'solution-edit', allowed: may.solution, detail: 'solution.py differs from the snapshot' });
  if (changed('test_solution.py')) {
    const flips = new Set(flipped);
    for (const e of testEdits) {
      const turned = e.tests.filter((t) => flips.has(t));
      const judged = e.kind === 'fixture-data' || e.kind.startsWith('assertion-');
      const allowed = may.tests === 'yes' || (may.tests === 'fixtures-only' && !e.kind.startsWith('assertion-') && !(e.kind === 'fixture-data' && turned.length > 0));
      const flipNote = judged && turned.length ? `; failing on the snapshot, passing at the end: ${turned.join(', ')}` : '';
      out.push({
        artifact: 'test_solution.py',
        change: `test-${e.kind}`,
        allowed,
        detail: `${WORDS[e.kind]} in ${e.where}: ${e.detail}${flipNote}`,
        where: e.where,
        tests: e.tests,
        ...(judged && turned.length ? { flipped: turned } : {}),
      });
    }
  }
  return out;
}

function read(dir: string, name: string): string | null {
  const f = path.join(dir, name);
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null;
}

/** The JUnit cases of a pytest run folder (`<conditionDir>/pytest/<label>/junit-<label>.xml`), [] when absent. */
function junitCases(runDir: string): JunitCase[] {
  const f = path.join(runDir, `junit-${path.basename(runDir)}.xml`);
  return fs.existsSync(f) ? parseJunit(fs.readFileSync(f, 'utf8'), f) : [];
}

/** The condition's last pytest run after a revision (`after-…-N` with the largest N), or null. */
export function lastRevisionRun(conditionDir: string): string | null {
  const root = path.join(conditionDir, 'pytest');
  if (!fs.existsSync(root)) return null;
  const runs = fs.readdirSync(root).map((d) => ({ d, n: Number(/^after-.*-(\d+)$/.exec(d)?.[1] ?? NaN) })).filter((r) => Number.isFinite(r.n));
  if (runs.length === 0) return null;
  runs.sort((a, b) => a.n - b.n);
  return path.join(root, runs[runs.length - 1].d);
}

const DEVIATION_ARTIFACTS = new Set(['plan.md', 'solution.py', 'test_solution.py', 'contract_test.py']);
/** What a call file says of its agent session's refusals (activities/model/backends/types.ts AgentSession). */
const SessionCall = z.looseObject({ stage: z.string(), session: z.looseObject({ refused: z.array(z.looseObject({ turn: z.number(), tool: z.string(), target: z.string(), kind: z.string(), reason: z.string() })) }).optional() });

/**
 * The writes an agent session tried and was refused (the claude-code backend enforces the
 * condition's permissions: Test-Guided's plan.md, Contract-First's contract, …), from the
 * condition's call files `calls/NN-<stage>.json` (`session.refused`, kind `permission`), one
 * deviation each, `allowed: false`, nothing changed. Writes to other files of the folder are in
 * the call file only. A call file that is not JSON is skipped (a call in flight).
 */
export function refusedWrites(conditionDir: string): PermissionDeviation[] {
  const dir = path.join(conditionDir, 'calls');
  if (!fs.existsSync(dir)) return [];
  const out: PermissionDeviation[] = [];
  for (const name of fs.readdirSync(dir).filter((n) => /^\d+-.+\.json$/.test(n)).sort()) {
    let call: z.infer<typeof SessionCall>;
    try {
      const parsed = SessionCall.safeParse(JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')));
      if (!parsed.success) continue;
      call = parsed.data;
    } catch {
      continue;
    }
    for (const r of call.session?.refused ?? []) {
      if (r.kind !== 'permission' || !DEVIATION_ARTIFACTS.has(r.target)) continue;
      out.push({ artifact: r.target as PermissionDeviation['artifact'], change: 'write-refused', allowed: false, stage: call.stage, detail: `${call.stage} (turn ${r.turn}) tried to change ${r.target} with ${r.tool}: refused, nothing written (${r.reason})` });
    }
  }
  return out;
}

/** Activity: classifies the edits of one condition against the snapshot (see the header), and lists its refused writes (refusedWrites). */
export async function classifyEdits(req: ActivityInput<'classifyEdits'>): Promise<ActivityOutput<'classifyEdits'>> {
  const names = ['plan.md', 'solution.py', 'test_solution.py'];
  const before = Object.fromEntries(names.map((n) => [n, read(req.snapshotDir, n)]));
  const after = Object.fromEntries(names.map((n) => [n, read(req.conditionDir, n)]));
  const refused = refusedWrites(req.conditionDir);
  if (before['test_solution.py'] === after['test_solution.py']) return [...classifyArtifactEdits(req.condition, before, after), ...refused];
  const edits = await classifyTestEdits(path.join(req.snapshotDir, 'test_solution.py'), path.join(req.conditionDir, 'test_solution.py'));
  const last = lastRevisionRun(req.conditionDir);
  const flipped = last ? flippedTests(junitCases(path.join(req.conditionDir, 'pytest', 'initial')), junitCases(last)) : [];
  return [...classifyArtifactEdits(req.condition, before, after, edits, flipped), ...refused];
}
