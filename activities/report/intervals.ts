/**
 * The report's "Samples and intervals" section (docs/protocol.md §7): per model and condition,
 * the false-pass, test-pass and reference-agreement rates over all runs (every task × sample)
 * with Wilson 95 % intervals and, when a task has more than one sample, a cluster-bootstrap
 * interval with tasks as clusters; paired comparisons between conditions on the same task and
 * sample (exact McNemar per outcome; sign test and Wilcoxon signed-rank on the per-task change
 * of the false-pass rate, with its median and Tukey hinges); between models, the same McNemar
 * comparisons per condition on the task × sample runs both models have.
 * Runs of a targeted replication (Table VII) are left out. Pure.
 */
import { CONDITIONS, BUDGETS, type ConditionId } from '../../protocol/conditions';
import type { RunRecord } from '../../protocol/types';
import { clusterBootstrap, discordantPairs, mcnemarExact, pooledRate, signTest, wilcoxonSignedRank, wilson, type BootstrapResult, type McNemarResult, type Proportion, type SignTestResult, type WilcoxonResult } from '../common/intervals';
import { tukeyHinges } from '../scoring/scores';
import { mdTable } from './tables';

/** The three binary outcomes of a run. */
export const OUTCOMES = [
  ['falsePass', 'false pass'],
  ['testPassed', 'test pass'],
  ['referenceAgreement', 'reference agreement'],
] as const;
export type Outcome = (typeof OUTCOMES)[number][0];

export interface RateCell {
  /** Wilson 95 % interval over all runs (runs treated as independent). */
  wilson: Proportion;
  /** Percentile bootstrap over tasks (present when some task has more than one sample). */
  bootstrap?: BootstrapResult;
}

export interface ConditionRates {
  condition: ConditionId;
  runs: number;
  tasks: number;
  rates: Record<Outcome, RateCell>;
}

export interface PairedComparison {
  first: string;
  second: string;
  /** Task × sample runs both sides have. */
  pairs: number;
  mcnemar: Record<Outcome, McNemarResult>;
  /** Per-task change of the false-pass rate (second − first) over the shared samples. */
  perTaskFalsePassChange?: { tasks: number; sign: SignTestResult; wilcoxon: WilcoxonResult; median: number; lower: number; upper: number };
}

export interface ModelIntervals {
  model: string;
  tasks: string[];
  /** Largest number of samples of any task. */
  samples: number;
  conditions: ConditionRates[];
  /** Between conditions, in CONDITIONS order (one-pass vs each branch, then the branches). */
  paired: PairedComparison[];
}

export interface IntervalAnalysis {
  seed: number;
  bootstrapReplicates: number;
  models: ModelIntervals[];
  /** Between models, per condition: "<condition>: <model a> vs <model b>". */
  betweenModels: (PairedComparison & { condition: ConditionId })[];
}

const runKey = (r: RunRecord) => `${r.taskId}~${r.sample ?? 1}`;

function rateCell(runs: RunRecord[], outcome: Outcome, multiSample: boolean, opts: { seed: number; replicates: number }): RateCell {
  const x = runs.filter((r) => r[outcome]).length;
  const cell: RateCell = { wilson: wilson(x, runs.length) };
  if (multiSample && runs.length > 0) {
    const byTask = new Map<string, boolean[]>();
    for (const r of runs) byTask.set(r.taskId, [...(byTask.get(r.taskId) ?? []), r[outcome]]);
    cell.bootstrap = clusterBootstrap([...byTask.values()], pooledRate, { seed: opts.seed, replicates: opts.replicates });
  }
  return cell;
}

/** McNemar per outcome on the keys both maps have, plus the per-task false-pass change. */
function compare(first: string, second: string, a: Map<string, RunRecord>, b: Map<string, RunRecord>, perTask: boolean): PairedComparison {
  const keys = [...a.keys()].filter((k) => b.has(k)).sort();
  const mcnemar = Object.fromEntries(
    OUTCOMES.map(([o]) => {
      const d = discordantPairs(keys.map((k) => a.get(k)![o]), keys.map((k) => b.get(k)![o]));
      return [o, mcnemarExact(d.b, d.c)];
    }),
  ) as Record<Outcome, McNemarResult>;
  const out: PairedComparison = { first, second, pairs: keys.length, mcnemar };
  if (perTask && keys.length > 0) {
    const byTask = new Map<string, { a: number; b: number; n: number }>();
    for (const k of keys) {
      const t = a.get(k)!.taskId;
      const e = byTask.get(t) ?? { a: 0, b: 0, n: 0 };
      e.a += a.get(k)!.falsePass ? 1 : 0;
      e.b += b.get(k)!.falsePass ? 1 : 0;
      e.n += 1;
      byTask.set(t, e);
    }
    const diffs = [...byTask.values()].map((e) => (e.b - e.a) / e.n);
    const h = tukeyHinges(diffs);
    out.perTaskFalsePassChange = { tasks: diffs.length, sign: signTest(diffs), wilcoxon: wilcoxonSignedRank(diffs), median: h.median, lower: h.lower, upper: h.upper };
  }
  return out;
}

/**
 * Computes the section's numbers.
 * @param records every run record of the study (records.jsonl); replicate runs are ignored.
 * @param opts seed (default 1) and replicates (default 2000) of the cluster bootstrap.
 */
export function intervalAnalysis(records: readonly RunRecord[], opts: { seed?: number; replicates?: number } = {}): IntervalAnalysis {
  const seed = opts.seed ?? 1;
  const replicates = opts.replicates ?? 2000;
  const primary = records.filter((r) => !r.replicate);
  const models = [...new Set(primary.map((r) => r.model))];
  const byModelCondition = (m: string, c: ConditionId) => new Map(primary.filter((r) => r.model === m && r.condition === c).map((r) => [runKey(r), r]));
  const out: IntervalAnalysis = { seed, bootstrapReplicates: replicates, models: [], betweenModels: [] };
  for (const m of models) {
    const mine = primary.filter((r) => r.model === m);
    const perTask = new Map<string, number>();
    for (const r of mine) perTask.set(r.taskId, Math.max(perTask.get(r.taskId) ?? 0, r.sample ?? 1));
    const samples = Math.max(1, ...perTask.values());
    const present = CONDITIONS.filter((c) => mine.some((r) => r.condition === c));
    const conditions = present.map((c) => {
      const runs = mine.filter((r) => r.condition === c);
      return {
        condition: c,
        runs: runs.length,
        tasks: new Set(runs.map((r) => r.taskId)).size,
        rates: Object.fromEntries(OUTCOMES.map(([o]) => [o, rateCell(runs, o, samples > 1, { seed, replicates })])) as Record<Outcome, RateCell>,
      };
    });
    const paired: PairedComparison[] = [];
    for (let i = 0; i < present.length; i++)
      for (let j = i + 1; j < present.length; j++) paired.push(compare(present[i], present[j], byModelCondition(m, present[i]), byModelCondition(m, present[j]), true));
    out.models.push({ model: m, tasks: [...perTask.keys()].sort((x, y) => x.localeCompare(y, 'en', { numeric: true })), samples, conditions, paired });
  }
  for (const c of CONDITIONS)
    for (let i = 0; i < models.length; i++)
      for (let j = i + 1; j < models.length; j++) {
        const a = byModelCondition(models[i], c);
        const b = byModelCondition(models[j], c);
        if (a.size && b.size) out.betweenModels.push({ condition: c, ...compare(models[i], models[j], a, b, true) });
      }
  return out;
}

const pc = (x: number) => `${(100 * x).toFixed(1)}%`;
const ci = (lo: number, hi: number) => `[${pc(lo)}, ${pc(hi)}]`;
const pv = (p: number) => (p < 0.001 ? '<0.001' : p.toFixed(3));
const name = (c: string) => (BUDGETS as Record<string, { name: string }>)[c]?.name ?? c;

function rateText(cell: RateCell): string {
  const w = cell.wilson;
  const base = `${w.x}/${w.n} = ${w.p === null ? '—' : pc(w.p)} ${ci(w.lower, w.upper)}`;
  return cell.bootstrap ? `${base}; tasks ${ci(cell.bootstrap.lower, cell.bootstrap.upper)}` : base;
}

function pairedTable(rows: (PairedComparison & { label: string })[]): string {
  return mdTable(
    ['Comparison', 'Pairs', ...OUTCOMES.map(([, l]) => `${l}: b / c, exact McNemar p`), 'False-pass rate change per task: median [hinges], sign p, Wilcoxon p'],
    rows.map((r) => [
      r.label,
      r.pairs,
      ...OUTCOMES.map(([o]) => `${r.mcnemar[o].b} / ${r.mcnemar[o].c}, p = ${pv(r.mcnemar[o].p)}`),
      r.perTaskFalsePassChange
        ? `${pc(r.perTaskFalsePassChange.median)} [${pc(r.perTaskFalsePassChange.lower)}, ${pc(r.perTaskFalsePassChange.upper)}] over ${r.perTaskFalsePassChange.tasks} tasks; sign p = ${pv(r.perTaskFalsePassChange.sign.p)}; Wilcoxon p = ${pv(r.perTaskFalsePassChange.wilcoxon.p)}`
        : '—',
    ]),
  );
}

/**
 * Renders the section as Markdown (one subsection per model, then the between-model table). Pure.
 * @param notes a sentence per model shown under its heading (e.g. that its replayed samples repeat one reply).
 */
export function renderIntervals(a: IntervalAnalysis, notes: Record<string, string> = {}): string {
  const out: string[] = [];
  out.push(
    'Rates over all runs (task × sample) of each model and condition, with Wilson 95 % intervals (runs counted as independent). With more than one sample per task, "tasks" is the 95 % percentile interval of a cluster bootstrap over tasks (tasks resampled with replacement, each with all its samples; ' +
      `${a.bootstrapReplicates} resamples, seed ${a.seed}), the interval to read when samples of one task are correlated. Paired comparisons use runs of the same task and sample: b = runs with the outcome under the first condition only, c = under the second only; exact two-sided McNemar p. Targeted-replication runs are not included.`,
    '',
  );
  for (const m of a.models) {
    out.push(`### Model ${m.model}`, '', `${m.tasks.length} task(s), up to ${m.samples} sample(s) per task.${notes[m.model] ? ` **${notes[m.model]}**` : ''}`, '');
    out.push(mdTable(['Condition', 'Runs', ...OUTCOMES.map(([, l]) => `${l} rate [95 %]`)], m.conditions.map((c) => [name(c.condition), c.runs, ...OUTCOMES.map(([o]) => rateText(c.rates[o]))])), '');
    if (m.paired.length) out.push('**Paired comparisons between conditions**', '', pairedTable(m.paired.map((p) => ({ ...p, label: `${name(p.first)} → ${name(p.second)}` }))), '');
  }
  if (a.betweenModels.length) out.push('### Between models', '', 'Same condition, runs of the same task and sample under both models.', '', pairedTable(a.betweenModels.map((p) => ({ ...p, label: `${name(p.condition)}: ${p.first} → ${p.second}` }))), '');
  return out.join('\n');
}
