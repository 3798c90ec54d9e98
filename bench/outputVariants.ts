/**
 * Benchmark (a script, not a test): one job of executions over many of lockin's own programs
 * (a task's gold, its mutants and its obligation violations) with one variant at a time against
 * two at a time on the job's session (activities/python/mutant_outputs.py --at-once; warm Spark slots
 * "Speed"; docs/protocol.md §7 "How a suite meets its variants"). These jobs decide mutant
 * equivalence and check the obligation violations in step 5.
 *
 *   npm run build && node dist/bench/outputVariants.js [--tasks q36,q51,q69,q87] [--scale 0.01] [--rounds 2] [--mode warm|cold]
 *
 * The variants of each task: its gold solution, its mutants (generateMutants, at most two per
 * operator, as the analysis makes them) and every obligation violation applied to gold. Each
 * round runs every task's job with one variant at a time, then with two (mutantOutputs,
 * sandboxed, in --mode: warm jobs share one slot, whose start-up is paid by a first job that is
 * not timed), and prints both wall times, their ratio and whether every variant's verdict is the
 * same in all runs: its status, its row count and whether its output agrees with the task's
 * reference at that scale (compareOutputs, the study's comparator). The first round includes the
 * JIT warm-up: read the later ones. Any difference is printed and the exit code is 1. On a shared
 * machine the figures move with its load. Needs the database and references at --scale
 * (`npx lockin data prepare --scale 0.01`).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { referencesDir, tasksRoot } from '../activities/common/paths';
import { generateMutants, mutantOutputs, type VariantResult } from '../activities/mutation/generate';
import { stopAllSlots } from '../activities/execution/slots';
import { applyViolation } from '../activities/tasks/violation';
import { loadTask } from '../activities/tasks/load';
import { readTaskForms } from '../activities/tasks/executable';
import { compareOutputs } from '../activities/compare/activity';
import { DEFAULT_SPARK_SETTINGS, SparkModeSchema } from '../protocol/settings';
import { abRounds, arg, runBench } from './abRounds';

/** One task's variant folders (each holding solution.py) under `work/<task>`. */
async function variantsOf(taskId: string, work: string): Promise<string[]> {
  const task = loadTask(taskId, tasksRoot());
  const dir = path.join(work, taskId);
  const gold = fs.readFileSync(path.join(task.dir, 'gold', 'solution.py'), 'utf8');
  const write = (id: string, text: string): string => {
    fs.mkdirSync(path.join(dir, id), { recursive: true });
    fs.writeFileSync(path.join(dir, id, 'solution.py'), text);
    return path.join(dir, id);
  };
  const dirs = [write('gold', gold)];
  const mutants = await generateMutants({ taskId, outDir: dir, maxPerOperator: 2 });
  dirs.push(...mutants.map((m) => path.join(dir, m.id)));
  const forms = readTaskForms(task.dir, task.taskId, task.obligations.obligations, task.obligationsFile);
  for (const f of forms.forms.filter((x) => x.violation)) dirs.push(write(`violation-${f.id}`, applyViolation(gold, fs.readFileSync(f.violation!, 'utf8'), f.violation!, f.id)));
  return dirs;
}

/** Each variant's status, rows and agreement with the reference, as one comparable string. */
async function verdicts(taskId: string, scale: number, dirs: string[], results: VariantResult[]): Promise<string> {
  const rows: string[] = [];
  for (const [i, r] of results.entries()) {
    let agree = '-';
    if (r.status === 'ok') {
      const cmp = await compareOutputs({ candidateDir: path.join(dirs[i], 'out'), referenceDir: path.join(referencesDir(scale), taskId), outDir: dirs[i], execution: { status: 'ok' } });
      agree = String(cmp.outcome.agree);
    }
    rows.push(`${path.basename(dirs[i])}:${r.status}:${r.rows ?? ''}:${agree}`);
  }
  return rows.join(' ');
}

async function main(): Promise<void> {
  const tasks = arg('--tasks', 'q36,q51,q69,q87').split(',').filter(Boolean);
  const scale = Number(arg('--scale', '0.01'));
  const rounds = Number(arg('--rounds', '2'));
  const mode = SparkModeSchema.parse(arg('--mode', 'warm'));
  const settings = { ...DEFAULT_SPARK_SETTINGS, driverMemory: '3g' };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-bench-outputs-'));
  try {
    const variants = new Map<string, string[]>();
    for (const t of tasks) variants.set(t, await variantsOf(t, work));
    const total = [...variants.values()].reduce((a, d) => a + d.length, 0);
    console.log(`${tasks.join(', ')} at SF=${scale}: ${total} variants (gold, its mutants, its obligation violations), one job per task, ${mode}`);
    if (mode === 'warm') await mutantOutputs({ dirs: variants.get(tasks[0])!.slice(0, 1), scale, settings, sparkMode: mode, atOnce: 1 }); // the slot's start-up, not timed
    const differ = await abRounds({
      rounds,
      labels: ['one at a time', 'two at a time'],
      what: "every variant's status, rows and reference agreement",
      run: async (side) => {
        const atOnce = side === 0 ? 1 : 2;
        let ms = 0;
        const outcomes = new Map<string, string>();
        for (const t of tasks) {
          const dirs = variants.get(t)!;
          const start = Date.now();
          const results = await mutantOutputs({ dirs, scale, settings, sparkMode: mode, atOnce });
          ms += Date.now() - start;
          outcomes.set(t, await verdicts(t, scale, dirs, results));
        }
        return { ms, outcomes };
      },
    });
    if (differ) process.exitCode = 1;
  } finally {
    await stopAllSlots();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

runBench(main);
