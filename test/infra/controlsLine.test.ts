/** The main job's one line on the evaluator controls (step 3). */
import { controlsLine } from '../../client/mainJob';

const counts = { controls: 57, expectedAccept: 36, expectedReject: 21, accepted: 36, rejected: 21, skipped: 0, asExpected: 57, unexpected: 0, perturbations: 24, verifiedPerturbations: 24 };

test('all as expected, in words rather than JSON', () => {
  expect(controlsLine(counts, true)).toBe('57/57 as expected (36 to accept, 21 to reject; perturbations verified 24/24)');
});

test('a control skipped for lack of a reference is not called wrong; a wrong verdict is', () => {
  expect(controlsLine({ ...counts, accepted: 35, skipped: 1, asExpected: 56, unexpected: 1 }, false)).toBe(
    '56/57 as expected, 1 skipped (no reference at this scale), none wrong',
  );
  expect(controlsLine({ ...counts, accepted: 37, rejected: 20, asExpected: 56, unexpected: 1 }, false)).toBe(
    'SOME UNEXPECTED: 1 of 57 wrong (accepted 37, expected 36; rejected 20, expected 21); see controls.md',
  );
  expect(controlsLine(undefined, true)).toBe('all as expected');
});
