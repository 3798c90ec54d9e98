/**
 * Reads reference query texts (Spark's TPC-DS v1.4 set) at run time, for the leak check only.
 * Texts are never copied into the repository (docs/protocol.md §1).
 *
 * Source: `activities/python/queries.py texts --ids q1,q3` when that script exists (the data
 * engineer's reader), else the tests jar read directly with Python's zipfile (`tpcds/<taskId>.sql`).
 */
import execa from 'execa';
import * as fs from 'fs';
import * as path from 'path';
import { pythonDir, sparkTestsJar, venvPython } from '../common/paths';

const ZIP_READER = [
  'import json, sys, zipfile',
  'jar, ids = sys.argv[1], [i for i in sys.argv[2].split(",") if i]',
  'z = zipfile.ZipFile(jar)',
  'names = set(z.namelist())',
  'out = {i: z.read(f"tpcds/{i}.sql").decode("utf-8") for i in ids if f"tpcds/{i}.sql" in names}',
  'print(json.dumps({"texts": out}))',
].join('\n');

/** Extracts {taskId: text} from the last JSON line of a reader's stdout (accepts {texts:{..}}, {queries:{..}}, or a flat map). */
function parseTexts(stdout: string): Record<string, string> {
  const last = stdout.trim().split('\n').pop() ?? '';
  const obj = JSON.parse(last) as Record<string, unknown>;
  const inner = (obj.texts ?? obj.queries ?? obj) as unknown;
  const out: Record<string, string> = {};
  if (Array.isArray(inner)) {
    for (const e of inner) if (e && typeof e.id === 'string' && typeof e.text === 'string') out[e.id] = e.text;
  } else if (inner && typeof inner === 'object') {
    for (const [k, v] of Object.entries(inner as Record<string, unknown>)) {
      if (typeof v === 'string') out[k] = v;
      else if (v && typeof v === 'object' && typeof (v as { text?: unknown }).text === 'string') out[k] = (v as { text: string }).text;
    }
  }
  return out;
}

/**
 * Returns {taskId: query text} for the requested variant ids (missing ids are absent from the map).
 * Inputs: variant ids; the jar path (default sparkTestsJar()).
 * @throws Error when neither reader works (names the jar path).
 */
export async function readQueryTexts(ids: readonly string[], jar: string = sparkTestsJar()): Promise<Record<string, string>> {
  if (ids.length === 0) return {};
  const script = path.join(pythonDir(), 'queries.py');
  if (fs.existsSync(script)) {
    const res = await execa(venvPython(), [script, 'texts', '--ids', ids.join(',')], { reject: false, env: { PYTHONPATH: pythonDir() } });
    if (res.exitCode === 0) {
      try {
        const texts = parseTexts(res.stdout);
        if (Object.keys(texts).length > 0) return texts;
      } catch {
        /* fall through to the jar */
      }
    }
  }
  if (!fs.existsSync(jar)) throw new Error(`${jar}: the Spark tests jar is missing (run \`npm run setup\`)`);
  const res = await execa(venvPython(), ['-c', ZIP_READER, jar, ids.join(',')], { reject: false });
  if (res.exitCode !== 0) throw new Error(`reading query texts from ${jar} failed: ${res.stderr.slice(-500)}`);
  return parseTexts(res.stdout);
}
