/**
 * Loads the 103 reference query texts once per process (in memory, never written to disk) and
 * indexes them for the preflight's n-gram check (docs/protocol.md §3).
 *
 * Source order: `activities/python/queries.py texts --ids q1,... --jar <jar>` (the data engineer's
 * script, JSON {source, texts: {id: text}} on its last stdout line); if it is missing or fails, the `tpcds/` folder of
 * Spark's tests jar read by `jar_query_texts.py` (the jar under LOCKIN_HOME, else the
 * repository's `.lockin`). No texts at all is an error: the preflight cannot run, so nothing is sent.
 */
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { pythonDir, REPO_ROOT, sparkTestsJar } from '../common/paths';
import { runPythonJson } from '../common/python';
import { buildSqlIndex, SqlIndex } from './sqlNgrams';

/** The 103 TPC-DS variants: q1..q99 with q14, q23, q24, q39 split into a/b. */
export const QUERY_IDS: string[] = (() => {
  const ids: string[] = [];
  for (let i = 1; i <= 99; i++) {
    if ([14, 23, 24, 39].includes(i)) ids.push(`q${i}a`, `q${i}b`);
    else ids.push(`q${i}`);
  }
  return ids;
})();

const Texts = z.record(z.string(), z.string());
/** queries.py texts: {source, texts: {id: text}}. */
const QueriesPyTexts = z.object({ source: z.string(), texts: Texts });

let cached: Promise<{ texts: Record<string, string>; index: SqlIndex; source: string }> | null = null;

async function loadTexts(): Promise<{ texts: Record<string, string>; source: string }> {
  const problems: string[] = [];
  const jars = [sparkTestsJar(), path.join(REPO_ROOT, '.lockin', 'cache', 'jars', path.basename(sparkTestsJar()))];
  const jar = jars.find((j) => fs.existsSync(j));
  const queriesPy = path.join(pythonDir(), 'queries.py');
  if (fs.existsSync(queriesPy)) {
    try {
      const args = ['texts', '--ids', QUERY_IDS.join(','), ...(jar ? ['--jar', jar] : [])];
      const out = await runPythonJson('queries.py', args, QueriesPyTexts, { timeoutMs: 120_000 });
      if (Object.keys(out.texts).length >= 99) return { texts: out.texts, source: `queries.py (${out.source})` };
      problems.push(`queries.py returned ${Object.keys(out.texts).length} texts`);
    } catch (e) {
      problems.push(`queries.py: ${(e as Error).message.slice(0, 300)}`);
    }
  }
  try {
    const texts = await runPythonJson(path.join(REPO_ROOT, 'activities', 'preflight', 'jar_query_texts.py'), jars, Texts, { timeoutMs: 120_000 });
    return { texts, source: `jar (${jar})` };
  } catch (e) {
    problems.push(`jar: ${(e as Error).message.slice(0, 300)}`);
  }
  throw new Error(`preflight: cannot load the reference query texts, so no request may be sent: ${problems.join('; ')}`);
}

/**
 * The reference query texts and their n-gram index, loaded once per process.
 * @throws Error when neither queries.py nor the jar yields texts (the caller fails the call).
 */
export function referenceSql(): Promise<{ texts: Record<string, string>; index: SqlIndex; source: string }> {
  if (!cached) {
    cached = loadTexts().then(({ texts, source }) => ({ texts, source, index: buildSqlIndex(texts) }));
    cached.catch(() => (cached = null));
  }
  return cached;
}
