import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { firstPageOnly, leadingThrottle } from './refresh-throttle';

describe('firstPageOnly', () => {
  it('keeps the first page of a list that loaded more, so a refresh searches one page', () => {
    const data = { pages: ['one', 'two', 'three'], pageParams: [null, 'c1', 'c2'] };
    expect(firstPageOnly(data)).toEqual({ pages: ['one'], pageParams: [null] });
    const single = { pages: ['one'], pageParams: [null] };
    expect(firstPageOnly(single)).toBe(single);
    expect(firstPageOnly(undefined)).toBeUndefined();
  });
});

describe('leadingThrottle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the first call at once and gathers the calls within the window into one run at its end', () => {
    const run = vi.fn();
    const throttled = leadingThrottle(run, 3000);
    throttled.call();
    expect(run).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 60; i++) {
      vi.advanceTimersByTime(45);
      throttled.call();
    }
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(3000 - 60 * 45);
    expect(run).toHaveBeenCalledTimes(2);
    // Nothing asked since: the next window passes without a run, and the call after it runs at once.
    vi.advanceTimersByTime(3000);
    expect(run).toHaveBeenCalledTimes(2);
    throttled.call();
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('a steady stream of calls runs once per window, however many there are', () => {
    const run = vi.fn();
    const throttled = leadingThrottle(run, 3000);
    // Every 450 ms for 30 s.
    for (let t = 0; t < 30_000; t += 450) {
      throttled.call();
      vi.advanceTimersByTime(450);
    }
    vi.advanceTimersByTime(3000);
    expect(run.mock.calls.length).toBeLessThanOrEqual(11);
    expect(run.mock.calls.length).toBeGreaterThanOrEqual(10);
  });

  it('cancel drops the waiting run, and the next call runs at once', () => {
    const run = vi.fn();
    const throttled = leadingThrottle(run, 3000);
    throttled.call();
    throttled.call();
    throttled.cancel();
    vi.advanceTimersByTime(10_000);
    expect(run).toHaveBeenCalledTimes(1);
    throttled.call();
    expect(run).toHaveBeenCalledTimes(2);
  });
});
