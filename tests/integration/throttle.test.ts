/**
 * The database-backed throttle (server/features/auth/throttle.ts, ADR 0008) on the real test database:
 * counts, atomicity under concurrency, refund and reset, window expiry, and counters shared by two
 * Throttle instances (two server processes) on one database.
 */
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rateLimits } from '../../server/db/schema/index';
import {
  createDbThrottle,
  deleteExpiredThrottleRows,
  loginAttemptKeys,
  THROTTLE_RULES,
} from '../../server/features/auth/throttle';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

afterEach(() => {
  vi.useRealTimers();
});

async function consumeTimes(n: number, rule: 'loginAccountIp' | 'email', key: string) {
  const results: boolean[] = [];
  for (let i = 0; i < n; i++) results.push(await t.deps.throttle.consume(rule, key));
  return results;
}

describe('database throttle', () => {
  it('allows the rule points in a window, then refuses, and stores one row per key', async () => {
    expect(await consumeTimes(7, 'loginAccountIp', 'count@example.test')).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    const rows = await t.deps.db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, 'login_account_ip:count@example.test'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.points).toBe(7);
  });

  it('never lets concurrent events past the limit', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => t.deps.throttle.consume('loginAccountIp', 'race@example.test')),
    );
    expect(results.filter(Boolean)).toHaveLength(THROTTLE_RULES.loginAccountIp.points);
  });

  it('refund gives one event back and reset forgets the key', async () => {
    await consumeTimes(5, 'loginAccountIp', 'refund@example.test');
    expect(await t.deps.throttle.consume('loginAccountIp', 'refund@example.test')).toBe(false);
    await t.deps.throttle.refund('loginAccountIp', 'refund@example.test');
    await t.deps.throttle.refund('loginAccountIp', 'refund@example.test');
    expect(await t.deps.throttle.consume('loginAccountIp', 'refund@example.test')).toBe(true);
    expect(await t.deps.throttle.consume('loginAccountIp', 'refund@example.test')).toBe(false);
    await t.deps.throttle.reset('loginAccountIp', 'refund@example.test');
    expect(await consumeTimes(5, 'loginAccountIp', 'refund@example.test')).toEqual([true, true, true, true, true]);
  });

  it('resetStartingWith forgets every key of the rule that starts with the given text, and no other', async () => {
    await consumeTimes(5, 'loginAccountIp', 'pre@example.test|ip:192.0.2.1');
    await consumeTimes(5, 'loginAccountIp', 'pre@example.test|ip:192.0.2.2');
    await consumeTimes(5, 'loginAccountIp', 'pre@example.test.other|ip:192.0.2.1');
    await t.deps.throttle.resetStartingWith('loginAccountIp', 'pre@example.test|');
    expect(await t.deps.throttle.consume('loginAccountIp', 'pre@example.test|ip:192.0.2.1')).toBe(true);
    expect(await t.deps.throttle.consume('loginAccountIp', 'pre@example.test|ip:192.0.2.2')).toBe(true);
    expect(await t.deps.throttle.consume('loginAccountIp', 'pre@example.test.other|ip:192.0.2.1')).toBe(false);
  });

  it('starts a new window once the old one has ended, and sweeps ended windows', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-21T10:00:00Z') });
    expect(await consumeTimes(2, 'email', 'window@example.test')).toEqual([true, false]);
    vi.setSystemTime(new Date('2026-11-21T10:00:59Z'));
    expect(await t.deps.throttle.consume('email', 'window@example.test')).toBe(false);
    vi.setSystemTime(new Date('2026-11-21T10:01:01Z'));
    await deleteExpiredThrottleRows(t.deps.db, new Date('2026-11-21T10:00:59Z'));
    expect(
      await t.deps.db.select().from(rateLimits).where(eq(rateLimits.key, 'email:window@example.test')),
    ).toHaveLength(1);
    expect(await t.deps.throttle.consume('email', 'window@example.test')).toBe(true);
    await deleteExpiredThrottleRows(t.deps.db, new Date('2026-11-21T10:02:02Z'));
    expect(await t.deps.db.select().from(rateLimits).where(eq(rateLimits.key, 'email:window@example.test'))).toEqual(
      [],
    );
  });

  it('shares counts between two throttles on one database (two server instances)', async () => {
    const other = createDbThrottle(t.deps.db);
    expect(await t.deps.throttle.consume('email', 'shared@example.test')).toBe(true);
    expect(await other.consume('email', 'shared@example.test')).toBe(false);
  });
});

describe('login attempt keys', () => {
  it('key the account with the client, the account alone and the client; IPv6 by its /64', () => {
    expect(loginAttemptKeys('Ann@Example.TEST', '203.0.113.5')).toEqual([
      { rule: 'loginAccountIp', key: 'ann@example.test|ip:203.0.113.5' },
      { rule: 'loginAccount', key: 'ann@example.test' },
      { rule: 'loginIp', key: 'ip:203.0.113.5' },
    ]);
    const a = loginAttemptKeys('a@example.test', '2001:db8:1:2:aaaa::1');
    const b = loginAttemptKeys('a@example.test', '2001:db8:1:2:bbbb::9');
    expect(a).toEqual(b);
    expect(loginAttemptKeys('a@example.test', '::ffff:192.0.2.1')[2]).toEqual({ rule: 'loginIp', key: 'ip:192.0.2.1' });
    expect(loginAttemptKeys('a@example.test')).toEqual([
      { rule: 'loginAccountIp', key: 'a@example.test|ip:none' },
      { rule: 'loginAccount', key: 'a@example.test' },
    ]);
  });
});
