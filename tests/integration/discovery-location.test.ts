/**
 * Where a business is, and what Discover hears of it (docs/decisions/0081, 0082): the Location
 * card's procedures keep the business's slots in step (listed coordinates, start instants after a
 * time zone change); address look-ups run after the save as retried background work, with the
 * offline gazetteer as the fallback; refusals are answered in words and change nothing; the live
 * stream tells a Discover list what left it and what may have joined it; the search is limited
 * per client IP over HTTP.
 */
import { TRPCClientError } from '@trpc/client';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businessProfiles, geocodeRequests, slots } from '../../server/db/schema/index';
import { MAX_GEOCODE_ATTEMPTS, runGeocodesOnce } from '../../server/features/geocoding/geocode-requests';
import { offlineGeocoder, type Geocoder } from '../../server/features/geocoding/geocoder';
import type { DiscoveryEvent } from '../../server/realtime/live-discovery';
import { MSG } from '../../shared/messages';
import {
  businessProfileForm,
  callerFor,
  createBusiness,
  createSlot,
  createUser,
  TEST_PASSWORD,
} from '../factories/index';
import { errorOf, trackedEvents } from '../setup/helpers';
import { browserClient, startTestServer } from '../setup/http';
import { silentLogger, useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z')); // Saturday 10:00 in London (GMT)

const LEEDS = { latitude: 53.8, longitude: -1.55 };
const search = { window: 'today', ...LEEDS, miles: 5 } as const;

/** A business with a slot at 11:00 today and a signed-in caller for it. */
async function businessWithSlot(opts: { timezone?: string } = {}) {
  const { user, profile } = await createBusiness(t.deps.db, opts);
  const owner = await callerFor(t.deps, user.id);
  const slot = await createSlot(t.deps.db, user.id, { date: '2026-11-21', startTime: '11:00', endTime: '11:30' });
  return { user, profile, owner, slot };
}

const slotRow = async (id: string) => (await t.deps.db.select().from(slots).where(eq(slots.id, id)))[0]!;
const found = async (slotId: string) =>
  (await (await callerFor(t.deps, null)).discovery.search(search)).results.some((r) => r.slotId === slotId);
const geocodes = (geocoder: Geocoder = offlineGeocoder) =>
  runGeocodesOnce({ db: t.deps.db, geocoder, hub: t.deps.hub, logger: silentLogger, now: t.deps.now() });

describe('the Location card', () => {
  it('a pin lists the business and its slots; the switch hides and shows them; the slots follow', async () => {
    const { owner, slot } = await businessWithSlot();
    expect(await owner.settings.location()).toMatchObject({ latitude: null, listed: false, discoverable: true });
    expect(await found(slot.id)).toBe(false);

    const card = await owner.settings.setLocation({ ...LEEDS, source: 'pin' });
    expect(card).toMatchObject({ ...LEEDS, precision: 'exact', source: 'pin', discoverable: true, listed: true });
    expect(await slotRow(slot.id)).toMatchObject(LEEDS);
    expect(await found(slot.id)).toBe(true);

    expect(await owner.settings.setDiscoverable({ discoverable: false })).toMatchObject({ listed: false });
    expect(await slotRow(slot.id)).toMatchObject({ latitude: null, longitude: null });
    expect(await found(slot.id)).toBe(false);

    await owner.settings.setDiscoverable({ discoverable: true });
    expect(await found(slot.id)).toBe(true);
  });

  it('a slot added or edited takes the business position and its start instant', async () => {
    const { owner } = await businessWithSlot({ timezone: 'America/New_York' });
    await owner.settings.setLocation({ ...LEEDS, source: 'device' });
    const { id } = await owner.slots.create({
      date: '2026-11-21',
      startTime: '14:00',
      endTime: '15:00',
      description: 'Cut',
    });
    expect(await slotRow(id)).toMatchObject({ ...LEEDS, startsAt: new Date('2026-11-21T19:00:00Z') });
    await owner.slots.update({
      slotId: id,
      date: '2026-11-21',
      startTime: '15:00',
      endTime: '16:00',
      description: 'Cut',
    });
    expect((await slotRow(id)).startsAt).toEqual(new Date('2026-11-21T20:00:00Z'));
  });

  it("a new time zone moves an open slot's start instant with its local time", async () => {
    const { owner, slot } = await businessWithSlot();
    expect((await slotRow(slot.id)).startsAt).toEqual(new Date('2026-11-21T11:00:00Z'));
    await owner.settings.updateBusinessProfile({
      ...businessProfileForm(`moved-${slot.id.slice(0, 8)}`),
      timezone: 'Asia/Tokyo',
    });
    expect((await slotRow(slot.id)).startsAt).toEqual(new Date('2026-11-21T02:00:00Z'));
  });

  it('an address look-up runs after the save, in the background, and lists the business at the town', async () => {
    const { user, owner, slot } = await businessWithSlot();
    // A new address of a business not yet located queues a look-up; the save itself looks nothing up.
    await owner.settings.updateBusinessProfile(businessProfileForm(`leeds-${slot.id.slice(0, 8)}`));
    expect(await owner.settings.location()).toMatchObject({ lookup: 'pending', latitude: null });
    expect(await geocodes()).toBeGreaterThanOrEqual(1);
    // businessProfileForm's address is in York.
    expect(await owner.settings.location()).toMatchObject({
      latitude: 53.95763,
      longitude: -1.08271,
      precision: 'town',
      source: 'address',
      listed: true,
      lookup: null,
    });
    expect(await slotRow(slot.id)).toMatchObject({ latitude: 53.95763, longitude: -1.08271 });
    // 'Locate from my address' asks again.
    expect(await owner.settings.locateFromAddress()).toMatchObject({ lookup: 'pending' });
    // A pin set before the look-up runs wins: the look-up is withdrawn.
    await owner.settings.setLocation({ ...LEEDS, source: 'pin' });
    await geocodes();
    expect(await owner.settings.location()).toMatchObject({ ...LEEDS, source: 'pin', lookup: null });
    // A business placed by its pin keeps it when its address changes.
    await owner.settings.updateBusinessProfile({
      ...businessProfileForm(`leeds2-${slot.id.slice(0, 8)}`),
      address: '9 Quay St, Manchester, M3 3JE',
    });
    expect(await t.deps.db.select().from(geocodeRequests).where(eq(geocodeRequests.businessId, user.id))).toEqual([]);
  });

  it('a provider that fails is retried with backoff, then the offline gazetteer places the business', async () => {
    const { user, owner } = await businessWithSlot();
    await owner.settings.locateFromAddress();
    let calls = 0;
    const down: Geocoder = {
      name: 'down',
      locate: async () => {
        calls++;
        throw new Error('provider unavailable');
      },
    };
    for (let attempt = 1; attempt < MAX_GEOCODE_ATTEMPTS; attempt++) {
      await geocodes(down);
      const [row] = await t.deps.db.select().from(geocodeRequests).where(eq(geocodeRequests.businessId, user.id));
      expect(row).toMatchObject({ status: 'pending', attempts: attempt, lastError: 'provider unavailable' });
      expect(row!.nextAttemptAt.getTime()).toBe(t.deps.now().getTime() + 30_000 * 2 ** (attempt - 1));
      await geocodes(down); // not due yet: not asked again
      expect(calls).toBe(attempt);
      t.clock.advance(30_000 * 2 ** (attempt - 1));
    }
    await geocodes(down);
    // The factory's address is '1 Test Street, London, SW1A 1AA': placed at its postcode area's district.
    expect(await owner.settings.location()).toMatchObject({ source: 'address', precision: 'town', lookup: null });
    expect((await owner.settings.location()).latitude).not.toBeNull();
  });

  it('an address nobody knows is marked failed, not retried', async () => {
    const { user, owner } = await businessWithSlot();
    await t.deps.db
      .update(businessProfiles)
      .set({ address: 'Nowhere Lane, Atlantis' })
      .where(eq(businessProfiles.id, user.id));
    await owner.settings.locateFromAddress();
    await geocodes();
    expect(await owner.settings.location()).toMatchObject({ lookup: 'failed', latitude: null, listed: false });
  });
});

describe('Location card refusals', () => {
  /** Every row of the tables a refused call must not touch. */
  const snapshot = async () =>
    JSON.stringify(
      await Promise.all(
        ['business_profiles', 'slots', 'geocode_requests'].map((table) =>
          t.deps.db.execute(sql.raw(`select * from ${table} order by 1`)),
        ),
      ),
    );

  it('answers coordinates out of range, an unknown source and a missing address in words, changing nothing', async () => {
    const { user, owner } = await businessWithSlot();
    await t.deps.db.update(businessProfiles).set({ address: null }).where(eq(businessProfiles.id, user.id));
    const cases: [() => Promise<unknown>, string][] = [
      [() => owner.settings.setLocation({ latitude: 90.0001, longitude: 0, source: 'pin' }), MSG.latitudeRange],
      [() => owner.settings.setLocation({ latitude: 0, longitude: 181, source: 'pin' }), MSG.longitudeRange],
      [() => owner.settings.setLocation({ latitude: Number.NaN, longitude: 0, source: 'pin' }), MSG.latitudeRange],
      [() => owner.settings.setLocation({ ...LEEDS, source: 'gps' as 'pin' }), MSG.locationSourceInvalid],
      [() => owner.settings.locateFromAddress(), MSG.locateNeedsAddress],
    ];
    for (const [call, message] of cases) {
      const before = await snapshot();
      const err = await errorOf(call());
      expect({ code: err.code, message: err.message }).toEqual({ code: 'BAD_REQUEST', message });
      expect(await snapshot()).toBe(before);
    }
  });
});

describe('discovery.onChange', () => {
  it('tells a Discover list what left it and what may have joined it, and nothing from elsewhere', async () => {
    const { user, owner, slot } = await businessWithSlot();
    await owner.settings.setLocation({ ...LEEDS, source: 'pin' });
    const far = await businessWithSlot();
    await far.owner.settings.setLocation({ latitude: 51.5, longitude: -0.12, source: 'pin' }); // London
    const anonymous = await callerFor(t.deps, null);
    const stream = trackedEvents<DiscoveryEvent>(await anonymous.discovery.onChange({ ...LEEDS, miles: 5 }));
    const everywhere = trackedEvents<DiscoveryEvent>(await anonymous.discovery.onChange());
    const biz = user.id;
    try {
      for (const s of [stream, everywhere]) expect(await s.next()).toEqual({ kind: 'resync' });
      // On PostgreSQL a NOTIFY comes back after its publish returned: the location changes above
      // may still be on their way. A sentinel published now arrives after them (one channel, in
      // order); what comes before it is skipped.
      const sentinel = crypto.randomUUID();
      await t.deps.hub.publish({ kind: 'business', change: 'located', businessId: sentinel, ...LEEDS, was: null });
      for (const s of [stream, everywhere]) {
        for (let e = await s.next(); !('businessId' in e && e.businessId === sentinel); e = await s.next()) {
          expect(e.kind).toBe('business');
        }
      }

      // Published far away: only the stream watching everywhere hears it.
      const { id: farSlot } = await far.owner.slots.create({
        date: '2026-11-21',
        startTime: '15:00',
        endTime: '16:00',
        description: 'Cut',
      });
      expect(await everywhere.next()).toEqual({
        kind: 'slot',
        change: 'published',
        slotId: farSlot,
        businessId: far.user.id,
      });

      // Published here: both hear it.
      const { id: near } = await owner.slots.create({
        date: '2026-11-21',
        startTime: '15:00',
        endTime: '16:00',
        description: 'Cut',
      });
      for (const s of [stream, everywhere]) {
        expect(await s.next()).toEqual({ kind: 'slot', change: 'published', slotId: near, businessId: biz });
      }

      // Requested by a customer: it leaves (no booking or customer id goes out).
      const customer = await callerFor(t.deps, (await createUser(t.deps.db, { role: 'customer' })).id);
      const { id: bookingId } = await customer.bookings.request({ slotId: slot.id });
      expect(await stream.next()).toEqual({ kind: 'slot', change: 'taken', slotId: slot.id, businessId: biz });
      // Withdrawn: it may be open again.
      await customer.bookings.cancel({ bookingId });
      expect(await stream.next()).toEqual({ kind: 'slot', change: 'reopened', slotId: slot.id, businessId: biz });

      await owner.slots.delete({ slotId: near });
      expect(await stream.next()).toEqual({ kind: 'slot', change: 'deleted', slotId: near, businessId: biz });

      // The business hides itself, then shows itself again; then moves away from this area.
      await owner.settings.setDiscoverable({ discoverable: false });
      expect(await stream.next()).toEqual({ kind: 'business', change: 'unlisted', businessId: biz });
      await owner.settings.setDiscoverable({ discoverable: true });
      expect(await stream.next()).toEqual({ kind: 'business', change: 'listed', businessId: biz });
      await owner.settings.setLocation({ latitude: 51.5, longitude: -0.12, source: 'pin' });
      expect(await stream.next()).toEqual({ kind: 'business', change: 'unlisted', businessId: biz });
    } finally {
      await stream.close();
      await everywhere.close();
    }
  });
});

describe('discovery.onChange scope (docs/decisions/0094)', () => {
  const LONDON = { latitude: 51.5, longitude: -0.12 };
  type Stream = ReturnType<typeof trackedEvents<DiscoveryEvent>>;

  /**
   * What each of `streams` heard before a marker published now: a 'located' of a made-up business
   * listed in Leeds that was listed in London, which a list in either place (or everywhere) hears.
   */
  async function heardBefore(...streams: Stream[]) {
    const marker = crypto.randomUUID();
    await t.deps.hub.publish({ kind: 'business', change: 'located', businessId: marker, ...LEEDS, was: LONDON });
    return Promise.all(
      streams.map(async (s) => {
        const heard: DiscoveryEvent[] = [];
        for (let e = await s.next(); !('businessId' in e && e.businessId === marker); e = await s.next()) heard.push(e);
        return heard;
      }),
    );
  }

  /** Everything a business does that a Discover list could hear of: edits, hours, slots, a request and its withdrawal. */
  async function busyBusiness(owner: Awaited<ReturnType<typeof callerFor>>, slotId: string, slug: string) {
    const { schedule } = await owner.settings.business();
    for (let i = 0; i < 3; i++) await owner.settings.updateBusinessHours({ schedule });
    await owner.settings.updateBusinessProfile(businessProfileForm(slug, `Renamed ${slug}`));
    const { id } = await owner.slots.create({
      date: '2026-11-21',
      startTime: '15:00',
      endTime: '16:00',
      description: 'Cut',
    });
    await owner.slots.update({
      slotId: id,
      date: '2026-11-21',
      startTime: '15:00',
      endTime: '16:30',
      description: 'Cut',
    });
    await owner.slots.delete({ slotId: id });
    const customer = await callerFor(t.deps, (await createUser(t.deps.db, { role: 'customer' })).id);
    const { id: bookingId } = await customer.bookings.request({ slotId });
    await customer.bookings.cancel({ bookingId });
  }

  /** Open streams: a list around Leeds, one around London and one watching everywhere, past their first 'resync'. */
  async function openLists() {
    const anonymous = await callerFor(t.deps, null);
    const lists = {
      leeds: trackedEvents<DiscoveryEvent>(await anonymous.discovery.onChange({ ...LEEDS, miles: 25 })),
      london: trackedEvents<DiscoveryEvent>(await anonymous.discovery.onChange({ ...LONDON, miles: 25 })),
      everywhere: trackedEvents<DiscoveryEvent>(await anonymous.discovery.onChange()),
    };
    for (const s of Object.values(lists)) expect(await s.next()).toEqual({ kind: 'resync' });
    // Changes made before the streams opened may still be on their way: skip them.
    await heardBefore(lists.leeds, lists.london, lists.everywhere);
    return { ...lists, close: () => Promise.all(Object.values(lists).map((s) => s.close())) };
  }

  it('nothing of a business hidden from Discover, or never placed, reaches any list', async () => {
    const hidden = await businessWithSlot();
    await hidden.owner.settings.setLocation({ ...LEEDS, source: 'pin' });
    await hidden.owner.settings.setDiscoverable({ discoverable: false });
    const unplaced = await businessWithSlot();
    const lists = await openLists();
    try {
      await busyBusiness(hidden.owner, hidden.slot.id, hidden.profile.slug);
      await busyBusiness(unplaced.owner, unplaced.slot.id, unplaced.profile.slug);
      // Moved while hidden: still not listed anywhere.
      await hidden.owner.settings.setLocation({ ...LONDON, source: 'pin' });
      expect(await heardBefore(lists.leeds, lists.london, lists.everywhere)).toEqual([[], [], []]);
    } finally {
      await lists.close();
    }
  });

  it("a listed business's changes reach the lists around it only, and an edit Discover does not show reaches none", async () => {
    const london = await businessWithSlot();
    await london.owner.settings.setLocation({ ...LONDON, source: 'pin' });
    const lists = await openLists();
    const biz = london.user.id;
    try {
      await busyBusiness(london.owner, london.slot.id, london.profile.slug);
      const [leeds, there, everywhere] = await heardBefore(lists.leeds, lists.london, lists.everywhere);
      expect(leeds).toEqual([]);
      for (const heard of [there, everywhere]) {
        // The hours saved unchanged three times: at most once (a process that has not seen the business yet).
        const updates = heard!.filter((e) => e.kind === 'business' && e.change === 'updated');
        expect(updates.length).toBeGreaterThanOrEqual(1); // the rename
        expect(updates.length).toBeLessThanOrEqual(2);
        expect(heard!.filter((e) => e.kind === 'slot').map((e) => 'change' in e && e.change)).toEqual([
          'published',
          'edited',
          'deleted',
          'taken',
          'reopened',
        ]);
        expect(heard!.every((e) => 'businessId' in e && e.businessId === biz)).toBe(true);
      }

      // Hours saved again, unchanged: nobody hears of it.
      const { schedule } = await london.owner.settings.business();
      await london.owner.settings.updateBusinessHours({ schedule });
      expect(await heardBefore(lists.leeds, lists.london, lists.everywhere)).toEqual([[], [], []]);

      // Moved to Leeds: the London list drops it, the Leeds list may find it; then its slot reaches Leeds only.
      await london.owner.settings.setLocation({ ...LEEDS, source: 'pin' });
      expect(await lists.london.next()).toEqual({ kind: 'business', change: 'unlisted', businessId: biz });
      expect(await lists.leeds.next()).toEqual({ kind: 'business', change: 'listed', businessId: biz });
      await london.owner.slots.create({ date: '2026-11-21', startTime: '17:00', endTime: '18:00', description: 'Cut' });
      const [leedsAfter, londonAfter] = await heardBefore(lists.leeds, lists.london);
      expect(leedsAfter!.map((e) => 'change' in e && e.change)).toEqual(['published']);
      expect(londonAfter).toEqual([]);
    } finally {
      await lists.close();
    }
  });

  it("a deleted business's slots leave the lists around it only; a hidden one's deletion reaches none", async () => {
    const listed = await businessWithSlot();
    await listed.owner.settings.setLocation({ ...LONDON, source: 'pin' });
    const hidden = await businessWithSlot();
    const lists = await openLists();
    try {
      await hidden.owner.account.delete({ confirmation: 'DELETE', currentPassword: TEST_PASSWORD });
      await listed.owner.account.delete({ confirmation: 'DELETE', currentPassword: TEST_PASSWORD });
      const [leeds, london, everywhere] = await heardBefore(lists.leeds, lists.london, lists.everywhere);
      const unlisted = { kind: 'business', change: 'unlisted', businessId: listed.user.id };
      expect(leeds).toEqual([]);
      expect(london).toEqual([unlisted]);
      expect(everywhere).toEqual([unlisted]);
    } finally {
      await lists.close();
    }
  });
});

describe('the search limit per client IP', () => {
  it('answers searches over the limit with TOO_MANY_REQUESTS in words; other queries go on', async () => {
    const server = await startTestServer(t.database, t.deps.now, { searchesPerMinute: 2 });
    try {
      const { client } = browserClient(server.url, { batch: false });
      for (let i = 0; i < 2; i++) await client.discovery.search.query(search);
      const err = await client.discovery.search.query(search).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TRPCClientError);
      expect((err as TRPCClientError<never>).message).toBe(MSG.tooManyRequests);
      expect((err as TRPCClientError<never>).data).toMatchObject({ code: 'TOO_MANY_REQUESTS', httpStatus: 429 });
      await expect(client.auth.me.query()).resolves.toMatchObject({ user: null });
    } finally {
      await server.close();
    }
  });
});
