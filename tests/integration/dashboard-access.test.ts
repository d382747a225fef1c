/**
 * Who reaches the business dashboard's data: businesses.mine and the live stream bookings.onChange.
 */
import { describe, expect, it } from 'vitest';
import { invalidateUserSessions } from '../../server/features/auth/session';
import { MSG } from '../../shared/messages';
import { callerFor, createBusiness, createBusinessWithoutProfile, createUser } from '../factories/index';
import { errorOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

describe('businesses.mine', () => {
  it("returns the signed-in business's own profile with its hours and time zone", async () => {
    const { user, profile } = await createBusiness(t.deps.db, { timezone: 'Europe/Dublin' });
    await createBusiness(t.deps.db); // another business, never returned
    const mine = await (await callerFor(t.deps, user.id)).businesses.mine();
    expect(mine).toMatchObject({
      id: user.id,
      businessName: profile.businessName,
      slug: profile.slug,
      timezone: 'Europe/Dublin',
      openingHours: profile.openingHours,
    });
  });

  it('is NOT_FOUND for a business without a profile, FORBIDDEN for customers, UNAUTHORIZED for visitors', async () => {
    const incomplete = await createBusinessWithoutProfile(t.deps.db);
    const notFound = await errorOf((await callerFor(t.deps, incomplete.id)).businesses.mine());
    expect([notFound.code, notFound.message]).toEqual(['NOT_FOUND', MSG.businessNotFound]);

    const customer = await createUser(t.deps.db, { role: 'customer' });
    expect((await errorOf((await callerFor(t.deps, customer.id)).businesses.mine())).code).toBe('FORBIDDEN');
    expect((await errorOf((await callerFor(t.deps, null)).businesses.mine())).code).toBe('UNAUTHORIZED');
  });
});

describe('bookings.onChange', () => {
  it('refuses visitors', async () => {
    const err = await errorOf((await callerFor(t.deps, null)).bookings.onChange());
    expect(err.code).toBe('UNAUTHORIZED');
  });

  it('ends once its session is revoked (NOTIFY, docs/decisions/0032)', async () => {
    const { user } = await createBusiness(t.deps.db);
    const caller = await callerFor(t.deps, user.id);
    const events = (await caller.bookings.onChange())[Symbol.asyncIterator]();
    const first = await events.next();
    expect(first.done).toBe(false); // the 'sync' event a (re)connecting client starts from
    const waiting = events.next();
    await invalidateUserSessions(t.deps.db, user.id);
    await expect(waiting).resolves.toEqual({ done: true, value: undefined });
  });

  // Natural expiry (a timer, no database involved) is tested on endWithSession itself:
  // server/realtime/session-revocations.test.ts.
});
