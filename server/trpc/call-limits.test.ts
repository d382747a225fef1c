import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
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
    const store = (points: number, keyPrefix: string) => {
      if (!shared.has(keyPrefix)) shared.set(keyPrefix, new RateLimiterMemory({ points, duration: 60, keyPrefix }));
      return shared.get(keyPrefix)!;
    };
    const first = createCallLimits({ ...options, store });
    const second = createCallLimits({ ...options, store });
    expect(await first.consume('search', 'ip:a')).toBe(0);
    expect(await second.consume('search', 'ip:a')).toBeGreaterThan(0);
  });

  it('holds a client to its open streams, and a place given back twice counts once', () => {
    const limits = createCallLimits(options);
    const one = limits.openStream('ip:a');
    const two = limits.openStream('ip:a');
    expect([one, two].every((release) => typeof release === 'function')).toBe(true);
    expect(limits.openStream('ip:a')).toBeNull();
    expect(limits.openStream('ip:b')).not.toBeNull();
    one!();
    one!();
    expect(limits.openStream('ip:a')).not.toBeNull();
    expect(limits.openStream('ip:a')).toBeNull();
  });
});
