/**
 * Benchmark (a script, not a test): lockin's comparator against
 * pyspark.testing.assertDataFrameEqual and a pandas multiset comparison, on the same inputs,
 * one run each.
 *
 * Inputs: the reference inventory of one scale (referencesDir(S), or --references DIR); the cases
 * are the 57 evaluator controls of Table II built from them, plus two probes per method
 * boundary (column names upper-cased: the protocol ignores name case; a double changed in its
 * last digits (relative 1e-9): the protocol is exact on doubles).
 *
 * Usage: npm run build && node dist/bench/compare.js [--scale S] [--references DIR]
 * Prints: total and per-case time of each method, the ratios to lockin's time, and every case on
 * which the verdicts disagree with each method's reason.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import execa from 'execa';
import { loadReferenceInventory, jsonReplacer } from '../activities/compare/activity';
import { compareTables } from '../activities/compare/compare';
import { buildControlCases, ControlCase } from '../activities/compare/controls';
import { isFloatingType, PlainTable } from '../activities/compare/table';
import { referencesDir, venvPython, REPO_ROOT } from '../activities/common/paths';
import { DEFAULT_SPARK_SETTINGS } from '../protocol/settings';

interface BenchCase {
  id: string;
  candidate: PlainTable;
  reference: PlainTable;
}

interface PyCase {
  id: string;
  pandasAgree: boolean;
  pandasReason: string;
  pandasMs: number;
  sparkAgree: boolean;
  sparkReason: string;
  sparkMs: number;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Extra probes at the protocol's boundaries (name case ignored; doubles exact). */
function probes(refs: { taskId: string; table: PlainTable }[]): BenchCase[] {
  const out: BenchCase[] = [];
  for (const r of refs.filter((x) => x.table.rows.length >= 2).slice(0, 3)) {
    out.push({ id: `probe-name-case:${r.taskId}`, reference: r.table, candidate: { ...r.table, columns: r.table.columns.map((c) => ({ ...c, name: c.name.toUpperCase() })) } });
  }
  let n = 0;
  for (const r of refs) {
    if (n === 3) break;
    const j = r.table.columns.findIndex((c, k) => isFloatingType(c.type) && r.table.rows.some((row) => typeof row[k] === 'number' && Number.isFinite(row[k] as number) && row[k] !== 0));
    if (j < 0) continue;
    const i = r.table.rows.findIndex((row) => typeof row[j] === 'number' && Number.isFinite(row[j] as number) && row[j] !== 0);
    const rows = r.table.rows.map((row, k) => (k === i ? row.map((v, m) => (m === j ? (v as number) * (1 + 1e-9) : v)) : row));
    out.push({ id: `probe-double-1e-9:${r.taskId}`, reference: r.table, candidate: { ...r.table, rows } });
    n++;
  }
  return out;
}

/** Why a baseline's verdict differs from lockin's, by the kind of case (the known blind spots). */
function explain(id: string, lockinAgree: boolean, p: PyCase): string[] {
  const kind = id.split(':')[0];
  const out: string[] = [];
  if (p.pandasAgree !== lockinAgree) {
    if (!p.pandasAgree && /NaN/.test(p.pandasReason)) out.push('pandas: nulls in numeric columns become float NaN, and NaN != NaN inside row tuples, so equal tables differ');
    else if (p.pandasAgree && kind === 'type-change') out.push('pandas: decimals are Python Decimal objects in an "object" column, so the declared precision/scale is invisible (the paper\'s q33 case)');
    else if (p.pandasAgree && kind === 'probe-name-case') out.push('pandas: the baseline lower-cases names like the protocol');
    else out.push(`pandas: ${p.pandasReason || 'accepted'}`);
  }
  if (p.sparkAgree !== lockinAgree) {
    if (p.sparkAgree && (kind === 'numeric-value-change' || kind === 'probe-double-1e-9')) out.push('pyspark: assertDataFrameEqual compares numbers (decimals included) within rtol=1e-5, atol=1e-8; the protocol is exact');
    else if (!p.sparkAgree && kind === 'probe-name-case') out.push('pyspark: assertDataFrameEqual compares column names case-sensitively; the protocol lower-cases them');
    else out.push(`pyspark: ${p.sparkReason || 'accepted'}`);
  }
  return out;
}

async function main(): Promise<void> {
  const scale = Number(arg('--scale') ?? '1');
  const dir = arg('--references') ?? referencesDir(scale);
  const { references, missing } = await loadReferenceInventory(dir);
  if (references.length === 0) throw new Error(`${dir}: no references`);
  const controlCases = buildControlCases(references, missing).filter((c): c is ControlCase & { candidate: PlainTable; reference: PlainTable } => c.candidate !== null && c.reference !== null);
  const cases: BenchCase[] = [...controlCases.map((c) => ({ id: c.id, candidate: c.candidate, reference: c.reference })), ...probes(references)];
  const rows = references.reduce((s, r) => s + r.table.rows.length, 0);
  process.stdout.write(`references: ${dir} (${references.length} loaded, ${missing.length} missing, ${rows} rows in all)\n`);
  process.stdout.write(`cases: ${cases.length} (${controlCases.length} evaluator controls + ${cases.length - controlCases.length} probes)\n`);

  // lockin: one warm-up comparison (as the Spark baseline gets), then one run over all cases
  // (tables already in memory; loading is not timed).
  compareTables(cases[0].candidate, cases[0].reference);
  const lockin: { agree: boolean; ms: number; reason: string }[] = [];
  const t0 = process.hrtime.bigint();
  for (const c of cases) {
    const s = process.hrtime.bigint();
    const r = compareTables(c.candidate, c.reference);
    lockin.push({ agree: r.agree, ms: Number(process.hrtime.bigint() - s) / 1e6, reason: r.agree ? '' : r.categories.join(', ') });
  }
  const lockinMs = Number(process.hrtime.bigint() - t0) / 1e6;

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-bench-'));
  try {
    const casesFile = path.join(tmp, 'cases.json');
    const plainSpec = (t: PlainTable) => ({ columns: t.columns.map((c) => ({ name: c.name, type: c.type })), rows: t.rows });
    fs.writeFileSync(casesFile, JSON.stringify({ cases: cases.map((c) => ({ id: c.id, candidate: plainSpec(c.candidate), reference: plainSpec(c.reference) })) }, jsonReplacer));
    const settings = { ...DEFAULT_SPARK_SETTINGS, driverMemory: '2g' };
    process.stdout.write('running pandas and pyspark baselines (one Spark session)...\n');
    const res = await execa(venvPython(), [path.join(REPO_ROOT, 'bench', 'compare.py'), casesFile, JSON.stringify(settings)], { reject: false, env: { PYTHONUNBUFFERED: '1' } });
    if (res.exitCode !== 0) throw new Error(`bench/compare.py failed (exit ${res.exitCode}): ${res.stderr.slice(-2000)}`);
    const py = JSON.parse(res.stdout.trim().split('\n').pop() as string) as { pandas: { seconds: number }; spark: { seconds: number; sessionSeconds: number; buildDataFramesSeconds: number }; cases: PyCase[] };
    const pandasMs = py.pandas.seconds * 1000;
    const sparkMs = py.spark.seconds * 1000;
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`.padStart(12);
    process.stdout.write(`\nmethod                               total        per case   ratio to lockin\n`);
    process.stdout.write(`lockin compareTables (TypeScript) ${fmt(lockinMs)} ${fmt(lockinMs / cases.length)}   1.0\n`);
    process.stdout.write(`pandas multiset (Counter of rows)  ${fmt(pandasMs)} ${fmt(pandasMs / cases.length)}   ${(pandasMs / lockinMs).toFixed(1)}x\n`);
    process.stdout.write(`pyspark assertDataFrameEqual       ${fmt(sparkMs)} ${fmt(sparkMs / cases.length)}   ${(sparkMs / lockinMs).toFixed(1)}x\n`);
    process.stdout.write(`(not included: Spark session start ${py.spark.sessionSeconds.toFixed(1)} s, building the DataFrames ${py.spark.buildDataFramesSeconds.toFixed(1)} s)\n\n`);

    let disagreements = 0;
    cases.forEach((c, i) => {
      const p = py.cases[i];
      const l = lockin[i];
      if (p.id !== c.id) throw new Error(`case order mismatch: ${p.id} vs ${c.id}`);
      const verdict = (a: boolean) => (a ? 'accept' : 'reject');
      if (p.pandasAgree !== l.agree || p.sparkAgree !== l.agree) {
        disagreements++;
        const why = explain(c.id, l.agree, p);
        process.stdout.write(`DISAGREE ${c.id}: lockin ${verdict(l.agree)}${l.reason ? ` (${l.reason})` : ''}; `
          + `pandas ${verdict(p.pandasAgree)}${p.pandasReason ? ` (${p.pandasReason})` : ''}; `
          + `pyspark ${verdict(p.sparkAgree)}${p.sparkReason ? ` (${p.sparkReason})` : ''}\n`
          + why.map((w) => `    why: ${w}\n`).join(''));
      }
    });
    process.stdout.write(`${disagreements} case(s) with a verdict disagreement out of ${cases.length}\n`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench/compare: ${(e as Error).message}\n`);
  process.exit(2);
});
