import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runEvery } from './run-every';

const logger = pino({ level: 'silent' });

describe('runEvery', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the first pass after one interval, or at once with `atStart`', async () => {
    const later = vi.fn(async () => {});
    const now = vi.fn(async () => {});
    const passes = [
      runEvery(later, { intervalMs: 1_000, logger, failure: 'f' }),
      runEvery(now, { intervalMs: 1_000, logger, failure: 'f', atStart: true }),
    ];
    expect([later.mock.calls.length, now.mock.calls.length]).toEqual([0, 1]);
    await Promise.all(passes.map((p) => p.stop()));
  });

  it('skips a tick while a pass is under way, and stop() waits for that pass', async () => {
    let finish!: () => void;
    const pass = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const passes = runEvery(pass, { intervalMs: 1_000, logger, failure: 'f', atStart: true });
    vi.advanceTimersByTime(5_000);
    expect(pass).toHaveBeenCalledTimes(1);
    let stopped = false;
    const stopping = passes.stop().then(() => (stopped = true));
    await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    finish();
    await stopping;
    vi.advanceTimersByTime(5_000);
    expect(pass).toHaveBeenCalledTimes(1);
  });
});
