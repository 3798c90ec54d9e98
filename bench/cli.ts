/**
 * Benchmark (a script, not a test): start-up time of the `lockin` CLI, which loads a command's
 * module only when that command runs (client/cli.ts).
 *
 *   npm run build && node dist/bench/cli.js [--runs 10]
 *
 * Each case is a fresh `node bin/lockin …` process, timed from spawn to exit, run --runs times
 * (after one warm-up run); prints the median, minimum and maximum in milliseconds. Cases:
 * `--help` (no command module), `compare --help` (the compare module only), `compare T T --keys k
 * --atol 1e-6 --rtol 1e-6` on a two-row Arrow table written to a temporary folder (start-up plus
 * a trivial comparison), and, for contrast, a process that loads every command module, which is
 * what each call paid before the CLI was lazy. On a shared machine the figures move with its
 * load: compare the cases with each other, and rerun when the spread is wide.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { REPO_ROOT } from '../activities/common/paths';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

/** Milliseconds of one run of `node args…`; throws when the process fails unexpectedly. */
function timeOnce(args: string[], okCodes: number[]): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (!okCodes.includes(r.status ?? -1)) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr.toString().slice(-500)}`);
  return ms;
}

function stats(xs: number[]): { median: number; min: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { median: m, min: s[0], max: s[s.length - 1] };
}

function main(): void {
  const runs = Number(arg('--runs', '10'));
  const bin = path.join(REPO_ROOT, 'bin', 'lockin');
  const dist = path.join(REPO_ROOT, 'dist', 'client');
  if (!fs.existsSync(path.join(dist, 'index.js'))) throw new Error('not built: run `npm run build` first');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-bench-cli-'));
  try {
    const t = path.join(dir, 'T');
    fs.mkdirSync(t);
    fs.writeFileSync(path.join(t, 'output.arrow'), tableToIPC(tableFromArrays({ k: Int32Array.from([1, 1]), x: Float64Array.from([1.0, 2.0]) }), 'file'));
    const field = (name: string, type: string) => ({ name, type, nullable: true, metadata: {} });
    fs.writeFileSync(path.join(t, 'schema.json'), JSON.stringify({ type: 'struct', fields: [field('k', 'integer'), field('x', 'double')] }));
    const modules = fs.readdirSync(path.join(dist, 'commands')).filter((f) => f.endsWith('.js')).map((f) => path.join(dist, 'commands', f));
    const cases: { name: string; args: string[]; ok: number[] }[] = [
      { name: 'lockin --help', args: [bin, '--help'], ok: [0] },
      { name: 'lockin compare --help', args: [bin, 'compare', '--help'], ok: [0] },
      { name: 'lockin compare T T --keys k --atol 1e-6 --rtol 1e-6', args: [bin, 'compare', t, t, '--keys', 'k', '--atol', '1e-6', '--rtol', '1e-6'], ok: [0] },
      { name: `(contrast) load all ${modules.length} command modules`, args: ['-e', modules.map((m) => `require(${JSON.stringify(m)});`).join('')], ok: [0] },
    ];
    console.log(`lockin CLI start-up, ${runs} runs per case after one warm-up (ms: median [min, max])`);
    for (const c of cases) {
      timeOnce(c.args, c.ok);
      const s = stats(Array.from({ length: runs }, () => timeOnce(c.args, c.ok)));
      console.log(`  ${c.name.padEnd(58)} ${s.median.toFixed(0).padStart(5)}  [${s.min.toFixed(0)}, ${s.max.toFixed(0)}]`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
