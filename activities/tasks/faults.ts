/**
 * The labeller calibration set: realistic faults (tasks/README.md "Realistic faults").
 *
 * `tasks/<taskId>/faults/<name>/` holds one whole wrong program as a model might write it, with
 * the mistakes the paper documents co-occurring (another price column, an inner join for an
 * outer one, a label string, a collapsed grain …), a suite that repeats its mistakes, its plan,
 * and `labels.yaml`: the labels of every obligation of the task, written by hand from the
 * program, its suite, gold and the violations before any labeller was run on it. The labellers
 * are measured against these (activities/obligations/calibration.ts), beside the
 * single-obligation violations where each program breaks exactly one obligation.
 *
 * labels.yaml:
 *   what: one sentence: the program's mistakes and what its suite asserts
 *   written: the date the labels were written (YYYY-MM-DD)
 *   labels:
 *     O1: {plan: present, code: satisfied, test: covered}
 *     O13: {plan: contradicted, code: violated, test: not-covered, mechanism: repeats-incorrect-logic}
 * Rubric (the labellers' own definitions, applied by reading): code = the program's `solve`
 * satisfies the obligation (satisfied) or not (violated); test = a test of its suite that passes
 * on gold would fail on the obligation's violation (covered) or no such test exists
 * (not-covered); mechanism, for a violated obligation: `inadequate-check` (a test passing gold
 * covers it), `repeats-incorrect-logic` (a test fails gold and asserts the program's wrong value
 * for it), else `no-test-covered`; plan = the plan's treatment of it (present, partial,
 * ambiguous, absent, contradicted: docs/protocol.md §5).
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { PLAN_LABELS } from '../../protocol/stages';
import { displayPath, type TaskProblem } from './load';
import type { Obligation } from '../../protocol/corpus';

export const MECHANISMS = ['no-test-covered', 'inadequate-check', 'repeats-incorrect-logic'] as const;
export type Mechanism = (typeof MECHANISMS)[number];

/** The hand labels of one obligation. */
export const FaultLabel = z
  .object({
    plan: z.enum(PLAN_LABELS),
    code: z.enum(['satisfied', 'violated']),
    test: z.enum(['covered', 'not-covered']),
    mechanism: z.enum(MECHANISMS).optional(),
  })
  .strict()
  .superRefine((l, ctx) => {
    if (l.code === 'violated' && !l.mechanism) ctx.addIssue({ code: 'custom', path: ['mechanism'], message: 'a violated obligation needs its mechanism (no-test-covered, inadequate-check or repeats-incorrect-logic)' });
    if (l.code === 'satisfied' && l.mechanism) ctx.addIssue({ code: 'custom', path: ['mechanism'], message: 'only a violated obligation has a mechanism' });
    if (l.mechanism === 'inadequate-check' && l.test !== 'covered') ctx.addIssue({ code: 'custom', path: ['mechanism'], message: 'inadequate-check means a test passing gold covers it: test must be covered' });
    if (l.mechanism && l.mechanism !== 'inadequate-check' && l.test !== 'not-covered') ctx.addIssue({ code: 'custom', path: ['mechanism'], message: `${l.mechanism} means no test passing gold covers it: test must be not-covered` });
  });
export type FaultLabel = z.infer<typeof FaultLabel>;

export const FaultLabelsFile = z
  .object({
    what: z.string().min(1),
    written: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    labels: z.record(z.string().regex(/^O\d+$/), FaultLabel),
  })
  .strict();
export type FaultLabelsFile = z.infer<typeof FaultLabelsFile>;

/** One fault program of a task. */
export interface Fault {
  taskId: string;
  name: string;
  dir: string;
  solution: string;
  suite: string;
  plan: string;
  labels: FaultLabelsFile;
}

export const FAULT_FILES = ['solution.py', 'test_solution.py', 'plan.md', 'labels.yaml'] as const;

/**
 * Reads the faults of a task folder (`<taskDir>/faults/<name>/`, names sorted).
 * Input: the task folder, its id and obligations. Returns the faults that load, and a problem
 * (naming file and field) for a missing file, a malformed labels.yaml, or labels that do not
 * name every obligation of the task exactly once.
 */
export function readFaults(taskDir: string, taskId: string, obligations: ReadonlyArray<Pick<Obligation, 'id'>>): { faults: Fault[]; problems: TaskProblem[] } {
  const root = path.join(taskDir, 'faults');
  const faults: Fault[] = [];
  const problems: TaskProblem[] = [];
  if (!fs.existsSync(root)) return { faults, problems };
  for (const name of fs.readdirSync(root).sort()) {
    const dir = path.join(root, name);
    if (!fs.statSync(dir).isDirectory()) continue;
    const missing = FAULT_FILES.filter((f) => !fs.existsSync(path.join(dir, f)));
    if (missing.length) {
      problems.push({ file: displayPath(dir), field: '', message: `a fault folder needs ${missing.join(', ')}` });
      continue;
    }
    const file = path.join(dir, 'labels.yaml');
    const parsed = FaultLabelsFile.safeParse(parseYaml(fs.readFileSync(file, 'utf8')));
    if (!parsed.success) {
      for (const i of parsed.error.issues) problems.push({ file: displayPath(file), field: i.path.join('.'), message: i.message });
      continue;
    }
    const ids = obligations.map((o) => o.id);
    const extra = Object.keys(parsed.data.labels).filter((id) => !ids.includes(id));
    const absent = ids.filter((id) => !(id in parsed.data.labels));
    if (extra.length || absent.length) {
      problems.push({ file: displayPath(file), field: 'labels', message: `${absent.length ? `no label for ${absent.join(', ')}` : ''}${absent.length && extra.length ? '; ' : ''}${extra.length ? `labels for obligations ${taskId} does not have: ${extra.join(', ')}` : ''}` });
      continue;
    }
    faults.push({ taskId, name, dir, solution: path.join(dir, 'solution.py'), suite: path.join(dir, 'test_solution.py'), plan: path.join(dir, 'plan.md'), labels: parsed.data });
  }
  return { faults, problems };
}
