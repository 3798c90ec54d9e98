/**
 * The terminal as the CLI leaves it, and lines that fit it (a progress line wider than
 * a 160-column terminal hid the elapsed time; Ctrl-C left line wrapping off, so the resume command
 * printed cut and the next tables had broken borders).
 */

/**
 * What puts a terminal back after a live display: line wrapping on (DECAWM, `ESC [ ? 7 h`) and the
 * cursor shown (DECTCEM, `ESC [ ? 25 h`). cli-progress turns the first off (its default
 * `linewrap: false`) and the second off (`hideCursor`) while a bar runs; both are plain VT100
 * modes, so writing them again is harmless when they are already on.
 */
export const RESTORE_TERMINAL = '\x1b[?7h\x1b[?25h';

/**
 * Writes RESTORE_TERMINAL to `stream` when it is a terminal, synchronously (safe in a SIGINT
 * handler right before process.exit). Nothing is written to a file or pipe.
 */
export function restoreTerminal(stream: NodeJS.WriteStream = process.stderr): void {
  if (stream.isTTY) stream.write(RESTORE_TERMINAL);
}

/** The columns of `stream` (a terminal), else `fallback` (a file or pipe has no width). */
export function terminalWidth(stream: NodeJS.WriteStream = process.stderr, fallback = 120): number {
  return stream.isTTY && stream.columns ? stream.columns : fallback;
}

/**
 * `text` cut to at most `width` characters, the cut marked with "…" (one character). Counts UTF-16
 * code units, which is one column for everything lockin prints on a progress line (ASCII, "·",
 * "…", the bar's "█░"). Pure. `width` < 1 gives "".
 */
export function fitWidth(text: string, width: number): string {
  if (width < 1) return '';
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/**
 * The first of `forms` (longest first) that fits `width`, else the last one cut to it (fitWidth).
 * Lets a line say more on a wide terminal and the essentials on a narrow one. Pure.
 */
export function firstThatFits(forms: readonly string[], width: number): string {
  return forms.find((f) => f.length <= width) ?? fitWidth(forms[forms.length - 1] ?? '', width);
}
