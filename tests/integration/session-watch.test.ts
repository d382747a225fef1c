/**
 * endWithSession (server/realtime/session-revocations.ts): a live stream ends with its session,
 * but a failed read of the session (the database restarting) does not end it.
 */
import { describe, expect, it, vi } from 'vitest';
import { endWithSession, type SessionSignal } from '../../server/realtime/session-revocations';

function watcher() {
  const listeners: ((s: SessionSignal) => void)[] = [];
  return {
    revocations: {
      watch: (_id: string, on: (s: SessionSignal) => void) => {
        listeners.push(on);
        return () => listeners.splice(listeners.indexOf(on), 1);
      },
    },
    signal: (s: SessionSignal) => listeners.forEach((l) => l(s)),
  };
}

describe('endWithSession', () => {
  it('keeps the stream when the session cannot be read, and reads it again', async () => {
    const w = watcher();
    const controller = new AbortController();
    const expiresAt = new Date(Date.now() + 3_600_000);
    let reads = 0;
    const readExpiry = vi.fn(async () => {
      reads++;
      if (reads === 1) throw new Error('CONNECTION_CLOSED');
      return expiresAt;
    });
    const stop = endWithSession({
      revocations: w.revocations,
      sessionId: 's1',
      expiresAt,
      now: () => new Date(),
      readExpiry,
      controller,
    });
    await vi.waitFor(() => expect(reads).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    expect(controller.signal.aborted).toBe(false);
    // A revocation still ends it at once.
    w.signal('ended');
    expect(controller.signal.aborted).toBe(true);
    stop();
  });

  it('ends the stream when the session is gone', async () => {
    const w = watcher();
    const controller = new AbortController();
    const stop = endWithSession({
      revocations: w.revocations,
      sessionId: 's1',
      expiresAt: new Date(Date.now() + 3_600_000),
      now: () => new Date(),
      readExpiry: async () => null,
      controller,
    });
    await vi.waitFor(() => expect(controller.signal.aborted).toBe(true));
    stop();
  });
});
