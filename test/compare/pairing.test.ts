import { maximumPairing } from '../../activities/compare/pairing';

describe('maximumPairing (bipartite b-matching)', () => {
  test('an augmenting path undoes a greedy choice: c0-r0, c0-r1, c1-r0 pairs both', () => {
    // The greedy start takes c0-r0 first; only re-routing c0 to r1 lets c1 take r0.
    expect(maximumPairing({ candidate: [1, 1], reference: [1, 1], edges: [[0, 0], [0, 1], [1, 0]] })).toEqual({ paired: 2, candidateLeft: [0, 0], referenceLeft: [0, 0] });
  });
  test('multiplicities: 3 copies against 2 + 2 compatible copies', () => {
    expect(maximumPairing({ candidate: [3], reference: [2, 2], edges: [[0, 0], [0, 1]] })).toEqual({ paired: 3, candidateLeft: [0], referenceLeft: [0, 1] });
  });
  test('no compatible pair leaves everything unpaired; an edge out of range is an error', () => {
    expect(maximumPairing({ candidate: [2], reference: [1], edges: [] })).toEqual({ paired: 0, candidateLeft: [2], referenceLeft: [1] });
    expect(() => maximumPairing({ candidate: [1], reference: [1], edges: [[0, 1]] })).toThrow(/out of range/);
  });
  test('a longer chain: c2 reaches the free r2 only through two re-routings', () => {
    // greedy: c0-r0, c1-r1; c2 is compatible with r0 only; path c2->r0->c0->r1->c1->r2.
    const r = maximumPairing({ candidate: [1, 1, 1], reference: [1, 1, 1], edges: [[0, 0], [1, 1], [0, 1], [1, 2], [2, 0]] });
    expect(r.paired).toBe(3);
  });
});
