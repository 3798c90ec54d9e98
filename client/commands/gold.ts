/**
 * `lockin gold check [--scale S] [taskId…]`: runs every gold solution on the study database and
 * compares it with the stored reference (execution + primary comparator); prints one verdict per
 * task and "N/30 agreeing". When variant databases exist at S (`lockin data variants`), every gold
 * also runs on each variant and is compared with that variant's reference (differential execution, docs/protocol.md
 * §7 "Differential execution"), and a per-task x database table is printed.
 * Exit 1 on any verdict other than agree, except a reference whose SQL fails on that database
 * (recorded by the reference builder, e.g. q12 at SF=0.01).
 */
import { Command } from 'commander';
import { DEFAULT_SPARK_SETTINGS } from '../../protocol/settings';
import { checkGoldDifferential, goldCell, goldPasses, STUDY_DATABASE, type DifferentialGoldRow } from '../../activities/data/gold';
import { STUDY_TASKS } from '../../protocol/corpus';
import { listVariants } from '../../activities/data/variants';
import { newTable } from '../table';

/**
 * The per-task x database table of a differential gold check and its summary lines.
 * @param rows the rows of checkGoldDifferential; @param databases column order (`study` first)
 * @returns {table text, summary lines (one per database: "<db>: N/M agree, K reference SQL fails"), passed}
 */
export function goldReport(rows: DifferentialGoldRow[], databases: string[]): { table: string; summary: string[]; passed: boolean } {
  const t = newTable({ head: ['task', ...databases] });
  for (const r of rows) t.push([r.taskId, ...databases.map((d) => goldCell(r.verdicts[d]))]);
  const summary = databases.map((d) => {
    const vs = rows.map((r) => r.verdicts[d]).filter(Boolean);
    const agree = vs.filter((v) => v.verdict === 'agree').length;
    const refFailed = vs.filter((v) => v.verdict === 'reference-failed').map((v) => v.taskId);
    const bad = vs.filter((v) => !goldPasses(v)).map((v) => v.taskId);
    return `${d}: ${agree}/${vs.length} agree${refFailed.length ? `; reference SQL fails: ${refFailed.join(', ')}` : ''}${bad.length ? `; NOT agreeing: ${bad.join(', ')}` : ''}`;
  });
  return { table: t.toString(), summary, passed: rows.every((r) => databases.every((d) => !r.verdicts[d] || goldPasses(r.verdicts[d]))) };
}

/** Defines the options, arguments, sub-commands and actions of `lockin gold` on its command (client/cli.ts names and describes it). */
export function define(cmd: Command): void {
  const gold = cmd;
  gold
    .command('check')
    .description('run the gold solutions and compare them with the references (on the study database and each variant database)')
    .option('--scale <S>', 'scale factor of the database and references', (v) => Number(v), 1)
    .option('--driver-memory <mem>', 'spark.driver.memory of each run', '3g')
    .option('--timeout-min <m>', 'wall-clock limit per task, minutes', (v) => Number(v), 20)
    .option('--variants <list>', 'comma-separated variant databases to check besides the study database (default: every variant built at this scale)')
    .option('--no-variants', 'check the study database only')
    .option('--no-study', 'check the variant databases only (the study database column left out)')
    .argument('[taskId...]', 'variant ids (default: every task folder)')
    .action(async (taskIds: string[], opts: { scale: number; driverMemory: string; timeoutMin: number; variants: string | boolean; study: boolean }) => {
      if (!Number.isFinite(opts.scale) || opts.scale <= 0) throw new Error(`--scale: not a positive number`);
      const settings = { ...DEFAULT_SPARK_SETTINGS, driverMemory: opts.driverMemory };
      let variants = opts.variants === false ? [] : listVariants(opts.scale).filter((v) => v.references !== null);
      if (typeof opts.variants === 'string') {
        const wanted = opts.variants.split(',').map((s) => s.trim()).filter(Boolean);
        const missing = wanted.filter((w) => !variants.some((v) => v.name === w));
        if (missing.length) throw new Error(`--variants: no variant database with references at scale ${opts.scale}: ${missing.join(', ')} (build them: lockin data variants --scale ${opts.scale})`);
        variants = variants.filter((v) => wanted.includes(v.name));
      }
      // Say which databases are checked before the first (silent, minutes-long) run.
      if (opts.variants !== false && variants.length === 0) process.stderr.write(`no variant database with references at scale ${opts.scale}: the study database only (build them: lockin data variants --scale ${opts.scale})\n`);
      else process.stderr.write(`databases: ${[...(opts.study ? ['the study database'] : []), ...variants.map((v) => `variant ${v.name}`)].join(', ')}; each task runs its gold once per database (minutes each at SF=1)\n`);
      const rows = await checkGoldDifferential({
        scale: opts.scale,
        ids: taskIds,
        variants,
        settings,
        timeoutMs: opts.timeoutMin * 60_000,
        includeStudy: opts.study,
        onVerdict: (db, v) => {
          const extra = [v.rows !== undefined ? `${v.rows} rows` : '', v.durationMs !== undefined ? `${(v.durationMs / 1000).toFixed(0)}s` : ''].filter(Boolean).join(', ');
          console.log(`${db === STUDY_DATABASE ? '' : `[${db}] `}${v.taskId}: ${v.verdict}${extra ? ` (${extra})` : ''}: ${v.summary}`);
        },
      });
      if (opts.study) {
        const study = rows.map((r) => r.verdicts[STUDY_DATABASE]);
        const agree = study.filter((v) => v.verdict === 'agree').length;
        const studyTasks = study.filter((v) => (STUDY_TASKS as readonly string[]).includes(v.taskId) && v.verdict === 'agree').length;
        // With explicit ids, only what was checked is counted (a "2/30" would read as 28 failures).
        console.log(taskIds.length ? `scale ${opts.scale}: ${agree}/${study.length} checked agreeing` : `scale ${opts.scale}: ${agree}/${study.length} checked agreeing; ${studyTasks}/${STUDY_TASKS.length} study tasks agreeing`);
      }
      const databases = [...(opts.study ? [STUDY_DATABASE] : []), ...variants.map((v) => v.name)];
      const report = goldReport(rows, databases);
      if (variants.length) console.log(`${report.table}\n${report.summary.join('\n')}`);
      if (!report.passed) process.exitCode = 1;
    });
}
