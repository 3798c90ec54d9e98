/**
 * Steps 2 and 3 on a terminal: one progress bar per phase of the data scripts (generate, load,
 * analyze, references, reproduce, …) instead of a line per table and query (step 2
 * printed ~50 row-count lines, then nothing while the references were built). The bars are drawn
 * from the scripts' own progress lines (activities/python/tables.py `progress`); a line that is
 * no step forward (a failure, Spark's log, anything unknown) is printed above the bars. Off a
 * terminal every line is printed as before, the analysis's per-query lines thinned out.
 */
import { MultiBar, type SingleBar } from 'cli-progress';
import { fitWidth, terminalWidth } from './terminal';

/** What one progress line says: a step of a phase, or a line to print as it is. */
export interface DataStep {
  /** The database the phase works on ("sf0.01"), when the line or an earlier one named it. */
  db: string | null;
  phase: string;
  /** Items done so far and in all (null: not known yet). */
  done: number;
  total: number | null;
  /** The item being worked on, for the bar ("q70"). */
  item?: string;
  /** The phase is over (its last item done, or skipped as already built). */
  complete?: boolean;
  /** Shown instead of the count ("already built"). */
  note?: string;
}

/** The parse of one line: a step (`step`) and/or a line to print (`print`). */
export interface DataLine {
  step?: DataStep;
  print?: string;
}

const TIME = /^\[\d\d:\d\d:\d\d \+[\d.]+s\] /;
const SF = /\bsf(\d+(?:\.\d+)?)\b/;

/**
 * Reads one progress line of the data scripts (its "[hh:mm:ss +Ns] " prefix optional), given the
 * database named last (`db`) and the totals announced so far per phase (`totals`, updated).
 * Recognised: "generate: <generator> sfS: N table(s) -> …", "generate: <table>: N rows",
 * "generate: sfS already generated … (skipped)", "load: N table(s) -> …/sfS", "load: <table>: …
 * rows in …" or "…: already typed …", "load: … matches manifest.json (skipped)", "load: wrote …",
 * "analyze: N variant(s) on …/sfS[: all passed before …]", and "<phase>: [i/N] <item>: <status>"
 * (analyze, references, reproduce, golden, …; status "running" means item i started). A step
 * whose status says FAILED is also printed. Anything else is printed only. Pure but for `totals`.
 */
export function parseDataLine(line: string, db: string | null, totals: Map<string, number>): DataLine {
  const msg = line.replace(TIME, '');
  const dbOf = (s: string) => (SF.exec(s) ? `sf${SF.exec(s)![1]}` : db);
  const key = (d: string | null, phase: string) => `${d ?? ''} ${phase}`;
  let m: RegExpExecArray | null;
  if ((m = /^(generate|load): .*?(\d+) table\(s\) -> (.*)$/.exec(msg))) {
    const d = m[1] === 'generate' ? dbOf(msg) : dbOf(m[3]);
    totals.set(key(d, m[1]), Number(m[2]));
    return { step: { db: d, phase: m[1], done: 0, total: Number(m[2]) } };
  }
  if ((m = /^(generate|load): (.*)\((skipped)\)$/.exec(msg)) && !/^(generate|load): [a-z_]+: already typed/.test(msg)) {
    const d = dbOf(m[2]);
    return { step: { db: d, phase: m[1], done: 0, total: null, complete: true, note: 'already built' } };
  }
  if ((m = /^load: wrote (.*)$/.exec(msg))) {
    const d = dbOf(m[1]);
    const n = totals.get(key(d, 'load')) ?? null;
    return { step: { db: d, phase: 'load', done: n ?? 0, total: n, complete: true } };
  }
  if ((m = /^(generate|load): ([a-z_]+): (\d+ rows|already typed)/.exec(msg))) return { step: { db, phase: m[1], done: -1, total: totals.get(key(db, m[1])) ?? null, item: m[2] } };
  if ((m = /^analyze: (\d+) variant\(s\) on (\S+?)(: all passed before.*)?$/.exec(msg))) {
    const d = dbOf(m[2]);
    totals.set(key(d, 'analyze'), Number(m[1]));
    return { step: { db: d, phase: 'analyze', done: m[3] ? Number(m[1]) : 0, total: Number(m[1]), complete: !!m[3] } };
  }
  if ((m = /^([a-z][\w-]*): \[(\d+)\/(\d+)\] (\S+?): (.*)$/.exec(msg))) {
    const [i, n] = [Number(m[2]), Number(m[3])];
    const running = m[5] === 'running';
    const step: DataStep = { db, phase: m[1], done: running ? i - 1 : i, total: n, item: m[4], complete: !running && i === n };
    return /FAILED/.test(m[5]) ? { step, print: line } : { step };
  }
  return { print: line };
}

/** A bar's line: "  [data] sf0.01 references  ████████████░░░░░░░░ 19/33  q12  (2m41s)". Pure. */
export function dataBarLine(s: { db: string | null; phase: string; done: number; total: number | null; item?: string; complete?: boolean; note?: string }, seconds: number, width: number): string {
  const n = 20;
  const full = s.note && s.complete ? n : s.total ? Math.min(n, Math.round((n * s.done) / s.total)) : 0;
  const bar = `${'█'.repeat(full)}${'░'.repeat(n - full)}`;
  const count = s.note ?? (s.total !== null ? `${s.done}/${s.total}` : `${s.done}`);
  const time = seconds >= 60 ? `${Math.floor(seconds / 60)}m${String(Math.floor(seconds % 60)).padStart(2, '0')}s` : `${seconds.toFixed(0)}s`;
  return fitWidth(`  [data] ${s.db ? `${s.db} ` : ''}${s.phase.padEnd(10)} ${bar} ${count.padStart(7)}${s.complete && !s.note ? '  done' : s.item ? `  ${s.item}` : ''}  (${time})`, width);
}

/**
 * The display: `line` takes each shown progress line; `stop` leaves the bars drawn as they are,
 * so other output may follow (a later line draws its phase anew, its count kept); `end` stops
 * for good.
 */
export interface DataProgress {
  line(shown: string): void;
  stop(): void;
  end(): void;
}

/**
 * A display on `stream`: on a terminal one bar per phase and database (dataBarLine), lines to
 * print above them; elsewhere each line as "[data] <line>", except the analysis's per-query "ok"
 * lines, of which every 25th and the last are printed.
 */
export function createDataProgress(stream: NodeJS.WriteStream = process.stderr): DataProgress {
  const totals = new Map<string, number>();
  let db: string | null = null;
  if (!stream.isTTY)
    return {
      line(shown) {
        const p = parseDataLine(shown, db, totals);
        if (p.step?.db) db = p.step.db;
        const s = p.step;
        if (!p.print && s && s.phase === 'analyze' && s.item && !s.complete && s.done % 25 !== 0) return;
        stream.write(`[data] ${shown}\n`);
      },
      stop() {},
      end() {},
    };
  let multi: MultiBar | null = null;
  // Every phase seen keeps its state; only those with lines since the last stop have a bar drawn.
  const bars = new Map<string, { bar: SingleBar | null; state: DataStep; started: number }>();
  const draw = (k: string) => {
    const b = bars.get(k)!;
    b.bar?.update(0, { line: dataBarLine(b.state, (Date.now() - b.started) / 1000, terminalWidth(stream) - 1) });
  };
  const timer = setInterval(() => {
    for (const k of bars.keys()) draw(k);
  }, 1000);
  timer.unref?.();
  return {
    line(shown) {
      const p = parseDataLine(shown, db, totals);
      multi ??= new MultiBar({ format: '{line}', hideCursor: true, linewrap: true, stream, clearOnComplete: false, stopOnComplete: false, autopadding: false });
      if (p.step) {
        if (p.step.db) db = p.step.db;
        const k = `${p.step.db ?? ''} ${p.step.phase}`;
        let b = bars.get(k);
        if (!b) {
          b = { bar: multi.create(1, 0, { line: '' }), state: { ...p.step, done: p.step.done < 0 ? 1 : p.step.done }, started: Date.now() };
          bars.set(k, b);
        } else {
          b.bar ??= multi.create(1, 0, { line: '' });
          // "-1": one more item of a phase whose lines do not count (generate, load); a phase ended
          // without a known total ("load: wrote …" after a run that announced none) keeps its count.
          const unknownEnd = p.step.complete && p.step.total === null && !p.step.note;
          const done = unknownEnd ? b.state.done : p.step.done < 0 ? b.state.done + 1 : p.step.done;
          const total = unknownEnd ? b.state.done : (p.step.total ?? b.state.total);
          b.state = { ...b.state, ...p.step, done, total };
        }
        if (b.state.total !== null && b.state.done >= b.state.total) b.state.complete = true;
        if (b.state.complete) b.state.item = undefined;
        if (b.state.complete && b.state.note) b.state.total = null;
        draw(k);
      }
      if (p.print) multi.log(`[data] ${p.print}\n`);
    },
    stop() {
      if (multi) {
        for (const k of bars.keys()) draw(k);
        multi.stop();
      }
      multi = null;
      for (const b of bars.values()) b.bar = null;
    },
    end() {
      this.stop();
      clearInterval(timer);
    },
  };
}
