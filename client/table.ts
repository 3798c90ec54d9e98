/** Terminal tables (cli-table3): colours only on a terminal, plain text when piped to a file. */
import Table from 'cli-table3';

/** A cli-table3 table; without a TTY on stdout its head and borders carry no ANSI colour codes. */
export function newTable(options: ConstructorParameters<typeof Table>[0] = {}): InstanceType<typeof Table> {
  const plain = !process.stdout.isTTY;
  return new Table(plain ? { ...options, style: { ...(options.style ?? {}), head: [], border: [] } } : options);
}

/** `text` broken into lines of at most `width` characters at spaces (a longer word keeps its line). Pure. */
export function wrapText(text: string, width = 100): string {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  out.push(line);
  return out.join('\n');
}
