/**
 * `lockin data`: the study's TPC-DS database, query variants and references (docs/protocol.md §1, §4).
 * Every sub-command starts a workflow (prepareDatabase, or one of workflows/commands.ts) and prints its result.
 *   lockin data prepare --scale S     generate + load + analysis check + 33 references (prepareDatabase workflow)
 *   lockin data queries               the 103 variants with the sha256 of each text and their source
 *   lockin data reproduce --scale S   re-execute the 33 in a fresh session; reproduced / not reproduced (referenceReproduction workflow)
 *   lockin data golden --scale S      compare the 33 with Spark's golden SF=1 answers
 *   lockin data verify --scale S      check the typed files against manifest.json
 *   lockin data variants --scale S [--seed N] [--variants nulls,dupdims,crosschannel]
 *                                     build seeded variant databases + the references on each (resumable)
 * Exit codes: 0 ok; 1 a check did not pass (not all reproduced, a reference failed) or an error.
 */
import { Command } from 'commander';
import { newTable } from '../table';
import { runEmbeddedWorkflow } from '../temporal';
import { DEFAULT_SPARK_SETTINGS, SparkSettingsSchema, type SparkSettings } from '../../protocol/settings';
import { InputError } from '../../activities/common/errors';
import { prepareWorkflowId } from '../../protocol/layout';
import { VARIANT_NAMES } from '../../protocol/differential';
import { prepareDatabase, type PrepareDatabaseInput, type PrepareDatabaseResult } from '../../workflows/prepare';
import { databaseVerification, goldenComparison, queryList, referenceReproduction, variantDatabases } from '../../workflows/commands';
import { runCommandWorkflow } from '../commandWorkflow';
import { scaleTag } from '../../activities/common/paths';

interface SparkOpts {
  scale: string;
  ids?: string;
  master?: string;
  driverMemory?: string;
  json?: boolean;
}

/** Parses --scale. @throws InputError naming the option. */
function parseScale(text: string): number {
  const s = Number(text);
  if (!Number.isFinite(s) || s <= 0) throw new InputError(`"${text}" is not a positive scale factor`, undefined, '--scale');
  return s;
}

/** The study's Spark settings with the command-line overrides (the machine's memory, the master). */
export function settingsFrom(opts: SparkOpts): SparkSettings {
  return SparkSettingsSchema.parse({ ...DEFAULT_SPARK_SETTINGS, ...(opts.master ? { master: opts.master } : {}), ...(opts.driverMemory ? { driverMemory: opts.driverMemory } : {}) });
}

/**
 * Runs prepareDatabase (workflows/prepare.ts) through the embedded Temporal server and an
 * in-process worker, under the workflow id every study at this scale shares
 * (protocol/layout.ts prepareWorkflowId): the CLI starts the workflow, it never runs its steps.
 */
export async function runPrepare(input: PrepareDatabaseInput): Promise<PrepareDatabaseResult> {
  return runEmbeddedWorkflow(prepareDatabase, [input], { workflowId: prepareWorkflowId(input.scale), ...(process.env.LOCKIN_DATA_QUIET === '1' ? {} : { relayProgress: (l: string) => process.stderr.write(`[data] ${l}\n`) }) });
}

/** The relay of a data workflow's progress lines from another process's worker ("[data] …"), unless LOCKIN_DATA_QUIET=1. */
function dataRelay(): { relay?: string } {
  return process.env.LOCKIN_DATA_QUIET === '1' ? {} : { relay: '[data] ' };
}

function sparkOptions(cmd: Command): Command {
  return cmd
    .option('--scale <S>', 'TPC-DS scale factor', '1')
    .option('--master <M>', `spark.master (study default ${DEFAULT_SPARK_SETTINGS.master})`)
    .option('--driver-memory <M>', `spark.driver.memory (study default ${DEFAULT_SPARK_SETTINGS.driverMemory})`)
    .option('--ids <list>', 'comma-separated variant ids (default: the 33 of the reference inventory)')
    .option('--json', 'print the JSON result');
}

function idsFrom(opts: SparkOpts): string[] | undefined {
  return opts.ids ? opts.ids.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
}

function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** Defines the options, arguments, sub-commands and actions of `lockin data` on its command (client/cli.ts names and describes it). */
export function define(cmd: Command): void {
  const group = cmd;

  sparkOptions(group.command('prepare').description('generate, load, check analysis and build the references (resumable)'))
    .option('--no-analyze', 'skip the analysis check of the 103 variants')
    .action(async (opts: SparkOpts & { analyze: boolean }) => {
      const scale = parseScale(opts.scale);
      const res = await runPrepare({ scale, settings: settingsFrom(opts), analyze: opts.analyze, ids: idsFrom(opts) });
      if (opts.json) return printJson(res);
      const t = newTable({ head: ['table', 'rows'] });
      for (const [name, n] of Object.entries(res.rows)) t.push([name, n.toLocaleString('en-US')]);
      process.stdout.write(`${t.toString()}\n`);
      process.stdout.write(`manifest hash ${res.manifestHash}\n`);
      if (res.analysis) process.stdout.write(`analysis: ${res.analysis.passed}/${res.analysis.total} variants pass\n`);
      process.stdout.write(`references: ${res.references.count} stored (${res.references.built.length} built, ${res.references.skipped.length} already there)\n`);
      for (const f of res.references.failed) process.stdout.write(`  FAILED ${f.id}: ${f.error}\n`);
      if (res.references.empty?.length) process.stdout.write(`  empty at this scale (an empty output agrees with them): ${res.references.empty.join(', ')}\n`);
      process.stdout.write(`seconds: generate ${res.seconds.generate.toFixed(1)}, load ${res.seconds.load.toFixed(1)}, analyze ${res.seconds.analyze.toFixed(1)}, references ${res.seconds.references.toFixed(1)}\n`);
      if (res.references.failed.length) process.exitCode = 1;
    });

  group
    .command('queries')
    .description('list the 103 query variants, the sha256 of each text and the source')
    .option('--json', 'print the JSON result')
    .action(async (opts: { json?: boolean }) => {
      const res = await runCommandWorkflow(queryList, [], { name: 'queries' });
      if (opts.json) return printJson(res);
      const t = newTable({ head: ['variant', 'sha256', 'source'] });
      for (const v of res.variants) t.push([v.id, v.sha256, v.source]);
      process.stdout.write(`${t.toString()}\n${res.count} variants from ${res.source}\n`);
    });

  sparkOptions(group.command('reproduce').description('re-execute the references in a fresh session and compare schema + multiset'))
    .action(async (opts: SparkOpts) => {
      const scale = parseScale(opts.scale);
      const ids = idsFrom(opts);
      const res = await runCommandWorkflow(referenceReproduction, [{ scale, settings: settingsFrom(opts), ...(ids ? { ids } : {}) }], { name: `reproduce-${scaleTag(scale)}`, ...dataRelay() });
      if (opts.json) printJson(res);
      else {
        const t = newTable({ head: ['variant', 'verdict', 'reason', 's'] });
        for (const r of res.results) t.push([r.id, r.reproduced ? 'reproduced' : 'NOT reproduced', r.reason, r.seconds.toFixed(1)]);
        process.stdout.write(`${t.toString()}\n${res.reproduced}/${res.total} reproduced\n`);
      }
      if (res.reproduced !== res.total) process.exitCode = 1;
    });

  sparkOptions(group.command('golden').description("compare each reference variant with Spark's golden SF=1 answer"))
    .action(async (opts: SparkOpts) => {
      const scale = parseScale(opts.scale);
      const ids = idsFrom(opts);
      const res = await runCommandWorkflow(goldenComparison, [{ scale, settings: settingsFrom(opts), ...(ids ? { ids } : {}) }], { name: `golden-${scaleTag(scale)}`, ...dataRelay() });
      if (opts.json) return printJson(res);
      const t = newTable({ head: ['variant', 'verdict', 'rows (ours/golden)', 'first difference'], colWidths: [9, 10, 19, 90], wordWrap: true });
      for (const r of res.results) t.push([r.id, r.agree ? 'agree' : 'DISAGREE', `${r.rows ?? '-'}/${r.goldenRows ?? '-'}`, r.difference + (r.schemaNote ? ` [schema: ${r.schemaNote}]` : '')]);
      process.stdout.write(`${t.toString()}\n${res.agree}/${res.total} agree with Spark's golden answers\n`);
    });

  sparkOptions(group.command('variants').description('build seeded variant databases (nulls, dupdims, crosschannel) of the study database and the references on each (resumable)'))
    .option('--seed <N>', 'seed of the random draws', '1')
    .option('--variants <list>', `comma-separated variant names (default: ${VARIANT_NAMES.join(',')})`)
    .action(async (opts: SparkOpts & { seed: string; variants?: string }) => {
      const seed = Number(opts.seed);
      if (!Number.isInteger(seed) || seed < 0) throw new InputError(`"${opts.seed}" is not a non-negative integer`, undefined, '--seed');
      const variants = opts.variants ? opts.variants.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
      const scale = parseScale(opts.scale);
      const ids = idsFrom(opts);
      const res = await runCommandWorkflow(variantDatabases, [{ scale, seed, ...(variants ? { variants } : {}), settings: settingsFrom(opts), ...(ids ? { ids } : {}) }], { name: `variants-${scaleTag(scale)}`, ...dataRelay() });
      if (opts.json) return printJson(res);
      const t = newTable({ head: ['variant', 'manifest', 'cells changed', 'references', 'failed SQL'] });
      for (const v of res.variants)
        t.push([v.variant, v.manifestHash.slice(0, 12), v.changedCells.toLocaleString('en-US'), `${v.references.count} (${v.references.built.length} built, ${v.references.skipped.length} already there)`, v.references.failed.map((f) => f.id).join(', ') || '-']);
      process.stdout.write(`${t.toString()}\nseed ${res.seed}\n`);
      for (const v of res.variants) for (const f of v.references.failed) process.stdout.write(`  ${v.variant} ${f.id}: ${f.error}\n`);
    });

  group
    .command('verify')
    .description('check every typed table file against manifest.json')
    .option('--scale <S>', 'TPC-DS scale factor', '1')
    .action(async (opts: { scale: string }) => {
      const scale = parseScale(opts.scale);
      const res = await runCommandWorkflow(databaseVerification, [{ scale }], { name: `verify-${scaleTag(scale)}` });
      process.stdout.write(`ok: ${Object.keys(res.rows).length} tables match manifest ${res.manifestHash}\n`);
    });
}
