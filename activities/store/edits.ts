/**
 * Post-hoc classification of each condition's edits against the shared snapshot
 * (docs/protocol.md §2: permission deviations are not blocked, intent-to-treat, but recorded).
 */
import * as fs from 'fs';
import * as path from 'path';
import { diffLines } from 'diff';
import { BUDGETS, ConditionId } from '../../protocol/conditions';
import type { PermissionDeviation } from '../../protocol/types';

const ASSERTION = /\bassert\b|pytest\.approx|assert_frame_equal|assertDataFrameEqual|\bexpected\b/;

/**
 * Classifies the change to a test file: 'assertion-change' when any added or removed line is
 * an assertion or an expected value, 'fixture-import-syntax-change' otherwise, null if unchanged.
 * Pure. Input: the snapshot's and the condition's file texts.
 */
export function classifyTestEdit(before: string, after: string): 'assertion-change' | 'fixture-import-syntax-change' | null {
  if (before === after) return null;
  const changed = diffLines(before, after)
    .filter((p) => p.added || p.removed)
    .flatMap((p) => p.value.split('\n'))
    .filter((l) => l.trim() !== '');
  if (changed.length === 0) return 'fixture-import-syntax-change';
  return changed.some((l) => ASSERTION.test(l)) ? 'assertion-change' : 'fixture-import-syntax-change';
}

/**
 * Pure core of classifyEdits: every changed artifact becomes one entry, `allowed` per Table I.
 * Input: file texts (null when absent) before (snapshot) and after (frozen condition).
 */
export function classifyArtifactEdits(condition: ConditionId, before: Record<string, string | null>, after: Record<string, string | null>): PermissionDeviation[] {
  const may = BUDGETS[condition].mayRevise;
  const out: PermissionDeviation[] = [];
  const changed = (n: string) => (before[n] ?? null) !== (after[n] ?? null);
  if (changed('plan.md')) out.push({ artifact: 'plan.md', change: 'plan-edit', allowed: may.plan, detail: 'plan.md differs from the snapshot' });
  if (changed('solution.py')) out.push({ artifact: 'solution.py', change: 'solution-edit', allowed: may.solution, detail: 'solution.py differs from the snapshot' });
  if (changed('test_solution.py')) {
    const kind = classifyTestEdit(before['test_solution.py'] ?? '', after['test_solution.py'] ?? '') ?? 'fixture-import-syntax-change';
    const allowed = may.tests === 'yes' || (may.tests === 'fixtures-only' && kind === 'fixture-import-syntax-change');
    out.push({ artifact: 'test_solution.py', change: kind, allowed, detail: kind === 'assertion-change' ? 'assertions or expected values changed' : 'fixtures, imports or syntax changed' });
  }
  return out;
}

function read(dir: string, name: string): string | null {
  const f = path.join(dir, name);
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null;
}

/** Activity: classifies the edits of one condition against the snapshot. */
export async function classifyEdits(req: { snapshotDir: string; conditionDir: string; condition: ConditionId }): Promise<PermissionDeviation[]> {
  const names = ['plan.md', 'solution.py', 'test_solution.py'];
  const before = Object.fromEntries(names.map((n) => [n, read(req.snapshotDir, n)]));
  const after = Object.fromEntries(names.map((n) => [n, read(req.conditionDir, n)]));
  return classifyArtifactEdits(req.condition, before, after);
}
