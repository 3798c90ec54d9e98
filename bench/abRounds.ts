/**
 * What the one-against-two benchmarks share (bench/suiteProcesses.ts, bench/outputVariants.ts):
 * their command-line options, rounds of side A then side B with the wall time of each and their
 * ratio, and the check that every outcome is the same in every run.
 */

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
