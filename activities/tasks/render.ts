/**
 * A fallback rendering of a task as the prompt text the model sees (docs/protocol.md §1–2:
 * "task + input schemas"). The gateway's `renderTaskPrompt` (activities/model/prompts.ts) is the
 * authority when it exists; `lockin tasks show` uses it and falls back to this renderer.
 * Pure: the same TaskSpec always renders the same text.
 */
import type { TaskSpec } from './schema';

/** Renders a bullet list, or "(none)" when empty. */
function bullets(items: readonly string[]): string {
  return items.length === 0 ? '- (none)' : items.map((s) => `- ${s}`).join('\n');
}

/**
 * Renders the task prompt: title, business question, input tables (columns with Spark type and
 * nullability, no rows), joins, filters, aggregations, output columns, ordering, limit, notes,
 * and the requested artifacts with the `solve(spark, tables) -> DataFrame` contract.
 * Inputs: a validated TaskSpec. Returns: Markdown text ending in a newline.
 */
export function renderTaskPromptFallback(task: TaskSpec): string {
  const parts: string[] = [];
  parts.push(`# Task ${task.id}: ${task.title}`, '', task.question.trim(), '');
  parts.push('## Input tables', '');
  for (const t of task.tables) {
    parts.push(`### ${t.name}`, '', '| column | type | nullable |', '|---|---|---|');
    for (const c of t.columns) parts.push(`| ${c.name} | ${c.type} | ${c.nullable ? 'yes' : 'no'} |`);
    parts.push('');
  }
  parts.push('## Joins', '', bullets(task.joins), '');
  parts.push('## Filters', '', bullets(task.filters), '');
  parts.push('## Aggregations', '', bullets(task.aggregations), '');
  parts.push('## Output columns (in this order)', '');
  task.output.columns.forEach((c, i) => {
    const head = [c.name ? `\`${c.name}\`` : null, c.type ? `(${c.type})` : null].filter(Boolean).join(' ');
    parts.push(`${i + 1}. ${head ? `${head}: ` : ''}${c.description}`);
  });
  parts.push('');
  parts.push('## Ordering', '', bullets(task.ordering), '');
  parts.push('## Limit', '', task.limit === null ? 'No row limit.' : `Return at most ${task.limit} rows (after ordering).`, '');
  if (task.notes && task.notes.length > 0) parts.push('## Notes', '', bullets(task.notes), '');
  parts.push(
    '## Requested artifacts',
    '',
    '- `plan.md`: your plan for the solution.',
    '- `solution.py`: a module exposing `solve(spark, tables) -> DataFrame`, where `tables` maps each input table name to its Spark DataFrame; use the PySpark DataFrame API.',
    '- `test_solution.py`: a pytest suite for `solve` (a session-scoped `spark` fixture is provided).',
    '',
  );
  return parts.join('\n');
}
