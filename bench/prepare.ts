/**
 * Benchmark of the data foundation (not a test): seconds for generation, load and the reference
 * build at a scale (default SF=1), and the reference build's seconds per query.
 *
 *   node dist/bench/prepare.js [--scale 1] [--home DIR] [--driver-memory 3g] [--keep]
 *
 * Runs in a fresh LOCKIN_HOME (a temporary folder, removed afterwards unless --keep or --home)
 * so no step is skipped; with --home pointing at an existing home, skipped steps report ~0 s
 * and the per-query times are the ones recorded in references.json.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DEFAULT_SPARK_SETTINGS, type SparkSettings } from '../protocol/settings';
import { buildReferences, generateTables, loadTables } from '../activities/data';

function arg(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

async function main(): Promise<void> {
  const scale = Number(arg('--scale', '1'));
  const given = arg('--home');
  const home = given ? path.resolve(given) : fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-bench-prepare-'));
  process.env.LOCKIN_HOME = home;
  const settings: SparkSettings = { ...DEFAULT_SPARK_SETTINGS, driverMemory: arg('--driver-memory', '3g') as string };
  const clock = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
    const t = Date.now();
    const r = await fn();
    return [r, (Date.now() - t) / 1000];
  };
  try {
    const [gen, genS] = await clock(() => generateTables({ scale }));
    const [load, loadS] = await clock(() => loadTables({ scale, settings }));
    const [refs, refsS] = await clock(() => buildReferences({ scale, settings }));
    const out = process.stdout;
    out.write(`scale ${scale}  home ${home}\n`);
    out.write(`generation  ${genS.toFixed(1)} s${gen.generate.skipped ? ' (skipped: already generated)' : ''}\n`);
    out.write(`load        ${loadS.toFixed(1)} s${load.load.skipped ? ' (skipped: matches manifest)' : ''}\n`);
    out.write(`references  ${refsS.toFixed(1)} s (${refs.built.length} built, ${refs.skipped.length} already stored, ${refs.failed.length} failed)\n`);
    out.write('per query (reference build, seconds incl. collect + Arrow write):\n');
    for (const [id, s] of Object.entries(refs.seconds).sort((a, b) => b[1] - a[1])) out.write(`  ${id.padEnd(5)} ${s.toFixed(1)}\n`);
    out.write(`rows: store_sales ${load.load.rows.store_sales}, date_dim ${load.load.rows.date_dim}, item ${load.load.rows.item}\n`);
  } finally {
    if (!given && !process.argv.includes('--keep')) fs.rmSync(home, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
});
