/**
 * `tasks/<taskId>/evaluation.yaml`: evaluation configuration of one task, never shown to the model
 * (kept out of task.yaml for that reason). Today it holds the keys of the key-aligned tolerance
 * comparison, robustness (a) of docs/protocol.md §4 (paper: "Robustness analyses").
 *
 * ```yaml
 * keys: [i_item_id, i_item_desc, s_state]   # output columns; [] = the whole output is one group
 * basis: paper                               # paper: a task the paper's analysis names; doubles: lockin adds it (double outputs)
 * reason: the query's GROUP BY columns, all in the output
 * ```
 *
 * Keys are the query's grouping keys where the output holds them. Where it does not (a global
 * aggregate: one group, `keys: []`; q78's output drops its grouping columns), the file says
 * what stands in for them in `reason`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { tasksRoot } from '../common/paths';
import { displayPath, parseYamlWith, TaskLoadError, type TaskProblem } from './load';

/** The schema of evaluation.yaml. */
export const EvaluationSpec = z
  .object({
    /** Output column names (case-insensitive) the rows are aligned on; [] = one group. */
    keys: z.array(z.string().min(1)),
    /** 'paper': the paper's robustness analysis names this task; 'doubles': lockin adds it because the output has double columns. */
    basis: z.enum(['paper', 'doubles']),
    /** Why these keys: which part of the query they come from. */
    reason: z.string().min(1),
  })
  .strict();
export type EvaluationSpec = z.infer<typeof EvaluationSpec>;

/** Path of a task's evaluation.yaml. */
export function evaluationFile(taskId: string, root: string = tasksRoot()): string {
  return path.join(root, taskId, 'evaluation.yaml');
}

/**
 * Loads and validates `<root>/<taskId>/evaluation.yaml`.
 * @returns the spec, or undefined when the task has no such file
 * @throws TaskLoadError naming the file and field of every problem (bad YAML, a missing or mistyped field)
 */
export function loadEvaluationSpec(taskId: string, root: string = tasksRoot()): EvaluationSpec | undefined {
  const abs = evaluationFile(taskId, root);
  if (!fs.existsSync(abs)) return undefined;
  const r = parseYamlWith(displayPath(abs), fs.readFileSync(abs, 'utf8'), EvaluationSpec);
  if (r.problems.length > 0 || !r.value) throw new TaskLoadError(r.problems);
  return r.value;
}

/**
 * Problems of an evaluation spec against the reference's columns: every key must be a column
 * (case-insensitive), no key twice. @returns problems naming the file and field (empty when fine).
 */
export function checkEvaluationKeys(spec: EvaluationSpec, referenceColumns: string[], file: string): TaskProblem[] {
  const names = referenceColumns.map((c) => c.toLowerCase());
  const out: TaskProblem[] = [];
  const seen = new Set<string>();
  spec.keys.forEach((k, i) => {
    const lk = k.toLowerCase();
    if (!names.includes(lk)) out.push({ file, field: `keys[${i}]`, message: `"${k}" is not a reference column (${referenceColumns.join(', ')})` });
    if (seen.has(lk)) out.push({ file, field: `keys[${i}]`, message: `"${k}" is given twice` });
    seen.add(lk);
  });
  return out;
}
