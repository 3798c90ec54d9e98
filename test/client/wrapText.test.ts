/** wrapText (client/table.ts): the notes under `lockin study profile`, wrapped for a narrow terminal. */
import { wrapText } from '../../client/table';

test('lines break at spaces within the width; a word longer than the width keeps a line of its own', () => {
  expect(wrapText('aaa bbb ccc dddd', 7)).toBe('aaa bbb\nccc\ndddd');
  expect(wrapText('aaa bbb ccc dddd', 8)).toBe('aaa bbb\nccc dddd');
  expect(wrapText('x averyveryverylongword y', 5)).toBe('x\naveryveryverylongword\ny');
  expect(wrapText('short', 100)).toBe('short');
});
