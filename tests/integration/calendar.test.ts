/**
 * Calendars (docs/decisions/0052), parsed back with ical.js: the confirmation's .ics attachment,
 * the customer's 'Add to calendar' file and the business's feed give the slot's local time in
 * Europe/London on both sides of the late-March and late-October clock changes, and DTSTAMP and
 * LAST-MODIFIED in UTC whatever the business's zone; the feed shows only its own business, with
 * stable UIDs, SEQUENCE and cancelled bookings, and answers 404 without the right token or after
 * regeneration.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../server/app';
import { bookings, emailOutbox } from '../../server/db/schema/index';
import { bookingRow, callerFor, createBusiness, createSlot, createUser } from '../factories/index';
import { errorOf } from '../setup/helpers';
import { parseEvents } from '../setup/ical';
import { silentLogger, useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-10-23T09:00:00Z'));
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildServer({ deps: t.deps, logger: silentLogger, clientDir: '/nonexistent' });
});
afterAll(async () => app.close());

/** A confirmed booking of `customer` at `owner` on local `date` 10:00-10:30. */
async function confirmedBooking(ownerId: string, customerId: string, date: string) {
  const slot = await createSlot(t.deps.db, ownerId, { date, startTime: '10:00', endTime: '10:30', description: 'Cut' });
  const { id } = await (await callerFor(t.deps, customerId)).bookings.request({ slotId: slot.id });
  await (await callerFor(t.deps, ownerId)).bookings.confirm({ bookingId: id });
  return id;
}

async function attachmentOf(bookingId: string) {
  const [row] = await t.deps.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.dedupeKey, `booking_confirmed:${bookingId}`));
  return row!.attachments![0]!.content;
}

describe('local times across a clock change (Europe/London)', () => {
  it.each([
    // Late October 2026: BST (UTC+1) on Saturday 24th, GMT from Sunday 25th.
    {
      now: '2026-10-23T09:00:00Z',
      before: ['2026-10-24', '2026-10-24T09:00:00.000Z'],
      after: ['2026-10-26', '2026-10-26T10:00:00.000Z'],
    },
    // Late March 2027: GMT on Saturday 27th, BST from Sunday 28th.
    {
      now: '2027-03-26T09:00:00Z',
      before: ['2027-03-27', '2027-03-27T10:00:00.000Z'],
      after: ['2027-03-29', '2027-03-29T09:00:00.000Z'],
    },
  ])('attachment, download and feed all say 10:00 local ($before.0 and $after.0)', async ({ now, before, after }) => {
    t.clock.set(new Date(now));
    const { user: owner } = await createBusiness(t.deps.db, { name: 'Snip Studio' });
    const customer = await createUser(t.deps.db, { role: 'customer', name: 'Cara Customer' });
    const ids = [
      await confirmedBooking(owner.id, customer.id, before[0]!),
      await confirmedBooking(owner.id, customer.id, after[0]!),
    ];
    const expected = [before, after].map(([date, utc], i) => ({
      uid: `booking-${ids[i]}@lastslot`,
      tzid: 'Europe/London',
      localStart: `${date}T10:00:00`,
      utcStart: utc,
    }));

    for (const [i, id] of ids.entries()) {
      const [fromEmail] = parseEvents(await attachmentOf(id));
      expect(fromEmail).toMatchObject({
        ...expected[i],
        sequence: 0,
        status: 'CONFIRMED',
        alarm: '-PT1H',
        summary: 'Cut at Snip Studio',
      });
      const file = await (await callerFor(t.deps, customer.id)).bookings.calendarFile({ bookingId: id });
      expect(parseEvents(file.content)).toEqual([fromEmail]);
    }

    const { url } = await (await callerFor(t.deps, owner.id)).settings.regenerateCalendarFeed();
    const res = await app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.body).toContain('BEGIN:VTIMEZONE');
    const feed = parseEvents(res.body);
    expect(feed).toEqual(
      expected.map((e) =>
        expect.objectContaining({ ...e, sequence: 0, status: 'CONFIRMED', summary: 'Cut: Cara Customer' }),
      ),
    );
  });
});

describe('DTSTAMP and LAST-MODIFIED', () => {
  it('are the UTC instant of the last change in every file, for a business west of UTC', async () => {
    // 20:07:19 UTC is 15:07:19 in New York: the stamps must say the former, with its Z.
    t.clock.set(new Date('2026-11-25T20:07:19Z'));
    const { user: owner } = await createBusiness(t.deps.db, { timezone: 'America/New_York' });
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const id = await confirmedBooking(owner.id, customer.id, '2026-11-27');
    const { url } = await (await callerFor(t.deps, owner.id)).settings.regenerateCalendarFeed();
    const files = {
      attachment: await attachmentOf(id),
      download: (await (await callerFor(t.deps, customer.id)).bookings.calendarFile({ bookingId: id })).content,
      feed: (await app.inject({ method: 'GET', url: new URL(url).pathname })).body,
    };
    const { updatedAt } = await bookingRow(t.deps.db, id);
    expect(updatedAt.toISOString()).toBe('2026-11-25T20:07:19.000Z');
    for (const [file, ics] of Object.entries(files)) {
      expect(ics, file).toContain('DTSTAMP:20261125T200719Z');
      expect(ics, file).toContain('LAST-MODIFIED:20261125T200719Z');
      expect(parseEvents(ics), file).toEqual([
        expect.objectContaining({
          stamp: updatedAt.toISOString(),
          lastModified: updatedAt.toISOString(),
          tzid: 'America/New_York',
          localStart: '2026-11-27T10:00:00',
          utcStart: '2026-11-27T15:00:00.000Z',
        }),
      ]);
    }
  });
});

describe('the business feed', () => {
  it('shows only its own business, marks a cancelled booking, and needs the current token', async () => {
    t.clock.set(new Date('2026-10-23T09:00:00Z'));
    const { user: owner } = await createBusiness(t.deps.db, { name: 'Mine' });
    const { user: rival } = await createBusiness(t.deps.db, { name: 'Rival' });
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const kept = await confirmedBooking(owner.id, customer.id, '2026-10-24');
    const cancelled = await confirmedBooking(owner.id, customer.id, '2026-10-26');
    const rivals = await confirmedBooking(rival.id, customer.id, '2026-10-24');
    await t.deps.db.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, cancelled));
    await (await callerFor(t.deps, rival.id)).settings.regenerateCalendarFeed();

    const business = await callerFor(t.deps, owner.id);
    expect(await business.settings.calendarFeed()).toEqual({ active: false, createdAt: null });
    const first = new URL((await business.settings.regenerateCalendarFeed()).url).pathname;
    expect(await business.settings.calendarFeed()).toMatchObject({ active: true });
    const events = parseEvents((await app.inject({ method: 'GET', url: first })).body);
    expect(events.map((e) => [e.uid, e.status, e.sequence])).toEqual([
      [`booking-${kept}@lastslot`, 'CONFIRMED', 0],
      [`booking-${cancelled}@lastslot`, 'CANCELLED', 1],
    ]);
    expect(JSON.stringify(events)).not.toContain(rivals);

    // Any other token, a malformed one, and the old URL after regeneration: 404.
    for (const path of [
      '/calendar/abcdefghijklmnopqrstuvwxyz234567.ics',
      '/calendar/nope.ics',
      first.replace('.ics', ''),
    ]) {
      expect((await app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    }
    const second = new URL((await business.settings.regenerateCalendarFeed()).url).pathname;
    expect(second).not.toBe(first);
    expect((await app.inject({ method: 'GET', url: first })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: second })).statusCode).toBe(200);
  });

  it('is a business setting: customers are refused', async () => {
    const customer = await createUser(t.deps.db, { role: 'customer' });
    expect((await errorOf((await callerFor(t.deps, customer.id)).settings.regenerateCalendarFeed())).code).toBe(
      'FORBIDDEN',
    );
  });
});

describe("'Add to calendar'", () => {
  it("is refused for someone else's booking and for a booking not confirmed", async () => {
    t.clock.set(new Date('2026-10-23T09:00:00Z'));
    const { user: owner } = await createBusiness(t.deps.db);
    const customer = await createUser(t.deps.db, { role: 'customer' });
    const id = await confirmedBooking(owner.id, customer.id, '2026-10-24');
    const stranger = await callerFor(t.deps, (await createUser(t.deps.db, { role: 'customer' })).id);
    expect((await errorOf(stranger.bookings.calendarFile({ bookingId: id }))).code).toBe('NOT_FOUND');
    const slot = await createSlot(t.deps.db, owner.id, { date: '2026-10-24', startTime: '15:00', endTime: '15:30' });
    const client = await callerFor(t.deps, customer.id);
    const { id: pending } = await client.bookings.request({ slotId: slot.id });
    expect((await errorOf(client.bookings.calendarFile({ bookingId: pending }))).code).toBe('NOT_FOUND');
  });
});
