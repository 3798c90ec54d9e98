/**
 * Benchmark (a script, not a test): what a suite job over gold and its variants costs, for the
 * before/after figures of the blind variants (docs/verdicts.md "Cost"). Two jobs per round, each timed:
 *
 * - "labels": the task's gold test_solution.py (an honest suite standing in for a candidate's)
 *   on gold and every obligation violation, every test recorded (`full`, as the test labels of
 *   activities/obligations/labels.ts run it);
 * - "mutation": the same suite on gold then the violations, each stopping at its first failing
 *   test and the suite not run on the rest when it fails gold (as step 5's mutation analysis
 *   runs a suite on gold and its mutants, activities/mutation/study.ts).
 *
 *   npm run build && node dist/bench/suiteVerdicts.js [--task q3] [--rounds 2] [--mode warm|cold]
 *
 * Warm, a first job (not timed) starts the slot. Prints per round each job's wall time and, at
 * the end, every variant's outcome of the last round (so that two versions of the code can be
 * compared run for run). On a shared machine the figures move with its load.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { tasksRoot } from '../activities/common/paths';
import { runSuiteOnVariants, type VariantRun } from '../activities/mutation/suites';
import { stopAllSlots } from '../activities/execution/slots';
import { loadTask } from '../activities/tasks/load';
import { DEFAULT_SPARK_SETTINGS, SparkModeSchema } from '../protocol/settings';
import { acceptanceVariants, arg, runBench, suiteOutcomes } from './abRounds';

async function main(): Promise<void> {
  const task = loadTask(arg('--task', 'q3'), tasksRoot());
  const rounds = Number(arg('--rounds', '2'));
  const mode = SparkModeSchema.parse(arg('--mode', 'warm'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-bench-verdicts-'));
  try {
    const { variants } = acceptanceVariants(task, 1, work);
    const suiteFile = path.join(task.dir, 'gold', 'test_solution.py');
    console.log(`${task.taskId}: gold's test_solution.py on gold and ${variants.length - 1} violation(s), ${mode}, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    const labels = (out: string) => runSuiteOnVariants({ suiteFile, variants, settings: DEFAULT_SPARK_SETTINGS, outDir: path.join(work, out), full: true, stopIfGoldFails: false, sparkMode: mode });
    const mutation = (out: string) => runSuiteOnVariants({ suiteFile, variants, settings: DEFAULT_SPARK_SETTINGS, outDir: path.join(work, out), sparkMode: mode });
    if (mode === 'warm') await runSuiteOnVariants({ suiteFile, variants: variants.slice(0, 1), settings: DEFAULT_SPARK_SETTINGS, outDir: path.join(work, 'start'), sparkMode: mode });
    let last: Record<string, VariantRun[]> = {};
    for (let r = 1; r <= rounds; r++) {
      const times: string[] = [];
      for (const [name, job] of [['labels', labels], ['mutation', mutation]] as const) {
        const t = Date.now();
        last[name] = await job(`${name}-${r}`);
        times.push(`${name} ${((Date.now() - t) / 1000).toFixed(1)} s`);
      }
      console.log(`  round ${r}: ${times.join(', ')} (load ${os.loadavg()[0].toFixed(1)})`);
    }
    for (const [name, runs] of Object.entries(last)) console.log(`${name}: ${suiteOutcomes(runs)}`);
    last = {};
  } finally {
    await stopAllSlots();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

runBench(main);
