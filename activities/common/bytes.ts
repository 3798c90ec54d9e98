/** Byte-exact clipping of text (feedback and logs are capped in bytes, not lines). */

/**
 * The longest prefix (`keep: 'head'`) or suffix (`'tail'`) of `text` whose UTF-8 encoding is at
 * most `maxBytes`, cut on a character boundary, with a note saying how many bytes were cut.
 * The note itself is not counted. Returns `text` unchanged when it fits. Pure.
 */
export function clipBytes(text: string, maxBytes: number, keep: 'head' | 'tail' = 'head'): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  let cut = keep === 'head' ? maxBytes : buf.length - maxBytes;
  // Move to a character boundary: UTF-8 continuation bytes are 0b10xxxxxx.
  if (keep === 'head') while (cut > 0 && (buf[cut] & 0xc0) === 0x80) cut--;
  else while (cut < buf.length && (buf[cut] & 0xc0) === 0x80) cut++;
  const kept = keep === 'head' ? buf.subarray(0, cut) : buf.subarray(cut);
  const note = `[${buf.length - kept.length} more bytes cut]`;
  return keep === 'head' ? `${kept.toString('utf8')}\n… ${note}` : `… ${note}\n${kept.toString('utf8')}`;
}
