import { inLanes } from '../../protocol/pool';

/** A call that resolves when the test says so, recording when it started. */
function gate() {
  const started: string[] = [];
  const release = new Map<string, () => void>();
  const fn = (item: string, index: number) =>
    new Promise<void>((resolve) => {
      started.push(`${item}@${index}`);
      release.set(item, resolve);
    });
  return { started, release, fn };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('inLanes', () => {
  test('two lanes over five items: two start at once, the next starts when one ends, in list order', async () => {
    const g = gate();
    const done = inLanes(['a', 'b', 'c', 'd', 'e'], 2, g.fn);
    await tick();
    expect(g.started).toEqual(['a@0', 'b@1']);
    g.release.get('b')!();
    await tick();
    expect(g.started).toEqual(['a@0', 'b@1', 'c@2']);
    g.release.get('a')!();
    await tick();
    expect(g.started).toEqual(['a@0', 'b@1', 'c@2', 'd@3']);
    g.release.get('c')!();
    g.release.get('d')!();
    await tick();
    expect(g.started).toEqual(['a@0', 'b@1', 'c@2', 'd@3', 'e@4']);
    g.release.get('e')!();
    await done;
  });

  test('lanes below one count as one; more lanes than items start every item at once', async () => {
    const one = gate();
    const p1 = inLanes(['x', 'y'], 0, one.fn);
    await tick();
    expect(one.started).toEqual(['x@0']);
    one.release.get('x')!();
    await tick();
    one.release.get('y')!();
    await p1;
    expect(one.started).toEqual(['x@0', 'y@1']);

    const many = gate();
    const p2 = inLanes(['x', 'y'], 8, many.fn);
    await tick();
    expect(many.started).toEqual(['x@0', 'y@1']);
    many.release.get('x')!();
    many.release.get('y')!();
    await p2;
  });

  test('no items: resolves without a call', async () => {
    const fn = jest.fn(async () => undefined);
    await inLanes([], 3, fn);
    expect(fn).not.toHaveBeenCalled();
  });

  test("a failing call rejects at once with its error; its lane takes no further item, the other lane goes on to the end", async () => {
    const seen: string[] = [];
    const err = inLanes(['bad', 'slow', 'c', 'd'], 2, async (item) => {
      seen.push(item);
      if (item === 'bad') throw new Error('bad item');
      await tick();
    });
    await expect(err).rejects.toThrow('bad item');
    expect(seen).toEqual(['bad', 'slow']);
    for (let i = 0; i < 5; i++) await tick();
    expect(seen).toEqual(['bad', 'slow', 'c', 'd']);
  });
});
