/**
 * tables.json, the file staged beside every acceptance test (activities/python/lockin_acceptance.py
 * TaskTables reads it): the task's input tables as task.yaml declares them, the column families
 * (columns.ts columnFamilies) and, per obligation, the input columns it names (columns.ts
 * obligationColumns). With it a fixture row names only the columns it needs and TaskTables fills
 * the rest: a member of a named column's family copies it, unless the running test's obligation
 * names the family, then it differs (tasks/README.md "Discriminating fixtures").
 */
import type { Obligation, TaskSpec } from '../../protocol/corpus';
import { columnFamilies, obligationColumns } from './columns';

/** The name of the input-table file staged beside an acceptance test (lockin_acceptance.TaskTables). */
export const TABLES_FILE = 'tables.json';

/**
 * The content of tables.json for a task:
 * `{"schemaVersion": 2, "tables": [{name, columns: [{name, type, nullable}]}], "families": {table: [[col, …], …]}, "obligations": {Oid: [col, …]}}`.
 * Input: the task's task.yaml and its obligations. Output: the JSON text, one line and a newline.
 */
export function tablesJson(task: TaskSpec, obligations: ReadonlyArray<Obligation>): string {
  const named = Object.fromEntries(obligations.map((o) => [o.id, obligationColumns(o, task)]));
  return `${JSON.stringify({ schemaVersion: 2, tables: task.tables, families: columnFamilies(task), obligations: named })}\n`;
}
