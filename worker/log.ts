/**
 * lockin's logger for the Temporal SDK: the TypeScript side's messages and, forwarded, the
 * native core's (which otherwise print straight to stdout with ANSI colours: during a server
 * outage, one "gRPC call poll_… retried N times" warning per poller and retry).
 *
 * Lines go to stderr as `[lockin] temporal <LEVEL>: <message> (<error>)`, without ANSI escapes,
 * at or above LOCKIN_LOG_LEVEL (TRACE, DEBUG, INFO, WARN, ERROR; default ERROR: lockin's own
 * progress lines say what matters, e.g. that the server is not answering). Repeats are
 * collapsed: a message that differs from an earlier one only in its numbers (whatever its error)
 * is printed once per minute, the next line saying how many like it were left out.
 */
import type { LogLevel, LogMetadata, Logger } from '@temporalio/common';

export const LOG_LEVELS: readonly LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];

/** Default level: the SDK's errors only. */
export const DEFAULT_LOG_LEVEL: LogLevel = 'ERROR';

/** How long a repeated message stays collapsed (ms). */
export const REPEAT_WINDOW_MS = 60_000;

/**
 * Parses a log level (case-insensitive, surrounding spaces ignored). Pure.
 * @param value e.g. process.env.LOCKIN_LOG_LEVEL; undefined or empty = DEFAULT_LOG_LEVEL.
 * @throws Error naming `source` and the accepted levels when the value is not one of them.
 */
export function parseLogLevel(value: string | undefined, source = 'LOCKIN_LOG_LEVEL'): LogLevel {
  const v = (value ?? '').trim().toUpperCase();
  if (!v) return DEFAULT_LOG_LEVEL;
  if ((LOG_LEVELS as readonly string[]).includes(v)) return v as LogLevel;
  throw new Error(`${source}: "${value}" is not a log level (one of ${LOG_LEVELS.join(', ')})`);
}

/** ANSI escape sequences (colours, styles). */
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

/** The text of one log entry: message, plus the first line of its `error` field when there is one. */
function entryText(message: string, meta?: LogMetadata): string {
  const err = meta?.error;
  const errText = err === undefined ? '' : err instanceof Error ? err.message : typeof err === 'string' ? err : JSON.stringify(err);
  const first = errText.split('\n')[0].replace(ANSI, '').slice(0, 200);
  return `${message.replace(ANSI, '')}${first ? ` (${first})` : ''}`;
}

/** The SDK Logger that writes lockin's lines (module doc). */
export class LockinLogger implements Logger {
  private readonly severity: number;
  /** Per collapsed key: when it was last printed and how many were left out since. */
  private readonly seen = new Map<string, { printedAt: number; skipped: number }>();

  /**
   * @param level the lowest level printed.
   * @param write where lines go (default stderr).
   * @param now the clock, ms (tests pass their own).
   */
  constructor(
    readonly level: LogLevel = DEFAULT_LOG_LEVEL,
    private readonly write: (line: string) => void = (line) => void process.stderr.write(line),
    private readonly now: () => number = Date.now,
  ) {
    this.severity = LOG_LEVELS.indexOf(level);
  }

  log(level: LogLevel, message: string, meta?: LogMetadata): void {
    if (LOG_LEVELS.indexOf(level) < this.severity) return;
    const text = entryText(message, meta);
    const key = `${level} ${message.replace(ANSI, '').replace(/\d+/g, '#')}`; // the message, not its error's details
    const t = this.now();
    const s = this.seen.get(key);
    if (s && t - s.printedAt < REPEAT_WINDOW_MS) {
      s.skipped++;
      return;
    }
    const more = s?.skipped ? ` [${s.skipped} more like it in the last ${Math.round((t - s.printedAt) / 1000)} s]` : '';
    this.seen.set(key, { printedAt: t, skipped: 0 });
    this.write(`[lockin] temporal ${level}: ${text}${more}\n`);
  }
  trace(message: string, meta?: LogMetadata): void {
    this.log('TRACE', message, meta);
  }
  debug(message: string, meta?: LogMetadata): void {
    this.log('DEBUG', message, meta);
  }
  info(message: string, meta?: LogMetadata): void {
    this.log('INFO', message, meta);
  }
  warn(message: string, meta?: LogMetadata): void {
    this.log('WARN', message, meta);
  }
  error(message: string, meta?: LogMetadata): void {
    this.log('ERROR', message, meta);
  }
}
