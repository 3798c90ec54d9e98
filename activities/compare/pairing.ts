/**
 * Pairing two multisets under a compatibility relation: the largest number of (candidate,
 * reference) pairs, each element used at most as often as it occurs, each pair compatible.
 * Used by the key-aligned tolerance comparison (tolerance.ts) inside one key group, where
 * "compatible" is "equal within a tolerance" — a relation that is not transitive, so a greedy
 * first-fit pairing can miss a perfect pairing that exists; this computes a maximum one.
 *
 * Method (textbook maximum bipartite b-matching as a maximum flow; Ford–Fulkerson with
 * breadth-first augmenting paths, i.e. Edmonds–Karp): source → candidate element (capacity =
 * its multiplicity) → reference element (unbounded, when compatible) → sink (capacity = its
 * multiplicity). The flow value is the size of a maximum pairing; it is exact (integral
 * capacities), independent of input order, and equals min(total candidate, total reference)
 * whenever a perfect pairing of that size exists.
 */

/** A bipartite instance: multiplicities on each side and the compatible pairs. */
export interface PairingProblem {
  /** Multiplicity of each distinct candidate element (positive integers). */
  candidate: number[];
  /** Multiplicity of each distinct reference element (positive integers). */
  reference: number[];
  /** Compatible pairs as [candidate index, reference index]; duplicates are harmless. */
  edges: [number, number][];
}

/** A maximum pairing: its size and what is left unpaired on each side (per element). */
export interface PairingResult {
  paired: number;
  /** Per candidate element, how many of its copies are unpaired. */
  candidateLeft: number[];
  /** Per reference element, how many of its copies are unpaired. */
  referenceLeft: number[];
}

/**
 * Computes a maximum pairing (see the module docstring).
 * @param p multiplicities and compatible pairs; indices must be in range
 * @returns the pairing size and the unpaired copies per element
 * @throws Error when an edge names an element that does not exist (a programming error)
 */
export function maximumPairing(p: PairingProblem): PairingResult {
  const nc = p.candidate.length;
  const nr = p.reference.length;
  const adj: number[][] = Array.from({ length: nc }, () => []); // candidate -> edge ids
  const radj: number[][] = Array.from({ length: nr }, () => []); // reference -> edge ids
  const eFrom: number[] = [];
  const eTo: number[] = [];
  const seen = new Set<string>();
  for (const [c, r] of p.edges) {
    if (c < 0 || c >= nc || r < 0 || r >= nr) throw new Error(`maximumPairing: edge [${c}, ${r}] is out of range`);
    const id = `${c},${r}`;
    if (seen.has(id)) continue;
    seen.add(id);
    adj[c].push(eFrom.length);
    radj[r].push(eFrom.length);
    eFrom.push(c);
    eTo.push(r);
  }
  const flow = new Array<number>(eFrom.length).fill(0);
  const candidateLeft = [...p.candidate];
  const referenceLeft = [...p.reference];
  let paired = 0;

  // Greedy start (any feasible flow is a valid start for augmenting paths).
  for (let e = 0; e < eFrom.length; e++) {
    const d = Math.min(candidateLeft[eFrom[e]], referenceLeft[eTo[e]]);
    if (d > 0) {
      flow[e] += d;
      candidateLeft[eFrom[e]] -= d;
      referenceLeft[eTo[e]] -= d;
      paired += d;
    }
  }

  // Augment: BFS over the residual graph from every candidate with copies left.
  for (;;) {
    const viaC = new Array<number>(nc).fill(-2); // edge used to reach candidate c (-1: a source)
    const viaR = new Array<number>(nr).fill(-2); // edge used to reach reference r
    const queue: number[] = [];
    for (let c = 0; c < nc; c++) if (candidateLeft[c] > 0) { viaC[c] = -1; queue.push(c); }
    let end = -1;
    for (let qi = 0; qi < queue.length && end < 0; qi++) {
      const c = queue[qi];
      for (const e of adj[c]) {
        const r = eTo[e];
        if (viaR[r] !== -2) continue;
        viaR[r] = e;
        if (referenceLeft[r] > 0) { end = r; break; }
        for (const e2 of radj[r]) {
          const c2 = eFrom[e2];
          if (flow[e2] > 0 && viaC[c2] === -2) { viaC[c2] = e2; queue.push(c2); }
        }
      }
    }
    if (end < 0) break;
    // Bottleneck: the start's supply, the end's demand, and every backward edge's flow.
    let amount = referenceLeft[end];
    let r = end;
    for (;;) {
      const c = eFrom[viaR[r]];
      if (viaC[c] === -1) { amount = Math.min(amount, candidateLeft[c]); break; }
      amount = Math.min(amount, flow[viaC[c]]);
      r = eTo[viaC[c]];
    }
    r = end;
    referenceLeft[end] -= amount;
    for (;;) {
      const e = viaR[r];
      flow[e] += amount;
      const c = eFrom[e];
      if (viaC[c] === -1) { candidateLeft[c] -= amount; break; }
      flow[viaC[c]] -= amount;
      r = eTo[viaC[c]];
    }
    paired += amount;
  }
  return { paired, candidateLeft, referenceLeft };
}
