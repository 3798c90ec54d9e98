/**
 * `lockin gold check [--scale S] [taskId…]`: runs every gold solution on the study database and
 * compares it with the stored reference (execution + primary comparator); prints one verdict per
 * task and "N/30 agreeing". Exit 1 unless every checked task agrees.
 */
import { Command } from 'commander';
import { DEFAULT_SPARK_SETTINGS } from '../../protocol/settings';
import { checkGoldAll } from '../../activities/tasks/gold';
import { STUDY_TASKS } from '../../activities/tasks/schema';

/** Defines the options, arguments, sub-commands and actions of `lockin gold` on its command (client/cli.ts names and describes it). */
export function define(cmd: Command): void {
  const gold = cmd;
  gold
    .command('check')
    .description('run the gold solutions and compare them with the references')
    .option('--scale <S>', 'scale factor of the database and references', (v) => Number(v), 1)
    .option('--driver-memory <mem>', 'spark.driver.memory of each run', '3g')
    .option('--timeout-min <m>', 'wall-clock limit per task, minutes', (v) => Number(v), 20)
    .argument('[taskId...]', 'variant ids (default: every task folder)')
    .action(async (taskIds: string[], opts: { scale: number; driverMemory: string; timeoutMin: number }) => {
      if (!Number.isFinite(opts.scale) || opts.scale <= 0) throw new Error(`--scale: not a positive number`);
      const settings = { ...DEFAULT_SPARK_SETTINGS, driverMemory: opts.driverMemory };
      const verdicts = await checkGoldAll({
        scale: opts.scale,
        ids: taskIds,
        settings,
        timeoutMs: opts.timeoutMin * 60_000,
        onVerdict: (v) => {
          const extra = [v.rows !== undefined ? `${v.rows} rows` : '', v.durationMs !== undefined ? `${(v.durationMs / 1000).toFixed(0)}s` : ''].filter(Boolean).join(', ');
          console.log(`${v.taskId}: ${v.verdict}${extra ? ` (${extra})` : ''}: ${v.summary}`);
        },
      });
      const agree = verdicts.filter((v) => v.verdict === 'agree').length;
      const study = verdicts.filter((v) => (STUDY_TASKS as readonly string[]).includes(v.taskId) && v.verdict === 'agree').length;
      // With explicit ids, only what was checked is counted (a "2/30" would read as 28 failures).
      console.log(taskIds.length ? `scale ${opts.scale}: ${agree}/${verdicts.length} checked agreeing` : `scale ${opts.scale}: ${agree}/${verdicts.length} checked agreeing; ${study}/${STUDY_TASKS.length} study tasks agreeing`);
      if (agree !== verdicts.length) process.exitCode = 1;
    });
}
