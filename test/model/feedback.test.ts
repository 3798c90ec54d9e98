/** Feedback is capped in bytes, not lines (a 1 GiB print once gave a 1 MB prompt). */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { clipBytes } from '../../activities/common/bytes';
import { FEEDBACK_MAX_BYTES, readFeedback } from '../../activities/model/stageInputs';

test('clipBytes keeps whole characters and says how much was cut', () => {
  expect(clipBytes('abc', 3)).toBe('abc');
  expect(clipBytes('abcdef', 4)).toBe('abcd\n… [2 more bytes cut]');
  expect(clipBytes('abcdef', 4, 'tail')).toBe('… [2 more bytes cut]\ncdef');
  // "é" is 2 bytes: a cut inside it backs off to the boundary.
  expect(clipBytes('ééé', 3)).toBe('é\n… [4 more bytes cut]');
  expect(clipBytes('ééé', 3, 'tail')).toBe('… [4 more bytes cut]\né');
});

test('a single enormous line of feedback reaches the prompt as at most FEEDBACK_MAX_BYTES bytes', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockin-feedback-'));
  try {
    const file = path.join(dir, 'failures.md');
    const size = 4 * 1024 * 1024;
    fs.writeFileSync(file, 'x'.repeat(size)); // one line, no newline: a line cap would keep all of it
    const text = readFeedback(file, 'pytest failures');
    const body = text.slice('```text\n'.length, text.length - '\n```'.length);
    expect(body).toBe(`${'x'.repeat(FEEDBACK_MAX_BYTES)}\n… [cut: the file has ${size} bytes, the prompt carries at most ${FEEDBACK_MAX_BYTES}]`);
    fs.writeFileSync(file, 'short ```fence```\n');
    expect(readFeedback(file, 'pytest failures')).toBe("```text\nshort '''fence'''\n```");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
