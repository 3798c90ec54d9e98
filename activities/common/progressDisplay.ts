/**
 * Where this process shows the progress lines of the data steps its worker runs (activities/data/
 * run.ts: generate, load, analysis, references, the re-execution), once they passed the data
 * scripts' filters: stderr as "[data] <line>" by default. The CLI process that runs an in-process
 * worker may draw them instead (the main job's bars per phase and database, client/dataProgress.ts).
 */

/** The display in force. */
let display: (shown: string) => void = (shown) => process.stderr.write(`[data] ${shown}\n`);

/** Shows one progress line of a data step (already filtered) on the display in force. */
export function showDataProgress(shown: string): void {
  display(shown);
}

/** Replaces the display of the data steps' progress lines; returns the previous one (to put back). */
export function setProgressDisplay(next: (shown: string) => void): (shown: string) => void {
  const prev = display;
  display = next;
  return prev;
}
