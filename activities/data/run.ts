/**
 * Runs the data scripts (activities/python/{tpcds_data,queries,references}.py) for the data
 * activities: forwards their progress lines (stderr) and turns their clear, permanent errors
 * (exit code 2, "error: ..." on stderr: a corrupted file, a missing package, an unknown variant)
 * into InputError, which the worker raises non-retryable.
 */
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { runPythonJson } from '../common/python';
import { noteProgress } from '../common/progressBeat';
import { showDataProgress } from '../common/progressDisplay';
import { InputError, SubprocessError } from '../common/errors';
import { REPO_ROOT, sparkTestsJar } from '../common/paths';
import { SparkSettingsSchema, type SparkSettings } from '../../protocol/settings';

/** Exit code the data scripts use for a clear, user-facing error (tables.fail). */
const CLEAR_ERROR_EXIT = 2;

/** The JVM's start-up banner, printed by every Spark session: not progress, so not forwarded. */
const SPARK_BANNER = [/^WARNING: Using incubator modules: /, /^Setting default log level to "WARN"\.$/, /^To adjust logging level use sc\.setLogLevel\(newLevel\)/];

/** Java stack frames of an exception Spark logs (the failing query's one-line error is kept). */
const JAVA_STACK = [/^\s+at [\w$.<>/-]+\(.*\)$/, /^\s*\.\.\. \d+ more$/, /^\s+at [\w$.<>/-]+$/];

/** Spark noise, not progress: a line of the JVM start-up banner (SPARK_BANNER) or a Java stack frame (JAVA_STACK). */
export function isSparkNoise(line: string): boolean {
  return SPARK_BANNER.some((re) => re.test(line)) || JAVA_STACK.some((re) => re.test(line));
}

/** A record of Spark's own log (log4j): "23:44:50 ERROR Executor: …" or "26/11/30 00:31:02 WARN …". */
const SPARK_LOG_RECORD = /^(?:\d\d\/\d\d\/\d\d )?\d\d:\d\d:\d\d (ERROR|WARN) ([\w$.]+): (.*)$/;
/** A progress line of the data scripts (activities/python/tables.py progress): "[17:46:25 +131.4s] …". */
const PROGRESS_LINE = /^\[\d\d:\d\d:\d\d \+/;

/**
 * A line filter for the data scripts' stderr that shows a block of Spark's own log (a log4j
 * record and its continuation lines: the exception text, the SQL excerpt with its carets, the
 * records that follow it) as one line, so that an error Spark logs for a query the step records as
 * failed (q12 divides by zero at SF=0.01) does not read as a crash. The block ends at the next
 * progress line. Input: one stderr line at a time; output: the line to show, or null. The
 * failure itself reaches the user through the step's summary (a failed reference) or, when the
 * script fails, through its error (SubprocessError keeps the whole stderr tail).
 */
export function sparkLogFilter(): (line: string) => string | null {
  let inBlock = false;
  return (line) => {
    if (PROGRESS_LINE.test(line)) {
      inBlock = false;
      return line;
    }
    const rec = SPARK_LOG_RECORD.exec(line);
    if (rec) {
      if (inBlock) return null;
      inBlock = true;
      const msg = rec[3].length > 120 ? `${rec[3].slice(0, 117)}...` : rec[3];
      return `(Spark logged ${rec[1]} ${rec[2]}: ${msg}; the step goes on and its summary says what failed)`;
    }
    return inBlock ? null : line;
  };
}

const defaultFilter = sparkLogFilter();

/** Where progress lines go: the display (common/progressDisplay.ts) unless LOCKIN_DATA_QUIET=1, the Spark banner and Java stack frames left out, a block of Spark's log as one line (sparkLogFilter). Tests may replace it. */
export let progressSink: (line: string) => void = (line) => {
  if (process.env.LOCKIN_DATA_QUIET === '1' || isSparkNoise(line)) return;
  const shown = defaultFilter(line);
  if (shown === null) return;
  showDataProgress(shown);
  noteProgress(shown); // for the command that started the workflow, when another process runs this activity
};

/** Replaces the progress sink (returns the previous one). */
export function setProgressSink(sink: (line: string) => void): (line: string) => void {
  const prev = progressSink;
  progressSink = sink;
  return prev;
}

/**
 * Runs `activities/python/<script> ...args` and validates its JSON result.
 * @throws InputError for the script's clear errors (exit 2); SubprocessError otherwise.
 */
export async function runDataScript<T extends z.ZodTypeAny>(script: string, args: string[], schema: T, timeoutMs?: number): Promise<z.infer<T>> {
  try {
    return await runPythonJson(script, args, schema, { timeoutMs, onStderrLine: (l) => progressSink(l) });
  } catch (err) {
    if (err instanceof SubprocessError && err.exitCode === CLEAR_ERROR_EXIT) {
      const lines = err.stderrTail.split('\n').filter((l) => l.startsWith('error: '));
      throw new InputError(`${script}: ${(lines[lines.length - 1] ?? err.stderrTail).replace(/^error: /, '')}`);
    }
    throw err;
  }
}

/** The `--settings` argument: the validated study settings as JSON (every key explicit). */
export function settingsArg(settings: SparkSettings): string {
  const parsed = SparkSettingsSchema.safeParse(settings);
  if (!parsed.success) throw new InputError(`invalid Spark settings: ${parsed.error.message}`, undefined, 'settings');
  return JSON.stringify(parsed.data);
}

/** The Spark tests jar: sparkTestsJar() under LOCKIN_HOME, else the one setup fetched under `<repo>/.lockin`. */
export function testsJar(): string {
  const own = sparkTestsJar();
  const fallback = path.join(REPO_ROOT, '.lockin', 'cache', 'jars', path.basename(own));
  return fs.existsSync(own) || !fs.existsSync(fallback) ? own : fallback;
}

/** Validates a scale factor (positive, finite). @throws InputError naming the field. */
export function checkScale(scale: number): number {
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0) throw new InputError(`scale must be a positive number, got ${scale}`, undefined, 'scale');
  return scale;
}

/** Formats a scale for the Python scripts (JS number text: 1 -> "1", 0.01 -> "0.01"). */
export function scaleArg(scale: number): string {
  return String(checkScale(scale));
}
