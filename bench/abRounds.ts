/**
 * What the one-against-two benchmarks share (bench/suiteProcesses.ts, bench/outputVariants.ts,
 * bench/jit.ts): their command-line options, rounds of side A then side B with the wall time of
 * each and their ratio, the check that every outcome is the same in every run, and the
 * acceptance-test suite jobs they time (acceptanceVariants, suiteOutcomes).
 */
import * as fs from 'fs';
import * as path from 'path';
import type { VariantRun } from '../activities/mutation/suites';
import { applyViolation } from '../activities/tasks/violation';
import type { loadTask } from '../activities/tasks/load';
import { readTaskForms } from '../activities/tasks/executable';


/** The value after `name` on the command line, else `fallback`. */
export function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

/** One side's run: its wall time (ms) and its outcomes, one comparable string per job key. */
export interface SideRun {
  ms: number;
  outcomes: Map<string, string>;
}

/**
 * Runs `rounds` rounds, each side A (`sides[0]`) then side B, and prints per round
 * "round r: <A> 101.3 s, <B> 61.1 s, ratio 1.66×", then whether every outcome of every job key was
 * the same as in the first run that had it (`what` names the outcomes: "every test outcome of
 * every variant"); each difference is printed as it is found.
 * Inputs: rounds (≥ 1); the two sides' labels ("one process"); run(side, round) for side 0 or 1.
 * Returns the number of differing job outcomes (0: all the same). Errors from run propagate.
 */
export async function abRounds(opts: { rounds: number; labels: [string, string]; what: string; run: (side: 0 | 1, round: number) => Promise<SideRun> }): Promise<number> {
  const first = new Map<string, string>();
  let differ = 0;
  for (let r = 1; r <= opts.rounds; r++) {
    const ms: number[] = [];
    for (const side of [0, 1] as const) {
      const got = await opts.run(side, r);
      ms.push(got.ms);
      for (const [key, outcome] of got.outcomes) {
        const seen = first.get(key);
        if (seen === undefined) first.set(key, outcome);
        else if (seen !== outcome) {
          differ += 1;
          console.log(`  round ${r}, ${opts.labels[side]}, ${key}: OUTCOMES DIFFER from the first run\n    first: ${seen}\n    this:  ${outcome}`);
        }
      }
    }
    console.log(`  round ${r}: ${opts.labels[0]} ${(ms[0] / 1000).toFixed(1)} s, ${opts.labels[1]} ${(ms[1] / 1000).toFixed(1)} s, ratio ${(ms[0] / ms[1]).toFixed(2)}×`);
  }
  console.log(`${opts.what} the same in all ${opts.rounds * 2} runs: ${differ ? `NO (${differ} differ)` : 'yes'}`);
  return differ;
}

/** Runs a benchmark's main: its error's message on stderr and exit code 1 when it throws. */
export function runBench(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    console.error((err as Error).message);
    process.exit(1);
  });
}

/** Every variant's status, exit code and test outcomes of a suite job, as one comparable string. */
export function suiteOutcomes(runs: VariantRun[]): string {
  return JSON.stringify(runs.map((r) => [r.variant, r.status, r.exitCode, (r.tests ?? []).map((t) => `${t.name}:${t.outcome}`)]));
}

/**
 * The variants of an acceptance-test suite job: the task's gold solution, then every obligation
 * violation applied to it, each `copies` times (ids "O3-1", "O3-2", ...), each violation written
 * once under `<work>/variants/<obligation>/solution.py`.
 * Returns: the acceptance test file and the variants in run order. Throws an Error naming the
 * task's folder when it has no acceptance tests, and what applyViolation throws.
 */
export function acceptanceVariants(task: ReturnType<typeof loadTask>, copies: number, work: string): { suiteFile: string; variants: { id: string; solutionFile: string }[] } {
  const forms = readTaskForms(task.dir, task.taskId, task.obligations.obligations, task.obligationsFile);
  if (!forms.acceptance) throw new Error(`${task.dir}: the task has no acceptance tests (acceptance/test_acceptance.py)`);
  const goldFile = path.join(task.dir, 'gold', 'solution.py');
  const gold = fs.readFileSync(goldFile, 'utf8');
  const variants = [{ id: 'gold', solutionFile: goldFile }];
  for (const f of forms.forms.filter((x) => x.violation)) {
    const file = path.join(work, 'variants', f.id, 'solution.py');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, applyViolation(gold, fs.readFileSync(f.violation!, 'utf8'), f.violation!, f.id));
    for (let c = 1; c <= copies; c++) variants.push({ id: `${f.id}-${c}`, solutionFile: file });
  }
  return { suiteFile: forms.acceptance, variants };
}
