/**
 * An in-process requests-per-minute limiter for backend calls (cache hits and replays are free),
 * one per model: a model's requests never wait on another model's window. The model queues'
 * concurrency is set by the worker (one queue per provider); this bounds the request rate.
 */

/** Sliding-window limiter: at most `rpm` acquisitions in any 60-second window; rpm <= 0 = unlimited. */
export class RpmLimiter {
  private stamps: number[] = [];
  private chain: Promise<void> = Promise.resolve();

  constructor(
    readonly rpm: number,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** Waits until a request may be sent, then records it. Returns the milliseconds waited. */
  acquire(): Promise<number> {
    const run = this.chain.then(() => this.take());
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async take(): Promise<number> {
    if (this.rpm <= 0) return 0;
    let waited = 0;
    for (;;) {
      const t = this.now();
      this.stamps = this.stamps.filter((s) => s > t - 60_000);
      if (this.stamps.length < this.rpm) {
        this.stamps.push(t);
        return waited;
      }
      const wait = this.stamps[0] + 60_000 - t + 1;
      waited += wait;
      await this.sleep(wait);
    }
  }
}

const shared = new Map<string, RpmLimiter>();

/**
 * The process-wide limiter of one model (key: backend and model id, e.g. "anthropic:claude-sonnet-4-6")
 * at `rpm` requests per minute (recreated when the configured rate changes).
 */
export function sharedLimiter(model: string, rpm: number): RpmLimiter {
  let l = shared.get(model);
  if (!l || l.rpm !== rpm) {
    l = new RpmLimiter(rpm);
    shared.set(model, l);
  }
  return l;
}
