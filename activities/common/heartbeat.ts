/**
 * Progress for long steps that report nothing while they run: the last phase line is repeated
 * with "still working" when nothing was said for `quietMs`, so a researcher watching a check can
 * tell a slow step from a hung one (new-user finding: `obligations check` printed nothing for
 * about five minutes while the acceptance tests ran on gold and the violations).
 */

/** A phase announcer: `say` prints a phase line at once; `stop` ends the repetition. */
export interface Heartbeat {
  say(what: string): void;
  stop(): void;
}

/** The repeated line: "<what> (still working, for 2m05s)". Pure. `forMs`: ms since the phase began. */
export function stillWorkingLine(what: string, forMs: number): string {
  const s = Math.floor(forMs / 1000);
  return `${what} (still working, for ${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s)`;
}

/**
 * Inputs: `write`, told each line (no newline); `quietMs`, the silence after which the current
 * phase is repeated (default 60 000 ms); `now`, the clock (tests pass a fake one).
 * Returns a Heartbeat whose timer does not keep the process alive.
 */
export function startHeartbeat(write: (line: string) => void, quietMs = 60_000, now: () => number = Date.now): Heartbeat {
  let phase: { what: string; began: number } | null = null;
  let lastSaid = now();
  const timer = setInterval(() => {
    if (!phase || now() - lastSaid < quietMs) return;
    write(stillWorkingLine(phase.what, now() - phase.began));
    lastSaid = now();
  }, Math.max(10, Math.min(5_000, Math.floor(quietMs / 4))));
  timer.unref?.();
  return {
    say(what: string) {
      phase = { what, began: now() };
      lastSaid = now();
      write(what);
    },
    stop() {
      clearInterval(timer);
      phase = null;
    },
  };
}
