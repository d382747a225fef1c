import { afterEach, describe, expect, it, vi } from 'vitest';
import { endWithSession, type SessionSignal } from './session-revocations';

/** A revocation fan-out whose signals the test sends by hand. */
function fakeRevocations() {
  const watchers = new Set<(signal: SessionSignal) => void>();
  return {
    watch: (_id: string, onSignal: (signal: SessionSignal) => void) => {
      watchers.add(onSignal);
      return () => watchers.delete(onSignal);
    },
    send: (signal: SessionSignal) => watchers.forEach((w) => w(signal)),
  };
}

describe('endWithSession', () => {
  afterEach(() => vi.useRealTimers());
  const now = new Date('2026-11-21T10:00:00Z');
  const later = new Date('2026-12-21T10:00:00Z');

  it('ends the stream when its session is revoked', async () => {
    const revocations = fakeRevocations();
    const controller = new AbortController();
    const stop = endWithSession({
      revocations,
      sessionId: 's1',
      expiresAt: later,
      now: () => now,
      readExpiry: async () => later,
      controller,
    });
    await vi.waitFor(() => expect(controller.signal.aborted).toBe(false));
    revocations.send('ended');
    expect(controller.signal.aborted).toBe(true);
    stop();
  });

  it('keeps the stream while the database cannot answer, and reads the session again shortly', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const revocations = fakeRevocations();
    const controller = new AbortController();
    const readExpiry = vi.fn<() => Promise<Date | null>>().mockRejectedValue(new Error('connection terminated'));
    const stop = endWithSession({
      revocations,
      sessionId: 's1',
      expiresAt: later,
      now: () => now,
      readExpiry,
      controller,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(readExpiry).toHaveBeenCalledTimes(1);
    revocations.send('check'); // the LISTEN came back while the database still fails
    await vi.advanceTimersByTimeAsync(0);
    expect(controller.signal.aborted).toBe(false);
    // Once the database answers that the session is gone, the stream ends.
    readExpiry.mockResolvedValue(null);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(readExpiry.mock.calls.length).toBeGreaterThan(2);
    expect(controller.signal.aborted).toBe(true);
    stop();
  });

  it('stays open while the session lives and ends at its natural expiry, re-reading at most daily', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(now);
    const controller = new AbortController();
    let stored: Date | null = later;
    const readExpiry = vi.fn(async () => stored);
    const stop = endWithSession({
      revocations: fakeRevocations(),
      sessionId: 's1',
      expiresAt: later,
      now: () => new Date(),
      readExpiry,
      controller,
    });
    await vi.advanceTimersByTimeAsync(24 * 60 * 60_000);
    expect(readExpiry).toHaveBeenCalledTimes(2); // at the start, then after a day
    expect(controller.signal.aborted).toBe(false);
    stored = new Date(Date.now() + 60_000); // renewed no more: ends a minute from now
    await vi.advanceTimersByTimeAsync(24 * 60 * 60_000);
    expect(controller.signal.aborted).toBe(true);
    stop();
  });
});
