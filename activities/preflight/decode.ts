/**
 * Encodings the preflight sees through (findings: "encoded SQL (base64, word lists) …
 * pass the preflight"). Pure functions: from a text, the texts hidden in it by encodings that
 * are cheap to recognize, so the reference-SQL and reference-row checks can run on them too.
 *
 * Recognized (each decoded text is itself decoded once more, so base64 of a hex string or of a
 * word list is found too):
 *  - base64 (standard or URL-safe alphabet), also split over adjacent string literals
 *    ("U0VM" "RUNU…", 'U0VM' + 'RUNU…', one piece per line), and zlib/gzip-compressed before it;
 *  - hex: a run of ≥ 32 hex digits (optionally 0x…), or `\xNN` escapes (≥ 16 in a row);
 *  - character codes: ≥ 16 comma-separated integers 9..126 (`[83, 69, 76, …]`, chr() lists);
 *  - word lists: the contents of the text's string literals joined with spaces
 *    (`["select", "sum", "(", …]` then `" ".join(...)`).
 * A decoded text counts only when it is text: ≥ 16 characters, ≥ 95 % printable ASCII or
 * whitespace. Not recognized: ROT13 and other ciphers, reversed text, custom separators,
 * paraphrase (README "Security").
 */
import * as zlib from 'zlib';

/** A text found inside another, and how it was encoded. */
export interface DecodedText {
  /** e.g. "base64", "hex", "char codes", "word list", "base64, then hex". */
  how: string;
  text: string;
}

/** Decoded texts shorter than this are ignored (too short to hold SQL or a row). */
const MIN_DECODED = 16;
/** An encoded run shorter than this is not tried (base64 of 16 characters is 24). */
const MIN_ENCODED = 24;
/** At most this many bytes are decoded from one text (a bound on the work). */
const MAX_DECODED_TOTAL = 4 * 1024 * 1024;

/** ≥ 95 % of the characters printable ASCII or whitespace, and at least MIN_DECODED of them. */
function looksLikeText(s: string): boolean {
  if (s.length < MIN_DECODED) return false;
  let ok = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 32 && c < 127) || c === 9 || c === 10 || c === 13) ok++;
  }
  return ok >= 0.95 * s.length;
}

/** The bytes inflated when they start with a zlib or gzip header, else as they are. */
function maybeInflate(buf: Buffer): Buffer {
  const zlibHeader = buf.length > 2 && buf[0] === 0x78 && [0x01, 0x5e, 0x9c, 0xda].includes(buf[1]);
  const gzipHeader = buf.length > 2 && buf[0] === 0x1f && buf[1] === 0x8b;
  if (!zlibHeader && !gzipHeader) return buf;
  try {
    return gzipHeader ? zlib.gunzipSync(buf, { maxOutputLength: MAX_DECODED_TOTAL }) : zlib.inflateSync(buf, { maxOutputLength: MAX_DECODED_TOTAL });
  } catch {
    return buf;
  }
}

/** Glue between two string literals that form one value: `"a" "b"`, `'a' + 'b'`, `("a"\n "b")`. */
const LITERAL_GLUE = /^[\s+,()\\]*$/;
const LITERAL = /(["'`])((?:(?!\1)[^\\\n]|\\.)*)\1/g;

/**
 * Candidate encoded strings of a text: the contents of adjacent string literals joined (glue
 * only between them: LITERAL_GLUE), and, outside literals, runs of lines made only of the
 * base64/hex alphabet (a blob pasted into a prompt or a markdown file, wrapped or not).
 * Whitespace and `\n` escapes are dropped; runs shorter than MIN_ENCODED are left out.
 */
function encodedRuns(text: string): string[] {
  const out = new Set<string>();
  let run = '';
  let end = -1;
  for (const m of text.matchAll(LITERAL)) {
    const gap = end < 0 ? null : text.slice(end, m.index);
    const content = m[2].replace(/\\n/g, '').replace(/\s+/g, '');
    if (run && gap !== null && LITERAL_GLUE.test(gap)) run += content;
    else {
      if (run.length >= MIN_ENCODED) out.add(run);
      run = content;
    }
    end = (m.index ?? 0) + m[0].length;
  }
  if (run.length >= MIN_ENCODED) out.add(run);
  let block = '';
  for (const line of `${text}\n`.split('\n')) {
    const words = line.trim().split(/\s+/);
    const blob = words.length === 1 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(words[0]) ? words[0] : '';
    const tail = blob ? '' : (/[A-Za-z0-9+/_-]{24,}={0,2}$/.exec(line.trim())?.[0] ?? '');
    if (blob) block += blob;
    else {
      if (block.length >= MIN_ENCODED) out.add(block);
      block = tail; // a blob that starts at the end of a line of prose ("the answer: U0VM…")
    }
  }
  if (block.length >= MIN_ENCODED) out.add(block);
  return [...out].filter((r) => /^(?:0x)?[A-Za-z0-9+/_-]+={0,2}$/.test(r));
}

/** The string literals' contents (single, double or back quotes; one line each) joined with spaces. */
function wordList(text: string): string {
  const words: string[] = [];
  for (const m of text.matchAll(LITERAL)) if (m[2].length > 0 && m[2].length <= 200) words.push(m[2]);
  return words.length >= 8 ? words.join(' ') : '';
}

/** One level of decoding (see the module doc). */
function decodeOnce(text: string, budget: { left: number }): DecodedText[] {
  const out: DecodedText[] = [];
  const add = (how: string, s: string) => {
    if (budget.left <= 0 || !looksLikeText(s)) return;
    budget.left -= s.length;
    out.push({ how, text: s });
  };
  for (const run of encodedRuns(text)) {
    if (budget.left <= 0) break;
    const hex = /^(?:0x)?([0-9a-fA-F]+)$/.exec(run);
    if (hex && hex[1].length >= 32 && hex[1].length % 2 === 0) add('hex', maybeInflate(Buffer.from(hex[1], 'hex')).toString('latin1'));
    else if (!hex) {
      const raw = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
      const inflated = maybeInflate(raw);
      add(inflated === raw ? 'base64' : 'base64 of zlib-compressed text', inflated.toString('latin1'));
    }
  }
  for (const m of text.matchAll(/(?:\\x[0-9a-fA-F]{2}){16,}/g)) add('hex escapes', Buffer.from(m[0].replace(/\\x/g, ''), 'hex').toString('latin1'));
  for (const m of text.matchAll(/(?:\b\d{1,3}\s*,\s*){15,}\d{1,3}\b/g)) {
    const codes = m[0].split(',').map((c) => Number(c.trim()));
    if (codes.every((c) => (c >= 32 && c < 127) || c === 9 || c === 10 || c === 13)) add('char codes', String.fromCharCode(...codes));
  }
  const words = wordList(text);
  if (words) add('word list', words);
  return out;
}

/**
 * The texts hidden in `text` by the encodings of the module doc, two levels deep (a decoded
 * text is decoded once more; its `how` then names both in decoding order, "base64, then hex"). Pure.
 * @returns [] when nothing decodes to text.
 */
export function decodedTexts(text: string): DecodedText[] {
  const budget = { left: MAX_DECODED_TOTAL };
  const first = decodeOnce(text, budget);
  const second = first.flatMap((d) => decodeOnce(d.text, budget).map((e) => ({ how: `${d.how}, then ${e.how}`, text: e.text })));
  const seen = new Set<string>([text]);
  return [...first, ...second].filter((d) => !seen.has(d.text) && seen.add(d.text)); // the first way to each text
}
