/**
 * Data-level guarantees: the database invariants hold even for writes that bypass the services,
 * bookings keep archived copies when their slot goes, the outbox survives a provider outage, and
 * the demo seed runs only on an empty database.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgErrorCode } from '../../server/db/client';
import { bookings, businessProfiles, customerLikes, emailOutbox, slots, users } from '../../server/db/schema/index';
import { dispatchOutboxOnce, MAX_ATTEMPTS } from '../../server/email/dispatcher';
import { enqueueEmail } from '../../server/email/outbox';
import { passwordChangedEmail } from '../../server/email/templates';
import { DEMO, seedDemoIfEmpty } from '../../server/features/demo/seed';
import { searchSlots } from '../../server/features/discovery/discovery.service';
import { discoverySearchInput } from '../../shared/schemas/discovery';
import type { Db } from '../../server/db/client';
import { createBusiness, createSlot, createUser } from '../factories/index';
import { createTestDatabase, silentLogger, type TestDatabase } from '../setup/test-database';
import { deliveringTransport } from '../setup/helpers';

let tdb: TestDatabase;
let db: Db;
beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.database.db;
});
afterAll(async () => {
  await tdb.close();
});

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  return p.then(
    () => 'no error',
    (e: unknown) => pgErrorCode(e),
  );
}

describe('database invariants', () => {
  it('allows one active booking per slot but any number of ended ones', async () => {
    const { user: owner } = await createBusiness(db);
    const a = await createUser(db, { role: 'customer' });
    const b = await createUser(db, { role: 'customer' });
    const slot = await createSlot(db, owner.id, { date: '2026-11-22', startTime: '10:00', endTime: '10:30' });
    await db.insert(bookings).values({ slotId: slot.id, businessId: owner.id, customerId: a.id, status: 'cancelled' });
    await db.insert(bookings).values({ slotId: slot.id, businessId: owner.id, customerId: a.id, status: 'pending' });
    expect(
      await codeOf(
        db.insert(bookings).values({ slotId: slot.id, businessId: owner.id, customerId: b.id, status: 'confirmed' }),
      ),
    ).toBe('23505');
  });

  it('allows one slot per business per date and start, one like per customer and business', async () => {
    const { user: owner } = await createBusiness(db);
    const c = await createUser(db, { role: 'customer' });
    await createSlot(db, owner.id, { date: '2026-11-22', startTime: '11:00', endTime: '11:30' });
    expect(await codeOf(createSlot(db, owner.id, { date: '2026-11-22', startTime: '11:00', endTime: '12:00' }))).toBe(
      '23505',
    );
    expect(await codeOf(createSlot(db, owner.id, { date: '2026-11-22', startTime: '12:00', endTime: '11:30' }))).toBe(
      '23514',
    );
    await db.insert(customerLikes).values({ customerId: c.id, businessId: owner.id });
    expect(await codeOf(db.insert(customerLikes).values({ customerId: c.id, businessId: owner.id }))).toBe('23505');
  });

  it('stores emails lower-cased only', async () => {
    expect(await codeOf(db.insert(users).values({ email: 'Upper@Example.test', name: 'U', passwordHash: 'x' }))).toBe(
      '23514',
    );
  });

  it('keeps archived copies on the booking when its slot and then its business are deleted', async () => {
    const { user: owner, profile } = await createBusiness(db, { name: 'Archive Studio', timezone: 'Pacific/Auckland' });
    const c = await createUser(db, { role: 'customer' });
    const slot = await createSlot(db, owner.id, {
      date: '2026-11-22',
      startTime: '13:00',
      endTime: '14:00',
      description: 'Massage',
    });
    const [booking] = await db
      .insert(bookings)
      .values({ slotId: slot.id, businessId: owner.id, customerId: c.id, status: 'confirmed' })
      .returning();
    await db.delete(slots).where(eq(slots.id, slot.id));
    const [afterSlot] = await db.select().from(bookings).where(eq(bookings.id, booking!.id));
    expect(afterSlot).toMatchObject({
      slotId: null,
      archivedSlotDescription: 'Massage',
      archivedSlotDate: '2026-11-22',
      archivedSlotStartTime: '13:00',
      archivedSlotEndTime: '14:00',
      archivedBusinessName: 'Archive Studio',
      archivedBusinessAddress: profile.address,
      archivedBusinessTimezone: 'Pacific/Auckland',
    });
    await db.delete(businessProfiles).where(eq(businessProfiles.id, owner.id));
    const [afterBusiness] = await db.select().from(bookings).where(eq(bookings.id, booking!.id));
    expect(afterBusiness).toMatchObject({
      businessId: null,
      archivedBusinessName: 'Archive Studio',
      archivedBusinessTimezone: 'Pacific/Auckland',
      status: 'confirmed',
    });
  });
});

describe('email outbox', () => {
  it('retries a failed delivery later and loses nothing; marks failed after the last attempt', async () => {
    await db.delete(emailOutbox);
    const t0 = new Date('2026-11-21T10:00:00Z');
    await enqueueEmail(db, passwordChangedEmail('a@example.test', 'Ann', 'http://x/forgot-password'), t0);
    let up = false;
    const sent: string[] = [];
    const flaky = deliveringTransport('flaky', async (m) => {
      if (!up) throw new Error('provider down');
      sent.push(m.to);
      return 'id-1';
    });
    const run = (now: Date) => dispatchOutboxOnce({ db, transport: flaky, from: 'x@y.z', logger: silentLogger, now });
    expect(await run(t0)).toBe(0);
    let [row] = await db.select().from(emailOutbox);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: 'provider down' });
    expect(await run(t0)).toBe(0); // not due yet: nothing claimed
    expect((await db.select().from(emailOutbox))[0]?.attempts).toBe(1);
    up = true;
    expect(await run(new Date(t0.getTime() + 60 * 60_000))).toBe(1);
    [row] = await db.select().from(emailOutbox);
    expect(row).toMatchObject({ status: 'sent', providerMessageId: 'id-1', attempts: 2 });
    expect(sent).toEqual(['a@example.test']);

    up = false;
    await db.delete(emailOutbox);
    await enqueueEmail(db, passwordChangedEmail('b@example.test', 'Bob', 'http://x/forgot-password'), t0);
    // Each retry is due after the previous backoff; step a day ahead per round.
    for (let i = 1; i <= MAX_ATTEMPTS; i++) await run(new Date(t0.getTime() + i * 24 * 3600_000));
    [row] = await db.select().from(emailOutbox);
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
  });
});

describe('demo seed', () => {
  it('seeds nothing when users exist', async () => {
    expect(await seedDemoIfEmpty(db)).toBe(false);
  });

  it('creates the demo business with upcoming slots and the demo customer on an empty database', async () => {
    const fresh = await createTestDatabase();
    try {
      const now = new Date('2026-11-21T12:00:00Z');
      expect(await seedDemoIfEmpty(fresh.database.db, now)).toBe(true);
      const accounts = await fresh.database.db
        .select({ email: users.email, verified: users.emailVerifiedAt })
        .from(users);
      expect(accounts.map((a) => a.email)).toEqual(expect.arrayContaining([DEMO.businessEmail, DEMO.customerEmail]));
      // The demo salon, the demo customer and a dozen Discover businesses around Manchester.
      expect(accounts).toHaveLength(14);
      expect(accounts.every((a) => a.verified !== null)).toBe(true);
      const demoSlots = await fresh.database.db.select().from(slots);
      expect(demoSlots.length).toBeGreaterThan(4);
      expect(demoSlots.every((s) => `${s.date} ${s.startTime}` > '2026-11-21 12:00')).toBe(true);
      // Discover shows the dozen Manchester businesses' slots for the rest of the day.
      const manchester = discoverySearchInput.parse({ window: 'today', place: 'Manchester', miles: 10, limit: 50 });
      const { results } = await searchSlots({ db: fresh.database.db, now: () => now }, manchester);
      expect(new Set(results.map((r) => r.slug)).size).toBe(12);
      expect(await seedDemoIfEmpty(fresh.database.db, now)).toBe(false);
    } finally {
      await fresh.close();
    }
    // A database of its own is created and migrated, then a dozen businesses more are seeded.
  }, 60_000);
});
