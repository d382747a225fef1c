import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { describe, expect, it, vi } from 'vitest';
import { memoryCallLimitStore, type CallLimitStore } from './call-limit-store';
import { createCallLimits } from './call-limits';

const options = { mutationsPerMinute: 2, searchesPerMinute: 1, streamsPerClient: 2 };

describe('createCallLimits', () => {
  it('allows each kind its calls a minute per client, then answers the seconds to wait', async () => {
    const limits = createCallLimits(options);
    expect([await limits.consume('mutation', 'ip:a'), await limits.consume('mutation', 'ip:a')]).toEqual([0, 0]);
    const wait = await limits.consume('mutation', 'ip:a');
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    // Searches and other clients have allowances of their own.
    expect(await limits.consume('search', 'ip:a')).toBe(0);
    expect(await limits.consume('search', 'ip:a')).toBeGreaterThan(0);
    expect(await limits.consume('mutation', 'ip:b')).toBe(0);
  });

  it('counts in the store it is given: two servers over one shared store share the allowance', async () => {
    const shared = new Map<string, RateLimiterAbstract>();
    const store: CallLimitStore = {
      ...memoryCallLimitStore(),
      counter(points, keyPrefix) {
        if (!shared.has(keyPrefix)) shared.set(keyPrefix, new RateLimiterMemory({ points, duration: 60, keyPrefix }));
        return shared.get(keyPrefix)!;
      },
    };
    const first = createCallLimits({ ...options, store });
    const second = createCallLimits({ ...options, store });
    expect(await first.consume('search', 'ip:a')).toBe(0);
    expect(await second.consume('search', 'ip:a')).toBeGreaterThan(0);
    // Open streams too.
    expect(await first.openStream('ip:a')).not.toBeNull();
    expect(await second.openStream('ip:a')).not.toBeNull();
    expect(await first.openStream('ip:a')).toBeNull();
  });

  it('counts in this process, and warns once, while the store cannot be reached', async () => {
    const down = new Error('connection refused');
    const broken = new RateLimiterMemory({ points: 1, duration: 60 });
    broken.consume = () => Promise.reject(down);
    const store: CallLimitStore = {
      kind: 'shared',
      counter: () => broken,
      streams: { take: () => Promise.reject(down) },
    };
    const logger = { warn: vi.fn() };
    const limits = createCallLimits({ ...options, store, logger });
    expect([await limits.consume('mutation', 'ip:a'), await limits.consume('mutation', 'ip:a')]).toEqual([0, 0]);
    expect(await limits.consume('mutation', 'ip:a')).toBeGreaterThan(0);
    expect(await limits.openStream('ip:a')).not.toBeNull();
    expect(await limits.openStream('ip:a')).not.toBeNull();
    expect(await limits.openStream('ip:a')).toBeNull();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith({ err: down }, expect.any(String));
  });

  it('holds a client to its open streams, and a place given back twice counts once', async () => {
    const limits = createCallLimits(options);
    const one = await limits.openStream('ip:a');
    const two = await limits.openStream('ip:a');
    expect([one, two].every((release) => typeof release === 'function')).toBe(true);
    expect(await limits.openStream('ip:a')).toBeNull();
    expect(await limits.openStream('ip:b')).not.toBeNull();
    one!();
    one!();
    expect(await limits.openStream('ip:a')).not.toBeNull();
    expect(await limits.openStream('ip:a')).toBeNull();
  });
});
