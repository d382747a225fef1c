/**
 * The public page cache (docs/decisions/0046) and the page paths (docs/decisions/0047), through two
 * app instances on one database, each with its own cache and LISTEN (on PostgreSQL each with its
 * own connections). Instance A is the writer: its NOTIFYs can be held back, so the tests see that
 * A's own next read is fresh before any NOTIFY is sent, that B keeps its page until the NOTIFY
 * arrives, and that B then serves the new page. Also: a slot that starts while cached is not
 * shown, a LISTEN reconnection clears the cache, ETag and 304 on businesses.bySlug, 404 for
 * unknown slugs and paths, and the page's data preloaded in its HTML.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { inferRouterOutputs } from '@trpc/server';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/client';
import { businessProfiles, slots } from '../../server/db/schema/index';
import { issueOneTimeToken } from '../../server/features/auth/one-time-tokens';
import { createSession } from '../../server/features/auth/session';
import { BOOKING_CHANNEL } from '../../server/realtime/booking-events';
import type { AppRouter } from '../../server/trpc/router';
import { defaultWeeklySchedule } from '../../shared/opening-hours';
import {
  businessProfileForm,
  callerFor,
  createBusiness,
  createSlot,
  createUser,
  TEST_PASSWORD,
} from '../factories/index';
import { startAppInstance, type AppInstance } from '../setup/http';
import { createTestDatabase, testClock, type TestDatabase } from '../setup/test-database';

const clock = testClock(new Date('2026-11-21T10:00:00Z')); // Saturday 10:00 in London (GMT)

/**
 * What an instance's booking hub LISTENs and NOTIFYs through: the real database, except that
 * NOTIFYs can be held back (`hold`, then `release` sends them) and a LISTEN reconnection can be
 * played (`relisten`).
 */
function relay(database: Database) {
  const held: Array<[string, string]> = [];
  let holding = false;
  let relisten: (() => void) | undefined;
  return {
    events: {
      async listen(channel: string, onPayload: (payload: string) => void, onRelisten?: () => void) {
        if (channel === BOOKING_CHANNEL) relisten = onRelisten;
        return database.listen(channel, onPayload, onRelisten);
      },
      async notify(channel: string, payload: string) {
        if (holding) held.push([channel, payload]);
        else await database.notify(channel, payload);
      },
    } satisfies Pick<Database, 'listen' | 'notify'>,
    hold() {
      holding = true;
    },
    async release() {
      holding = false;
      for (const [channel, payload] of held.splice(0)) await database.notify(channel, payload);
    },
    relisten: () => relisten?.(),
  };
}

interface Instance extends AppInstance {
  relay: ReturnType<typeof relay>;
}

async function startInstance(database: Database, clientDir: string): Promise<Instance> {
  const r = relay(database);
  return { ...(await startAppInstance(database, clock.now, { clientDir }, r.events)), relay: r };
}

let tdb: TestDatabase;
let secondDatabase: Database | null = null;
let A: Instance;
let B: Instance;

beforeAll(async () => {
  const clientDir = mkdtempSync(path.join(tmpdir(), 'lastslot-client-'));
  tdb = await createTestDatabase();
  // On PostgreSQL, B has its own pool and LISTEN connection; PGlite is one connection for both.
  if (tdb.url) secondDatabase = await openDatabase({ url: tdb.url, max: 2 });
  A = await startInstance(tdb.database, clientDir);
  B = await startInstance(secondDatabase ?? tdb.database, clientDir);
});
afterAll(async () => {
  await A?.stop();
  await B?.stop();
  await secondDatabase?.close();
  await tdb?.close();
});

/** The URL the client's link sends for businesses.bySlug alone (a batch of one, superjson). */
function bySlugUrl(slug: string): string {
  return `/trpc/businesses.bySlug?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: superjson.serialize({ slug }) }))}`;
}

type Page = inferRouterOutputs<AppRouter>['businesses']['bySlug'];

/** businesses.bySlug's answer from `instance` over HTTP, or 'not found'. */
async function pageOf(instance: Instance, slug: string): Promise<Page | 'not found'> {
  const res = await instance.app.inject({ method: 'GET', url: bySlugUrl(slug) });
  if (res.statusCode === 404) return 'not found';
  expect(res.statusCode).toBe(200);
  const [entry] = res.json() as [{ result: { data: Parameters<typeof superjson.deserialize>[0] } }];
  return superjson.deserialize<Page>(entry.result.data);
}

/** What `instance` shows at /{slug}: the business name and slot descriptions, or 'not found'. */
async function shown(instance: Instance, slug: string): Promise<{ name: string; slots: string[] } | 'not found'> {
  const page = await pageOf(instance, slug);
  if (page === 'not found') return page;
  return { name: page.business.businessName, slots: page.slots.map((s) => s.description) };
}

/** A business field of the page `instance` shows at /{slug}. */
async function fieldOf<K extends keyof Page['business']>(instance: Instance, slug: string, field: K) {
  const page = await pageOf(instance, slug);
  if (page === 'not found') throw new Error(`no page at /${slug}`);
  return page.business[field];
}

/** Resolves when `instance`'s hub has heard a change of `businessId` on the channel (a NOTIFY). */
function hears(instance: Instance, businessId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error('the NOTIFY never arrived'));
    }, 10_000);
    const stop = instance.deps.hub.observe((change) => {
      if (change.kind !== 'resync' && change.businessId === businessId) {
        clearTimeout(timer);
        stop();
        resolve();
      }
    });
  });
}

/**
 * Runs `write` on A with A's NOTIFYs held back, so what A and B show can be checked before the
 * NOTIFY is sent; `notified()` sends it and waits until B has heard it.
 */
async function writeOnA(businessId: string, write: () => Promise<unknown>) {
  A.relay.hold();
  try {
    await write();
  } catch (err) {
    await A.relay.release();
    throw err;
  }
  return {
    async notified() {
      const heard = hears(B, businessId);
      await A.relay.release();
      await heard;
    },
  };
}

/** Adds slot `times` ('HH:MM-HH:MM') on `date` to the business, written directly (no event). */
function addSlot(businessId: string, date: string, times: string, description: string) {
  const [startTime, endTime] = times.split('-') as [string, string];
  return createSlot(A.deps.db, businessId, { date, startTime, endTime, description });
}

/** A business with one slot ('Sunday noon', tomorrow 12:00), its page cached by both instances. */
async function cachedBusiness(name: string) {
  const { user, profile } = await createBusiness(A.deps.db, { name });
  await addSlot(user.id, '2026-11-22', '12:00-12:30', 'Sunday noon');
  const before = { name, slots: ['Sunday noon'] };
  expect(await shown(A, profile.slug)).toEqual(before);
  expect(await shown(B, profile.slug)).toEqual(before);
  return { owner: user, slug: profile.slug, before };
}

describe('the public page cache across instances', () => {
  it('a profile edit: the writer reads it at once, the other instance after the NOTIFY', async () => {
    const { owner, slug, before } = await cachedBusiness('Old Name');
    const business = await callerFor(A.deps, owner.id);
    const write = await writeOnA(owner.id, () =>
      business.settings.updateBusinessProfile(businessProfileForm(slug, 'New Name')),
    );
    const after = { name: 'New Name', slots: ['Sunday noon'] };
    expect(await shown(A, slug)).toEqual(after);
    expect(await shown(B, slug)).toEqual(before); // B still serves its cached page
    await write.notified();
    expect(await shown(B, slug)).toEqual(after);
  });

  it('a slug change: the old slug is not found and the new one is the page, on both instances', async () => {
    const { owner, slug, before } = await cachedBusiness('Moving Studio');
    const moved = `${slug}-moved`;
    const business = await callerFor(A.deps, owner.id);
    const write = await writeOnA(owner.id, () =>
      business.settings.updateBusinessProfile(businessProfileForm(moved, 'Moving Studio')),
    );
    expect(await shown(A, slug)).toBe('not found');
    expect(await shown(A, moved)).toEqual(before);
    expect(await shown(B, slug)).toEqual(before);
    expect(await shown(B, moved)).toEqual(before); // B now holds the page under both slugs
    await write.notified();
    expect(await shown(B, slug)).toBe('not found');
    expect(await shown(B, moved)).toEqual(before);
  });

  it('new opening hours reach both instances', async () => {
    const { owner, slug } = await cachedBusiness('Hours Studio');
    const hoursOf = (instance: Instance) => fieldOf(instance, slug, 'openingHours');
    const schedule = defaultWeeklySchedule();
    schedule.sunday = { isActive: true, start: '10:00', end: '14:00' };
    const write = await writeOnA(owner.id, () =>
      callerFor(A.deps, owner.id).then((c) => c.settings.updateBusinessHours({ schedule })),
    );
    expect(await hoursOf(A)).toMatchObject({ sunday: { open: '10:00', close: '14:00' } });
    expect(await hoursOf(B)).not.toHaveProperty('sunday.open', '10:00');
    await write.notified();
    expect(await hoursOf(B)).toMatchObject({ sunday: { open: '10:00', close: '14:00' } });
  });

  it("an email change confirmed by link moves the page's contact email", async () => {
    const { owner, slug } = await cachedBusiness('Mail Studio');
    const newEmail = `moved-${owner.id.slice(0, 8)}@example.test`;
    const token = await issueOneTimeToken(A.deps.db, {
      userId: owner.id,
      purpose: 'email_change',
      newEmail,
      now: clock.now(),
    });
    const write = await writeOnA(owner.id, () => callerFor(A.deps, null).then((c) => c.auth.confirmEmail({ token })));
    expect(await fieldOf(A, slug, 'emailAddress')).toBe(newEmail);
    expect(await fieldOf(B, slug, 'emailAddress')).toBe(owner.email);
    await write.notified();
    expect(await fieldOf(B, slug, 'emailAddress')).toBe(newEmail);
  });

  it('slots added, edited and deleted', async () => {
    const { owner, slug, before } = await cachedBusiness('Slot Studio');
    const business = await callerFor(A.deps, owner.id);
    let slotId = '';
    let write = await writeOnA(owner.id, async () => {
      ({ id: slotId } = await business.slots.create({
        date: '2026-11-22',
        startTime: '15:00',
        endTime: '15:30',
        description: 'Added',
      }));
    });
    expect(await shown(A, slug)).toEqual({ ...before, slots: ['Sunday noon', 'Added'] });
    expect(await shown(B, slug)).toEqual(before);
    await write.notified();
    expect(await shown(B, slug)).toEqual({ ...before, slots: ['Sunday noon', 'Added'] });

    write = await writeOnA(owner.id, () =>
      business.slots.update({
        slotId,
        date: '2026-11-22',
        startTime: '11:00',
        endTime: '11:30',
        description: 'Edited',
      }),
    );
    expect(await shown(A, slug)).toEqual({ ...before, slots: ['Edited', 'Sunday noon'] });
    await write.notified();
    expect(await shown(B, slug)).toEqual({ ...before, slots: ['Edited', 'Sunday noon'] });

    write = await writeOnA(owner.id, () => business.slots.delete({ slotId }));
    expect(await shown(A, slug)).toEqual(before);
    expect(await shown(B, slug)).toEqual({ ...before, slots: ['Edited', 'Sunday noon'] });
    await write.notified();
    expect(await shown(B, slug)).toEqual(before);
  });

  it('a booking request hides the slot; a rejection offers it again; a decline hides it for good', async () => {
    const { owner, slug, before } = await cachedBusiness('Booking Studio');
    const [slot] = await A.deps.db.select().from(slots).where(eq(slots.businessId, owner.id));
    const customer = await callerFor(A.deps, (await createUser(A.deps.db, { role: 'customer' })).id);
    const business = await callerFor(A.deps, owner.id);
    const none = { ...before, slots: [] };

    let bookingId = '';
    let write = await writeOnA(owner.id, async () => {
      ({ id: bookingId } = await customer.bookings.request({ slotId: slot!.id }));
    });
    expect(await shown(A, slug)).toEqual(none);
    expect(await shown(B, slug)).toEqual(before);
    await write.notified();
    expect(await shown(B, slug)).toEqual(none);

    write = await writeOnA(owner.id, () => business.bookings.reject({ bookingId }));
    expect(await shown(A, slug)).toEqual(before);
    await write.notified();
    expect(await shown(B, slug)).toEqual(before);

    write = await writeOnA(owner.id, async () => {
      ({ id: bookingId } = await customer.bookings.request({ slotId: slot!.id }));
    });
    await write.notified();
    write = await writeOnA(owner.id, () => business.bookings.decline({ bookingId }));
    expect(await shown(A, slug)).toEqual(none);
    await write.notified();
    expect(await shown(B, slug)).toEqual(none);
  });

  it("a business account's deletion ends its page on both instances", async () => {
    const { owner, slug, before } = await cachedBusiness('Closing Studio');
    const business = await callerFor(A.deps, owner.id);
    const write = await writeOnA(owner.id, () =>
      business.account.delete({ confirmation: 'DELETE', currentPassword: TEST_PASSWORD }),
    );
    expect(await shown(A, slug)).toBe('not found');
    expect(await shown(B, slug)).toEqual(before);
    await write.notified();
    expect(await shown(B, slug)).toBe('not found');
  });

  it('a cached slot disappears once it has started, with no change to hear', async () => {
    const { owner, slug } = await createBusiness(A.deps.db, { name: 'Clock Studio' }).then((b) => ({
      owner: b.user,
      slug: b.profile.slug,
    }));
    await addSlot(owner.id, '2026-11-21', '10:30-11:00', 'Soon');
    await addSlot(owner.id, '2026-11-21', '12:00-12:30', 'Later');
    const start = clock.now();
    try {
      expect(await shown(A, slug)).toEqual({ name: 'Clock Studio', slots: ['Soon', 'Later'] });
      expect(await shown(B, slug)).toEqual({ name: 'Clock Studio', slots: ['Soon', 'Later'] });
      clock.set(new Date('2026-11-21T10:30:00Z')); // 'Soon' starts now
      expect(await shown(A, slug)).toEqual({ name: 'Clock Studio', slots: ['Later'] });
      expect(await shown(B, slug)).toEqual({ name: 'Clock Studio', slots: ['Later'] });
    } finally {
      clock.set(start);
    }
  });

  it('a LISTEN reconnection clears the cache (changes may have been missed)', async () => {
    const { owner, slug, before } = await cachedBusiness('Quiet Studio');
    // A change no event tells of, as if its NOTIFY was lost while LISTEN was down.
    await A.deps.db
      .update(businessProfiles)
      .set({ businessName: 'Loud Studio' })
      .where(eq(businessProfiles.id, owner.id));
    expect(await shown(B, slug)).toEqual(before);
    B.relay.relisten();
    expect(await shown(B, slug)).toEqual({ ...before, name: 'Loud Studio' });
  });

  it('a read that overlapped a change of its business is answered but not kept; a change of another does not stop it', async () => {
    const racing = await createBusiness(A.deps.db, { name: 'Racing Studio' });
    const calm = await createBusiness(A.deps.db, { name: 'Calm Studio' });
    // Each read has begun when the change is heard (the hub tells this process's caches synchronously).
    const changed = { kind: 'business', change: 'updated', businessId: racing.user.id } as const;
    const readingRacing = A.deps.publicPages.get(racing.profile.slug, clock.now());
    const toldFirst = A.deps.hub.publish(changed);
    const readingCalm = A.deps.publicPages.get(calm.profile.slug, clock.now());
    await Promise.all([toldFirst, A.deps.hub.publish(changed)]);
    expect(await readingRacing).toMatchObject({ business: { id: racing.user.id } });
    expect(await readingCalm).toMatchObject({ business: { id: calm.user.id } });
    // Renamed without an event: a kept page still shows the old name, a page not kept the new one.
    for (const { user } of [racing, calm]) {
      await A.deps.db.update(businessProfiles).set({ businessName: 'Renamed' }).where(eq(businessProfiles.id, user.id));
    }
    expect(await shown(A, racing.profile.slug)).toMatchObject({ name: 'Renamed' });
    expect(await shown(A, calm.profile.slug)).toMatchObject({ name: 'Calm Studio' });
  });
});

describe('businesses.bySlug over HTTP', () => {
  it('answers a visitor from the cache with the body tRPC sends a signed-in customer, never stored by a browser', async () => {
    const { slug } = await cachedBusiness('Same Studio');
    const customer = await createUser(A.deps.db, { role: 'customer' });
    const { token } = await createSession(A.deps.db, customer.id, clock.now());
    const visitor = await A.app.inject({ method: 'GET', url: bySlugUrl(slug) });
    const signedIn = await A.app.inject({ method: 'GET', url: bySlugUrl(slug), cookies: { lastslot_session: token } });
    expect(signedIn.headers['set-cookie']).toBeUndefined();
    expect(visitor.statusCode).toBe(200);
    expect(visitor.body).toBe(signedIn.body);
    expect(visitor.headers['cache-control']).toBe('no-store');
    expect(visitor.headers.etag).toBeUndefined();
  });

  it('keeps no-store for everything else: errors, batches with other calls, answers that set a cookie', async () => {
    const { slug } = await cachedBusiness('Store Studio');
    const unknown = await A.app.inject({ method: 'GET', url: bySlugUrl('no-such-business') });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['cache-control']).toBe('no-store');
    expect(unknown.headers.etag).toBeUndefined();

    const input = encodeURIComponent(
      JSON.stringify({ 0: superjson.serialize(undefined), 1: superjson.serialize({ slug }) }),
    );
    const batch = await A.app.inject({ method: 'GET', url: `/trpc/auth.me,businesses.bySlug?batch=1&input=${input}` });
    expect(batch.statusCode).toBe(200);
    expect(batch.headers['cache-control']).toBe('no-store');
    expect(batch.headers.etag).toBeUndefined();

    // An unknown session cookie is cleared in the answer: that answer is this browser's own.
    const cleared = await A.app.inject({ method: 'GET', url: bySlugUrl(slug), cookies: { lastslot_session: 'gone' } });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.headers['set-cookie']).toBeDefined();
    expect(cleared.headers['cache-control']).toBe('no-store');
    expect(cleared.headers.etag).toBeUndefined();
  });
});
