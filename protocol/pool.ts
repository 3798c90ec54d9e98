/**
 * A fixed number of lanes over a list of items, in order: each lane takes the next item when
 * its previous one is done. Used where a step runs a few tasks at once (the mutation analysis's
 * tasks, `lockin obligations check --concurrency N`, the study's labeller check). No timers, no
 * I/O, no randomness: safe in workflow code, where the order in which items start is the order
 * of the list, so a history replays the same.
 */

/**
 * Calls `fn(item, index)` for every item, at most `lanes` at a time (at least one lane; never more
 * lanes than items). Items start in list order. Resolves when every call has resolved.
 * @throws the first error a call rejects with, as soon as it does (Promise.all over the lanes):
 *   the lane that failed takes no further item, the other lanes go on to the end of the list
 *   unobserved, as an in-flight call cannot be taken back.
 */
export async function inLanes<T>(items: readonly T[], lanes: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  const queue = items.map((item, index) => ({ item, index }));
  const lane = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) await fn(next.item, next.index);
  };
  const n = Math.max(1, Math.min(Math.floor(lanes) || 1, items.length));
  await Promise.all(Array.from({ length: n }, () => lane()));
}
