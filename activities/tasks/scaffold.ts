/**
 * `lockin tasks scaffold <taskId> --tables a,b`: writes a task.yaml skeleton whose input tables
 * carry every column with its Spark type (docs/tpcds-types.md) and nullability (corpus convention).
 * Column types come from the database manifest (databaseDir(S)/manifest.json) when present, else
 * from the generator's Parquet (`/tmp/tpcds1/<table>.parquet` or LOCKIN_RAW_TPCDS) read with pyarrow
 * and mapped by docs/tpcds-types.md. No data is written to the repository.
 */
import execa from 'execa';
import * as fs from 'fs';
import * as path from 'path';
import { databaseDir, tasksRoot, venvPython } from '../common/paths';
import { InputError } from '../common/errors';
import { conventionNullable, loadedColumnName, manifestTables, tpcdsSparkType, type ColumnType } from './sparkTypes';

const ARROW_READER = [
  'import json, sys, pyarrow.parquet as pq',
  'out = {}',
  'for t in sys.argv[2].split(","):',
  '    s = pq.read_schema(f"{sys.argv[1]}/{t}.parquet")',
  '    out[t] = [[f.name, str(f.type)] for f in s]',
  'print(json.dumps(out))',
].join('\n');

/** The raw generator folder used when no manifest exists. */
export function rawGeneratorDir(): string {
  return process.env.LOCKIN_RAW_TPCDS ?? '/tmp/tpcds1';
}

/**
 * The columns of the given TPC-DS tables with study types and convention nullability.
 * Inputs: table names; the scale whose manifest is preferred.
 * Returns: {table: columns} and the source used ("manifest <path>" | "generator parquet <dir>").
 * @throws InputError naming the table when it is in neither source.
 */
export async function tableColumns(tables: string[], scale: number): Promise<{ columns: Record<string, ColumnType[]>; source: string }> {
  const manifestPath = path.join(databaseDir(scale), 'manifest.json');
  const out: Record<string, ColumnType[]> = {};
  if (fs.existsSync(manifestPath)) {
    const m = manifestTables(JSON.parse(fs.readFileSync(manifestPath, 'utf8')));
    for (const t of tables) {
      const cols = m.get(t);
      if (!cols) throw new InputError(`table "${t}" is not in the database manifest`, manifestPath, 'tables');
      out[t] = cols.map((c) => ({ name: c.name, type: c.type, nullable: conventionNullable(t, c.name === 'c_last_review_date' ? 'c_last_review_date_sk' : c.name) }));
    }
    return { columns: out, source: `manifest ${manifestPath}` };
  }
  const dir = rawGeneratorDir();
  for (const t of tables)
    if (!fs.existsSync(path.join(dir, `${t}.parquet`))) throw new InputError(`no ${t}.parquet (no manifest at ${manifestPath} either)`, dir, '--tables');
  const res = await execa(venvPython(), ['-c', ARROW_READER, dir, tables.join(',')]);
  const raw = JSON.parse(res.stdout.trim().split('\n').pop() ?? '{}') as Record<string, [string, string][]>;
  for (const t of tables)
    out[t] = raw[t].map(([name, arrow]) => ({ name: loadedColumnName(t, name), type: tpcdsSparkType(name, arrow), nullable: conventionNullable(t, name) }));
  return { columns: out, source: `generator parquet ${dir}` };
}

/**
 * Renders a task.yaml skeleton: identity, TODO prose fields, the tables with full column lists.
 * Inputs: the variant id; {table: columns} in the order to list them. Returns: YAML text.
 */
export function renderScaffold(taskId: string, columns: Record<string, ColumnType[]>): string {
  const lines = [
    `id: ${taskId}`,
    'title: TODO short title',
    'question: >-',
    '  TODO the business question in prose, as a careful analyst would state it (no SQL).',
    'tables:',
  ];
  for (const [t, cols] of Object.entries(columns)) {
    lines.push(`  - name: ${t}`, '    columns:');
    for (const c of cols) lines.push(`      - {name: ${c.name}, type: "${c.type}", nullable: ${c.nullable}}`);
  }
  lines.push(
    'joins:',
    '  - TODO how the tables relate, in prose',
    'filters:',
    '  - TODO each filter with the parameter values the reference uses',
    'aggregations:',
    '  - TODO grouping grain and measures',
    'output:',
    '  columns:',
    '    - description: TODO (give `name` only where a careful spec would; `type` when stated)',
    'ordering:',
    '  - TODO',
    'limit: null',
    'artifacts: [plan.md, solution.py, test_solution.py]',
    '',
  );
  return lines.join('\n');
}

/**
 * Writes tasks/<taskId>/task.yaml from the skeleton. Refuses to overwrite an existing file unless `force`.
 * Returns: the written path and the column source.
 * @throws InputError when the file exists (and not force) or a table is unknown.
 */
export async function scaffoldTask(taskId: string, tables: string[], opts: { scale: number; force?: boolean; root?: string }): Promise<{ path: string; source: string }> {
  if (!/^q\d+[ab]?$/.test(taskId)) throw new InputError(`"${taskId}" is not a variant id such as q3 or q14a`, undefined, 'taskId');
  const file = path.join(opts.root ?? tasksRoot(), taskId, 'task.yaml');
  if (fs.existsSync(file) && !opts.force) throw new InputError('exists already (pass --force to overwrite)', file);
  const { columns, source } = await tableColumns(tables, opts.scale);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, renderScaffold(taskId, columns));
  return { path: file, source };
}
