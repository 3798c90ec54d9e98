/**
 * Finds and loads a candidate or reference output given as a file or a folder.
 *
 * Accepted forms: an `.arrow` file (Arrow IPC) or a `.parquet` file, with the Spark schema
 * JSON beside it (`<stem>.schema.json` or `schema.json`); or a folder holding
 * `output.arrow` | `reference.arrow` | `output.parquet` | `reference.parquet` plus `schema.json`.
 * Parquet is converted by `activities/python/to_arrow.py` (pyarrow), which takes the Spark
 * schema from Spark's Parquet metadata or derives it from Arrow when no schema.json exists.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { InputError, SubprocessError } from '../common/errors';
import { PlainTable, readArrowTable } from './table';

/** A resolved output: the data file and its Spark schema file (if one exists). */
export interface OutputFiles {
  dataFile: string;
  schemaFile?: string;
}

const DATA_NAMES = ['output.arrow', 'reference.arrow', 'output.parquet', 'reference.parquet'];

/**
 * Resolves a CLI/activity argument to the data file and schema file.
 * @throws InputError naming the path when it does not exist or holds no known output file.
 */
export function resolveOutput(arg: string): OutputFiles {
  const p = path.resolve(arg);
  if (!fs.existsSync(p)) throw new InputError('no such file or folder', p);
  if (fs.statSync(p).isDirectory()) {
    const name = DATA_NAMES.find((n) => fs.existsSync(path.join(p, n)));
    if (!name) throw new InputError(`folder holds none of ${DATA_NAMES.join(', ')}`, p);
    const schema = path.join(p, 'schema.json');
    return { dataFile: path.join(p, name), schemaFile: fs.existsSync(schema) ? schema : undefined };
  }
  if (/\.(csv|tsv)$/i.test(p)) throw new InputError('a CSV file has no column types, and reference agreement compares Spark types (docs/protocol.md §4): write it as Parquet (pandas: pd.read_csv(f).to_parquet("x.parquet"), with the dtypes you mean) or give the .parquet export beside it', p);
  if (!/\.(arrow|parquet)$/i.test(p)) throw new InputError('expected an .arrow or .parquet file, or a folder', p);
  const stemSchema = p.replace(/\.(arrow|parquet)$/i, '.schema.json');
  const besideSchema = path.join(path.dirname(p), 'schema.json');
  const schemaFile = fs.existsSync(stemSchema) ? stemSchema : fs.existsSync(besideSchema) ? besideSchema : undefined;
  return { dataFile: p, schemaFile };
}

/**
 * Loads resolved output files into the plain table model (Parquet through pyarrow).
 * @throws InputError naming the file when it is missing, unreadable or inconsistent with its schema.
 */
export async function loadOutputFiles(files: OutputFiles): Promise<PlainTable> {
  if (!/\.parquet$/i.test(files.dataFile)) return readArrowTable(files.dataFile, files.schemaFile);
  if (!fs.existsSync(files.dataFile)) throw new InputError('file not found', files.dataFile);
  // The Python runner and zod load only for Parquet input: an Arrow comparison (the CLI's
  // common case) starts without them.
  const { runPythonJson } = await import('../common/python');
  const { z } = await import('zod');
  const ToArrowResult = z.object({ arrowFile: z.string(), schemaFile: z.string(), schemaSource: z.enum(['spark-metadata', 'derived']), rows: z.number(), columns: z.number() });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-parquet-'));
  try {
    const out = await runPythonJson('to_arrow.py', [files.dataFile, path.join(tmp, 'data.arrow'), path.join(tmp, 'schema.json')], ToArrowResult, { timeoutMs: 120000 });
    const table = readArrowTable(out.arrowFile, files.schemaFile ?? out.schemaFile);
    return { ...table, source: files.dataFile, schemaSource: files.schemaFile ? 'schema.json' : out.schemaSource };
  } catch (e) {
    if (e instanceof SubprocessError) throw new InputError(`not a readable Parquet file: ${e.stderrTail.trim().split('\n').pop() ?? ''}`, files.dataFile);
    if (e instanceof InputError && e.file && e.file.startsWith(tmp)) throw new InputError(e.message.slice(e.file.length + 2), files.dataFile, e.field);
    throw e;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Resolves and loads a file-or-folder argument (see resolveOutput and loadOutputFiles). */
export async function loadOutput(arg: string): Promise<PlainTable> {
  return loadOutputFiles(resolveOutput(arg));
}
