/**
 * Benchmark (a script, not a test): a suite over many variants in one job against two jobs at once
 * (runSuiteOnVariants `processes`: since the blind variants two lanes, each its own sandbox and JVM taking
 * variants from one queue; until then two processes on one JVM, for speed;
 * docs/protocol.md §7 "How a suite meets its variants").
 *
 *   npm run build && node dist/bench/suiteProcesses.js [--task q36] [--copies 4] [--rounds 2] [--mode warm|cold]
 *
 * The suite is the task's acceptance tests (tasks/<task>/acceptance/test_acceptance.py, lockin's
 * own), the variants its gold solution and every obligation violation applied to it, each
 * violation --copies times (so that the first variant, which runs alone, weighs little); every
 * test runs on every variant (`full`). Each round runs the job with one process, then with two
 * (runSuiteOnVariants, sandboxed, in --mode: warm jobs share one slot, whose start-up is paid by
 * a first job that is not timed), and prints both wall times, their ratio and whether every
 * test outcome of every variant is the same in both. The first round includes the JIT warm-up:
 * read the later ones. Any difference in outcomes is printed and the exit code is 1. On a
 * shared machine the figures move with its load.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { tasksRoot } from '../activities/common/paths';
import { runSuiteOnVariants } from '../activities/mutation/suites';
import { stopAllSlots } from '../activities/execution/slots';
import { loadTask } from '../activities/tasks/load';
import { TABLES_FILE, tablesJson } from '../activities/tasks/acceptanceTables';
import { DEFAULT_SPARK_SETTINGS, SparkModeSchema } from '../protocol/settings';
import { abRounds, acceptanceVariants, arg, runBench, suiteOutcomes } from './abRounds';

async function main(): Promise<void> {
  const task = loadTask(arg('--task', 'q36'), tasksRoot());
  const copies = Number(arg('--copies', '4'));
  const rounds = Number(arg('--rounds', '2'));
  const mode = SparkModeSchema.parse(arg('--mode', 'warm'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-bench-suite-'));
  try {
    const { suiteFile, variants: files } = acceptanceVariants(task, copies, work);
    const run = (processes: 1 | 2, variantsOf = files) => runSuiteOnVariants({ suiteFile, variants: variantsOf, settings: DEFAULT_SPARK_SETTINGS, outDir: path.join(work, `out-${processes}`), full: true, stopIfGoldFails: false, perTestTimeoutS: 300, extraFiles: { [TABLES_FILE]: tablesJson(task.task, task.obligations.obligations) }, sparkMode: mode, processes });
    console.log(`${task.taskId}: its acceptance tests on gold and ${files.length - 1} violation(s) (${copies} cop${copies === 1 ? 'y' : 'ies'} of each), ${mode}`);
    if (mode === 'warm') await run(1, files.slice(0, 1)); // the slot's start-up, not timed
    const differ = await abRounds({
      rounds,
      labels: ['one process', 'two processes'],
      what: 'every test outcome of every variant',
      run: async (side) => {
        const t = Date.now();
        const runs = await run(side === 0 ? 1 : 2);
        return { ms: Date.now() - t, outcomes: new Map([[task.taskId, suiteOutcomes(runs)]]) };
      },
    });
    if (differ) process.exitCode = 1;
  } finally {
    await stopAllSlots();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

runBench(main);
