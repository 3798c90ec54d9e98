/**
 * Benchmark (a script, not a test): the jobs' JVMs with the JVM's default JIT (C1 then C2,
 * LOCKIN_SPARK_JIT=tiered, the default) against C1 only (quick; activities/common/sparkJit.ts;
 * warm Spark slots, README "How long it takes").
 *
 *   npm run build && node dist/bench/jit.js [--task q36] [--copies 2] [--jobs 3] [--exec q36,q51,q69,q87] [--scale 1] [--rounds 1] [--mode warm|cold]
 *
 * Each round runs side "tiered", then side "quick", each from fresh JVMs (warm: every slot is
 * stopped before a side, so its first job starts one and pays its JIT's warm-up, as a slot does
 * in a study): `--jobs` suite jobs (the task's acceptance tests, lockin's own, on its gold
 * solution and every obligation violation, each --copies times, every test on every variant,
 * two processes where the cores allow, as the labeller check runs them), then the gold
 * solutions of the --exec tasks executed on the SF=--scale database (`--exec ''` for none).
 * Prints each part's wall time per side and their ratio, and whether every test outcome of every
 * variant and every execution's status, row count and output bytes are the same in every run;
 * any difference is printed and the exit code is 1. On a shared machine the figures move with
 * its load.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { databaseDir, tasksRoot } from '../activities/common/paths';
import { executeCandidate } from '../activities/execution/execute';
import { runSuiteOnVariants } from '../activities/mutation/suites';
import { stopAllSlots } from '../activities/execution/slots';
import { loadTask } from '../activities/tasks/load';
import { TABLES_FILE, tablesJson } from '../activities/tasks/acceptanceTables';
import { DEFAULT_SPARK_SETTINGS, SparkModeSchema } from '../protocol/settings';
import { SPARK_JITS, type SparkJit } from '../activities/common/sparkJit';
import { acceptanceVariants, arg, runBench, suiteOutcomes } from './abRounds';

async function main(): Promise<void> {
  const task = loadTask(arg('--task', 'q36'), tasksRoot());
  const copies = Number(arg('--copies', '2'));
  const jobs = Number(arg('--jobs', '3'));
  const rounds = Number(arg('--rounds', '1'));
  const scale = Number(arg('--scale', '1'));
  const mode = SparkModeSchema.parse(arg('--mode', 'warm'));
  const execTasks = arg('--exec', 'q36,q51,q69,q87').split(',').filter(Boolean);
  if (execTasks.length && !fs.existsSync(path.join(databaseDir(scale), 'manifest.json'))) {
    throw new Error(`${databaseDir(scale)}: no database at SF=${scale} (npx lockin data prepare --scale ${scale}, or --exec '' for the suite jobs alone)`);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-bench-jit-'));
  const saved = process.env.LOCKIN_SPARK_JIT;
  try {
    const { suiteFile, variants } = acceptanceVariants(task, copies, work);
    const golds = execTasks.map((id) => {
      const dir = path.join(work, 'gold', id);
      fs.mkdirSync(dir, { recursive: true });
      fs.copyFileSync(path.join(loadTask(id, tasksRoot()).dir, 'gold', 'solution.py'), path.join(dir, 'solution.py'));
      return { id, dir };
    });
    console.log(`${task.taskId}: ${jobs} suite job(s) of its acceptance tests on gold and ${variants.length - 1} violation(s); gold of ${execTasks.join(', ') || 'no task'} executed at SF=${scale}; ${mode}`);
    const first = new Map<string, string>();
    let differ = 0;
    const same = (key: string, outcome: string, label: string) => {
      const seen = first.get(key);
      if (seen === undefined) first.set(key, outcome);
      else if (seen !== outcome) {
        differ += 1;
        console.log(`  ${label}, ${key}: OUTCOMES DIFFER from the first run\n    first: ${seen}\n    this:  ${outcome}`);
      }
    };
    for (let r = 1; r <= rounds; r++) {
      const ms: Record<SparkJit, { suites: number; executions: number }> = { tiered: { suites: 0, executions: 0 }, quick: { suites: 0, executions: 0 } };
      for (const jit of ['tiered', 'quick'] as const) {
        await stopAllSlots();
        process.env.LOCKIN_SPARK_JIT = jit;
        const label = `round ${r}, ${jit}`;
        let t = Date.now();
        for (let j = 1; j <= jobs; j++) {
          const runs = await runSuiteOnVariants({ suiteFile, variants, settings: DEFAULT_SPARK_SETTINGS, outDir: path.join(work, `out-${jit}-${r}-${j}`), full: true, stopIfGoldFails: false, perTestTimeoutS: 300, extraFiles: { [TABLES_FILE]: tablesJson(task.task, task.obligations.obligations) }, sparkMode: mode });
          same(`suite job ${j}`, suiteOutcomes(runs), label);
        }
        ms[jit].suites = Date.now() - t;
        t = Date.now();
        for (const g of golds) {
          const outDir = path.join(work, `exec-${jit}-${r}-${g.id}`);
          const out = await executeCandidate({ dir: g.dir, scale, settings: DEFAULT_SPARK_SETTINGS, outDir, timeoutMs: 600_000, memoryMb: 2048, sparkMode: mode });
          const bytes = out.outputFile && fs.existsSync(out.outputFile) ? crypto.createHash('sha256').update(fs.readFileSync(out.outputFile)).digest('hex').slice(0, 16) : '-';
          same(`execution of ${g.id}`, JSON.stringify([out.status, out.rows ?? null, bytes]), label);
        }
        ms[jit].executions = Date.now() - t;
      }
      const line = (part: 'suites' | 'executions') => `${part} ${(ms.tiered[part] / 1000).toFixed(1)} s tiered, ${(ms.quick[part] / 1000).toFixed(1)} s quick, ratio ${(ms.tiered[part] / Math.max(1, ms.quick[part])).toFixed(2)}×`;
      console.log(`  round ${r}: ${line('suites')}; ${line('executions')}`);
    }
    console.log(`every test outcome of every variant, and every execution's status, rows and output bytes, the same in all ${rounds * SPARK_JITS.length} runs: ${differ ? `NO (${differ} differ)` : 'yes'}`);
    if (differ) process.exitCode = 1;
  } finally {
    if (saved === undefined) delete process.env.LOCKIN_SPARK_JIT;
    else process.env.LOCKIN_SPARK_JIT = saved;
    await stopAllSlots();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

runBench(main);
