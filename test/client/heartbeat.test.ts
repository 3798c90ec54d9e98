import { startHeartbeat, stillWorkingLine } from '../../activities/common/heartbeat';

test('stillWorkingLine: minutes and zero-padded seconds since the phase began', () => {
  expect(stillWorkingLine('q12: acceptance tests on gold and 12 violation(s)', 125_400)).toBe('q12: acceptance tests on gold and 12 violation(s) (still working, for 2m05s)');
  expect(stillWorkingLine('x', 59_999)).toBe('x (still working, for 0m59s)');
});

test('startHeartbeat: a phase is repeated after each minute of silence, a new phase resets the clock, stop ends it', () => {
  jest.useFakeTimers();
  try {
    let t = 0;
    const lines: string[] = [];
    const hb = startHeartbeat((l) => lines.push(l), 60_000, () => t);
    const advance = (ms: number) => {
      for (let i = 0; i < ms / 5_000; i++) {
        t += 5_000;
        jest.advanceTimersByTime(5_000);
      }
    };
    advance(120_000); // no phase yet: nothing
    expect(lines).toEqual([]);
    hb.say('acceptance tests');
    advance(55_000);
    expect(lines).toEqual(['acceptance tests']);
    advance(5_000);
    expect(lines).toEqual(['acceptance tests', 'acceptance tests (still working, for 1m00s)']);
    advance(60_000);
    expect(lines.slice(2)).toEqual(['acceptance tests (still working, for 2m00s)']);
    hb.say('reference');
    advance(30_000);
    hb.say('executed [1/13] gold: ok');
    advance(55_000);
    expect(lines.slice(3)).toEqual(['reference', 'executed [1/13] gold: ok']);
    advance(5_000);
    expect(lines.slice(5)).toEqual(['executed [1/13] gold: ok (still working, for 1m00s)']);
    hb.stop();
    advance(300_000);
    expect(lines).toHaveLength(6);
  } finally {
    jest.useRealTimers();
  }
});
