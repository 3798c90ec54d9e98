/**
 * Benchmark (a script, not a test): one suite job over many variants in one process against two
 * processes on the same JVM (activities/python/suite_mutants.py --processes; issue 22 "Speed";
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
import { runSuiteOnVariants, type VariantRun } from '../activities/mutation/suites';
import { stopAllSlots } from '../activities/execution/slots';
import { applyViolation } from '../activities/tasks/violation';
import { loadTask } from '../activities/tasks/load';
import { readTaskForms } from '../activities/tasks/executable';
import { TABLES_FILE, tablesJson } from '../activities/obligations/check';
import { DEFAULT_SPARK_SETTINGS, SparkModeSchema } from '../protocol/settings';
import { abRounds, arg, runBench } from './abRounds';

/** Every variant's status, exit code and test outcomes, as one comparable string. */
function outcomes(runs: VariantRun[]): string {
  return JSON.stringify(runs.map((r) => [r.variant, r.status, r.exitCode, (r.tests ?? []).map((t) => `${t.name}:${t.outcome}`)]));
}

async function main(): Promise<void> {
  const task = loadTask(arg('--task', 'q36'), tasksRoot());
  const copies = Number(arg('--copies', '4'));
  const rounds = Number(arg('--rounds', '2'));
  const mode = SparkModeSchema.parse(arg('--mode', 'warm'));
  const forms = readTaskForms(task.dir, task.taskId, task.obligations.obligations, task.obligationsFile);
  const suiteFile = forms.acceptance;
  if (!suiteFile) throw new Error(`${task.dir}: the task has no acceptance tests (acceptance/test_acceptance.py)`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-bench-suite-'));
  try {
    const gold = fs.readFileSync(path.join(task.dir, 'gold', 'solution.py'), 'utf8');
    const variants = [{ id: 'gold', text: gold }];
    for (const f of forms.forms.filter((x) => x.violation)) {
      const text = applyViolation(gold, fs.readFileSync(f.violation!, 'utf8'), f.violation!, f.id);
      for (let c = 1; c <= copies; c++) variants.push({ id: `${f.id}-${c}`, text });
    }
    const files = variants.map((v) => {
      const f = path.join(work, 'variants', v.id, 'solution.py');
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, v.text);
      return { id: v.id, solutionFile: f };
    });
    const run = (processes: 1 | 2, variantsOf = files) => runSuiteOnVariants({ suiteFile, variants: variantsOf, settings: DEFAULT_SPARK_SETTINGS, outDir: path.join(work, `out-${processes}`), full: true, stopIfGoldFails: false, perTestTimeoutS: 300, extraFiles: { [TABLES_FILE]: tablesJson(task.task) }, sparkMode: mode, processes });
    console.log(`${task.taskId}: its acceptance tests on gold and ${files.length - 1} violation(s) (${copies} cop${copies === 1 ? 'y' : 'ies'} of each), ${mode}`);
    if (mode === 'warm') await run(1, files.slice(0, 1)); // the slot's start-up, not timed
    const differ = await abRounds({
      rounds,
      labels: ['one process', 'two processes'],
      what: 'every test outcome of every variant',
      run: async (side) => {
        const t = Date.now();
        const runs = await run(side === 0 ? 1 : 2);
        return { ms: Date.now() - t, outcomes: new Map([[task.taskId, outcomes(runs)]]) };
      },
    });
    if (differ) process.exitCode = 1;
  } finally {
    await stopAllSlots();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

runBench(main);
