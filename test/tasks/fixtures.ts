/** Shared fixtures for the task-corpus tests: a small valid task folder written to a temp dir. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import YAML from 'yaml';

/** A valid task.yaml value (q3-shaped; prose only). */
export function fixtureTask(): Record<string, unknown> {
  return {
    id: 'q3',
    title: 'Fixture task',
    question: 'How much did each brand sell in November?',
    tables: [
      {
        name: 'date_dim',
        columns: [
          { name: 'd_date_sk', type: 'int', nullable: false },
          { name: 'd_year', type: 'int', nullable: true },
          { name: 'd_moy', type: 'int', nullable: true },
        ],
      },
      {
        name: 'store_sales',
        columns: [
          { name: 'ss_sold_date_sk', type: 'int', nullable: true },
          { name: 'ss_item_sk', type: 'int', nullable: false },
          { name: 'ss_ext_sales_price', type: 'decimal(7,2)', nullable: true },
        ],
      },
    ],
    joins: ['store_sales.ss_sold_date_sk matches date_dim.d_date_sk'],
    filters: ['only sales made in November (date_dim.d_moy is 11)'],
    aggregations: ['total the extended sales price per year'],
    output: { columns: [{ name: 'd_year', description: 'the year', type: 'int' }, { description: 'the total' }] },
    ordering: ['year ascending'],
    limit: 100,
    artifacts: ['plan.md', 'solution.py', 'test_solution.py'],
  };
}

/** A valid obligations.yaml value for fixtureTask (8 obligations). */
export function fixtureObligations(): Record<string, unknown> {
  const pi = (id: string, kind: string, passage: string) => ({ id, statement: `statement ${id}`, class: 'prompt-inferable', kind, passage });
  return {
    task: 'q3',
    obligations: [
      pi('O1', 'join', 'store_sales.ss_sold_date_sk matches date_dim.d_date_sk'),
      pi('O2', 'filter', 'date_dim.d_moy is 11'),
      pi('O3', 'grouping-grain', 'per year'),
      pi('O4', 'ordering', 'year ascending'),
      pi('O5', 'limit', 'limit: 100'),
      { id: 'O6', statement: 'sum is decimal(17,2)', class: 'schema-grounded', kind: 'type-precision' },
      { id: 'O7', statement: 'the total is named sum_agg', class: 'hidden-reference', kind: 'alias', decided_by: 'the alias' },
      pi('O8', 'schema', 'name: d_year'),
    ],
  };
}

/** Writes a task folder `<tmp>/<taskId>/` from the given values (or texts) and returns the corpus root. */
export function writeFixtureCorpus(task: unknown = fixtureTask(), obligations: unknown = fixtureObligations(), taskId = 'q3'): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-tasks-'));
  fs.mkdirSync(path.join(root, taskId));
  fs.writeFileSync(path.join(root, taskId, 'task.yaml'), typeof task === 'string' ? task : YAML.stringify(task));
  fs.writeFileSync(path.join(root, taskId, 'obligations.yaml'), typeof obligations === 'string' ? obligations : YAML.stringify(obligations));
  return root;
}
