/**
 * Favourites: customers only, one like per customer and
 * business, safe under double clicks, a count that never goes below zero, newest first.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages';
import { callerFor, createBusiness, createUser } from '../factories/index';
import { errorOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

describe('favourites', () => {
  it('favourites and removes a business; setting the same state twice changes nothing', async () => {
    const biz = await createBusiness(t.deps.db);
    const cam = await createUser(t.deps.db, { role: 'customer' });
    const caller = await callerFor(t.deps, cam.id);
    expect(await caller.favourites.status({ businessId: biz.profile.id })).toEqual({
      count: 0,
      favourited: false,
      notifyNewSlots: false,
    });
    expect(await caller.favourites.set({ businessId: biz.profile.id, favourited: true })).toEqual({
      count: 1,
      favourited: true,
      notifyNewSlots: false,
    });
    expect(await caller.favourites.set({ businessId: biz.profile.id, favourited: true })).toEqual({
      count: 1,
      favourited: true,
      notifyNewSlots: false,
    });
    expect(await caller.favourites.set({ businessId: biz.profile.id, favourited: false })).toEqual({
      count: 0,
      favourited: false,
      notifyNewSlots: false,
    });
    expect(await caller.favourites.set({ businessId: biz.profile.id, favourited: false })).toEqual({
      count: 0,
      favourited: false,
      notifyNewSlots: false,
    });
  });

  it('counts each customer once, even for simultaneous clicks', async () => {
    const biz = await createBusiness(t.deps.db);
    const cam = await createUser(t.deps.db, { role: 'customer' });
    const dee = await createUser(t.deps.db, { role: 'customer' });
    const camCaller = await callerFor(t.deps, cam.id);
    const deeCaller = await callerFor(t.deps, dee.id);
    await Promise.all([
      camCaller.favourites.set({ businessId: biz.profile.id, favourited: true }),
      camCaller.favourites.set({ businessId: biz.profile.id, favourited: true }),
      camCaller.favourites.set({ businessId: biz.profile.id, favourited: true }),
      deeCaller.favourites.set({ businessId: biz.profile.id, favourited: true }),
    ]);
    expect(await camCaller.favourites.status({ businessId: biz.profile.id })).toEqual({
      count: 2,
      favourited: true,
      notifyNewSlots: false,
    });
    const visitor = await callerFor(t.deps, null);
    expect(await visitor.favourites.status({ businessId: biz.profile.id })).toEqual({
      count: 2,
      favourited: false,
      notifyNewSlots: false,
    });
  });

  it('lists the customer’s own favourites, newest first, with slug and name', async () => {
    const first = await createBusiness(t.deps.db, { name: 'First Cuts' });
    const second = await createBusiness(t.deps.db, { name: 'Second Nails' });
    const cam = await createUser(t.deps.db, { role: 'customer' });
    const dee = await createUser(t.deps.db, { role: 'customer' });
    const caller = await callerFor(t.deps, cam.id);
    await caller.favourites.set({ businessId: first.profile.id, favourited: true });
    t.clock.advance(60_000);
    await caller.favourites.set({ businessId: second.profile.id, favourited: true });
    await (await callerFor(t.deps, dee.id)).favourites.set({ businessId: first.profile.id, favourited: true });
    const list = await caller.favourites.mine();
    expect(list.map((f) => [f.businessName, f.slug])).toEqual([
      ['Second Nails', second.profile.slug],
      ['First Cuts', first.profile.slug],
    ]);
    expect(await (await callerFor(t.deps, dee.id)).favourites.mine()).toHaveLength(1);
  });

  it('refuses visitors and businesses, and unknown businesses', async () => {
    const biz = await createBusiness(t.deps.db);
    const visitor = await callerFor(t.deps, null);
    expect((await errorOf(visitor.favourites.set({ businessId: biz.profile.id, favourited: true }))).code).toBe(
      'UNAUTHORIZED',
    );
    const owner = await callerFor(t.deps, biz.user.id);
    expect((await errorOf(owner.favourites.set({ businessId: biz.profile.id, favourited: true }))).code).toBe(
      'FORBIDDEN',
    );
    expect((await errorOf(owner.favourites.mine())).code).toBe('FORBIDDEN');
    expect(await owner.favourites.status({ businessId: biz.profile.id })).toEqual({
      count: 0,
      favourited: false,
      notifyNewSlots: false,
    });
    const cam = await callerFor(t.deps, (await createUser(t.deps.db, { role: 'customer' })).id);
    const missing = await errorOf(cam.favourites.set({ businessId: randomUUID(), favourited: true }));
    expect(missing.code).toBe('NOT_FOUND');
    expect(missing.message).toBe(MSG.businessNotFound);
    const malformed = await errorOf(cam.favourites.status({ businessId: 'not-a-uuid' }));
    expect(malformed.code).toBe('BAD_REQUEST');
  });
});
