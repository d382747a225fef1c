/**
 * A business changes its time zone (docs/decisions/0078): a confirmed appointment and a pending
 * request keep their instants, rewritten in the new zone's local times, in the business's feed,
 * the customer's calendar file and both dashboards; the customer is emailed the updated calendar
 * file (same UID, higher SEQUENCE); a queued reminder keeps its send time; an open slot keeps its
 * local times. Times a new zone cannot write, and slots in the way, refuse the change whole.
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages';
import { zonedInstant } from '../../shared/zoned-time';
import { buildServer } from '../../server/app';
import { bookings, businessProfiles, emailOutbox, slots } from '../../server/db/schema/index';
import { bookingRow, businessProfileForm, callerFor, createBusiness, createSlot, createUser } from '../factories/index';
import { errorOf, outwardOf, rendered } from '../setup/helpers';
import { parseEvents } from '../setup/ical';
import { silentLogger, useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-24T12:00:00Z'));
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildServer({ deps: t.deps, logger: silentLogger, clientDir: '/nonexistent' });
});
afterAll(async () => app.close());

const LONDON = 'Europe/London';
const NEW_YORK = 'America/New_York';

/** A London business 'Snip Studio' with a customer, their callers and a feed URL path. */
async function londonBusiness() {
  const { user: owner, profile } = await createBusiness(t.deps.db, { name: 'Snip Studio', timezone: LONDON });
  const customer = await createUser(t.deps.db, { role: 'customer', name: 'Cara Customer' });
  const business = await callerFor(t.deps, owner.id);
  const feed = new URL((await business.settings.regenerateCalendarFeed()).url).pathname;
  return { owner, profile, customer, business, client: await callerFor(t.deps, customer.id), feed };
}

/** Customer `customerId` requests a new slot of `ownerId`; with `confirm`, the business confirms it. */
async function booking(
  ownerId: string,
  customerId: string,
  times: { date: string; startTime: string; endTime: string; description?: string },
  confirm = true,
) {
  const slot = await createSlot(t.deps.db, ownerId, times);
  const { id } = await (await callerFor(t.deps, customerId)).bookings.request({ slotId: slot.id });
  if (confirm) await (await callerFor(t.deps, ownerId)).bookings.confirm({ bookingId: id });
  return { id, slotId: slot.id };
}

/** The Business Information form as it is, with zone `timezone`. */
function moveTo(profile: { slug: string; businessName: string }, timezone: string) {
  return { ...businessProfileForm(profile.slug, profile.businessName), timezone };
}

async function feedEvents(path: string) {
  const res = await app.inject({ method: 'GET', url: path });
  expect(res.statusCode).toBe(200);
  return parseEvents(res.body);
}

/** The outbox rows of `kind` about booking `bookingId`. */
function outboxRows(bookingId: string, kind: string) {
  return t.deps.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.bookingId, bookingId), eq(emailOutbox.kind, kind)));
}

const instantOf = (r: { date: string | null; startTime: string | null }, tz: string) =>
  zonedInstant(r.date!, r.startTime!, tz).toISOString();

describe('London to New York', () => {
  it('a confirmed 09:00 keeps its instant everywhere; the customer gets the updated calendar file', async () => {
    t.clock.set(new Date('2026-11-24T12:00:00Z'));
    const { owner, profile, customer, business, client, feed } = await londonBusiness();
    // 09:00 GMT on Friday 27 November is 09:00 UTC, 04:00 in New York (EST).
    const confirmed = await booking(owner.id, customer.id, {
      date: '2026-11-27',
      startTime: '09:00',
      endTime: '09:30',
      description: 'Cut',
    });
    const [before] = await feedEvents(feed);
    expect(before).toMatchObject({ tzid: LONDON, localStart: '2026-11-27T09:00:00', sequence: 0 });
    const [confirmation] = await outboxRows(confirmed.id, 'booking_confirmed');
    const [reminderBefore] = await outboxRows(confirmed.id, 'booking_reminder');
    expect(reminderBefore!.sendAfter.toISOString()).toBe('2026-11-27T07:00:00.000Z');

    t.clock.set(new Date('2026-11-24T12:05:00Z'));
    await business.settings.updateBusinessProfile(moveTo(profile, NEW_YORK));

    const expected = { utcStart: '2026-11-27T09:00:00.000Z', utcEnd: '2026-11-27T09:30:00.000Z' };
    // The business's feed: same UID and instant, written in New York time, SEQUENCE raised.
    const [after] = await feedEvents(feed);
    expect(after).toMatchObject({
      ...expected,
      uid: before!.uid,
      tzid: NEW_YORK,
      localStart: '2026-11-27T04:00:00',
      sequence: 1,
      stamp: '2026-11-24T12:05:00.000Z',
    });
    // The customer's 'Add to calendar' file says the same.
    const download = parseEvents((await client.bookings.calendarFile({ bookingId: confirmed.id })).content);
    expect(download).toEqual([expect.objectContaining({ ...expected, uid: before!.uid, tzid: NEW_YORK, sequence: 1 })]);
    // Both dashboards: the local times they list read as the same instant in the business's zone.
    const settings = await business.settings.business();
    expect(settings.timezone).toBe(NEW_YORK);
    const slot = (await business.slots.listMine()).find((s) => s.id === confirmed.slotId)!;
    expect(slot).toMatchObject({ date: '2026-11-27', startTime: '04:00', endTime: '04:30', category: 'booked' });
    expect(instantOf(slot, settings.timezone)).toBe(expected.utcStart);
    const [mine] = await client.bookings.mine();
    expect(mine).toMatchObject({ id: confirmed.id, startTime: '04:00', timezone: NEW_YORK, bucket: 'confirmed' });
    expect(instantOf(mine!, mine!.timezone)).toBe(expected.utcStart);

    // The email: updated calendar file (same UID, higher SEQUENCE than the confirmation's), both zones named.
    const [update] = await outboxRows(confirmed.id, 'booking_updated');
    expect(update).toMatchObject({
      toAddress: customer.email,
      subject: 'Same time, new time zone: Snip Studio',
      dedupeKey: `booking_updated:${confirmed.id}:1`,
    });
    const [sent] = parseEvents(update!.attachments![0]!.content);
    const [first] = parseEvents(confirmation!.attachments![0]!.content);
    expect(sent).toMatchObject({ ...expected, uid: first!.uid, tzid: NEW_YORK, localStart: '2026-11-27T04:00:00' });
    expect(sent!.sequence).toBeGreaterThan(first!.sequence);
    const { text } = await rendered(update!);
    expect(text).toContain('Snip Studio now shows its times in the America/New_York time zone.');
    expect(text).toContain('When: Friday, 27th November 2026, 4:00 am - 4:30 am (America/New_York)');
    expect(text).toContain('Before: Friday, 27th November 2026, 9:00 am - 9:30 am (Europe/London)');

    // The reminder still goes at 07:00 UTC, and says the new local time.
    const [reminder] = await outboxRows(confirmed.id, 'booking_reminder');
    expect(reminder).toMatchObject({ id: reminderBefore!.id, status: 'pending', sendAfter: reminderBefore!.sendAfter });
    expect((await rendered(reminder!)).text).toContain('4:00 am - 4:30 am (America/New_York)');
  });

  it('a pending request keeps its instant too (told, without a calendar file); an open slot keeps its local time', async () => {
    t.clock.set(new Date('2026-11-24T12:00:00Z'));
    const { owner, profile, customer, business, client } = await londonBusiness();
    // 09:00 London moves to 04:00 New York before 14:00 London can take 09:00 New York.
    const confirmed = await booking(owner.id, customer.id, {
      date: '2026-11-27',
      startTime: '09:00',
      endTime: '09:30',
    });
    const other = await createUser(t.deps.db, { role: 'customer', name: 'Olly Other' });
    const pending = await booking(
      owner.id,
      other.id,
      { date: '2026-11-27', startTime: '14:00', endTime: '15:00' },
      false,
    );
    const open = await createSlot(t.deps.db, owner.id, { date: '2026-11-27', startTime: '11:00', endTime: '11:30' });

    await business.settings.updateBusinessProfile(moveTo(profile, NEW_YORK));

    const listed = new Map((await business.slots.listMine()).map((s) => [s.id, s]));
    expect(listed.get(confirmed.slotId)).toMatchObject({ startTime: '04:00', category: 'booked' });
    expect(listed.get(pending.slotId)).toMatchObject({ startTime: '09:00', endTime: '10:00', category: 'requested' });
    expect(instantOf(listed.get(pending.slotId)!, NEW_YORK)).toBe('2026-11-27T14:00:00.000Z');
    // Nobody relies on the open slot: 11:00 stays 11:00, now New York time.
    expect(listed.get(open.id)).toMatchObject({ date: '2026-11-27', startTime: '11:00', category: 'available' });

    const [request] = await outboxRows(pending.id, 'booking_updated');
    expect(request).toMatchObject({ toAddress: other.email, attachments: null });
    const { text } = await rendered(request!);
    expect(text).toContain('Your request has not moved');
    expect(text).toContain('When: Friday, 27th November 2026, 9:00 am - 10:00 am (America/New_York)');
    const [pendingRow] = await (await callerFor(t.deps, other.id)).bookings.mine();
    expect(pendingRow).toMatchObject({ bucket: 'pending', startTime: '09:00', timezone: NEW_YORK });
    // Confirming it later sends its calendar file at the same instant.
    await business.bookings.confirm({ bookingId: pending.id });
    const [confirmation] = await outboxRows(pending.id, 'booking_confirmed');
    expect(parseEvents(confirmation!.attachments![0]!.content)).toEqual([
      expect.objectContaining({ utcStart: '2026-11-27T14:00:00.000Z', tzid: NEW_YORK }),
    ]);
    expect((await client.bookings.mine())[0]).toMatchObject({ id: confirmed.id, startTime: '04:00' });
  });

  it('a second change issues the event again, higher still; a cancellation outranks every version', async () => {
    t.clock.set(new Date('2026-11-24T12:00:00Z'));
    const { owner, profile, customer, business, feed } = await londonBusiness();
    const { id } = await booking(owner.id, customer.id, { date: '2026-11-27', startTime: '09:00', endTime: '09:30' });
    await business.settings.updateBusinessProfile(moveTo(profile, NEW_YORK));
    await business.settings.updateBusinessProfile(moveTo(profile, LONDON));

    const [back] = await feedEvents(feed);
    expect(back).toMatchObject({ tzid: LONDON, localStart: '2026-11-27T09:00:00', sequence: 2 });
    const updates = await outboxRows(id, 'booking_updated');
    expect(updates.map((u) => parseEvents(u.attachments![0]!.content)[0]!.sequence).sort()).toEqual([1, 2]);

    await t.deps.db.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, id));
    expect((await feedEvents(feed))[0]).toMatchObject({ status: 'CANCELLED', sequence: 3 });
  });

  it('a zone that writes the same local times changes no slot and sends nothing', async () => {
    t.clock.set(new Date('2026-11-24T12:00:00Z'));
    const { owner, profile, customer, business, feed } = await londonBusiness();
    const { id } = await booking(owner.id, customer.id, { date: '2026-11-27', startTime: '09:00', endTime: '09:30' });
    await business.settings.updateBusinessProfile(moveTo(profile, 'Europe/Lisbon'));
    expect(await outboxRows(id, 'booking_updated')).toEqual([]);
    expect((await bookingRow(t.deps.db, id)).calendarRevision).toBe(0);
    expect((await feedEvents(feed))[0]).toMatchObject({ tzid: 'Europe/Lisbon', localStart: '2026-11-27T09:00:00' });
  });
});

describe('around clock changes', () => {
  it("each instant keeps its own day's offset: 4 hours behind London before New York's change, 5 after", async () => {
    // Tuesday 27 October 2026: London is on GMT since Sunday, New York on EDT until 1 November.
    t.clock.set(new Date('2026-10-27T12:00:00Z'));
    const { owner, profile, customer, business, feed } = await londonBusiness();
    await booking(owner.id, customer.id, { date: '2026-10-30', startTime: '09:00', endTime: '09:30' });
    await booking(owner.id, customer.id, { date: '2026-11-02', startTime: '09:00', endTime: '09:30' });
    await business.settings.updateBusinessProfile(moveTo(profile, NEW_YORK));
    expect((await feedEvents(feed)).map((e) => [e.localStart, e.utcStart, e.tzid])).toEqual([
      ['2026-10-30T05:00:00', '2026-10-30T09:00:00.000Z', NEW_YORK],
      ['2026-11-02T04:00:00', '2026-11-02T09:00:00.000Z', NEW_YORK],
    ]);
  });

  it.each([
    {
      case: "New York's repeated hour (06:30 UTC on 1 November is the second 01:30)",
      now: '2026-10-27T12:00:00Z',
      slot: { date: '2026-11-01', startTime: '06:30', endTime: '07:00' },
      to: NEW_YORK,
      message: MSG.timezoneCannotKeepBooking('Sunday, 1st November 2026, 6:30 am - 7:00 am', NEW_YORK),
    },
    {
      case: 'midnight in Tokyo (14:30-15:30 London is 23:30-00:30)',
      now: '2026-11-24T12:00:00Z',
      slot: { date: '2026-11-27', startTime: '14:30', endTime: '15:30' },
      to: 'Asia/Tokyo',
      message: MSG.timezoneCannotKeepBooking('Friday, 27th November 2026, 2:30 pm - 3:30 pm', 'Asia/Tokyo'),
    },
  ])('refuses a zone that cannot write a booking at its instant: $case; nothing changes', async (c) => {
    t.clock.set(new Date(c.now));
    const { owner, profile, customer, business, feed } = await londonBusiness();
    const { id, slotId } = await booking(owner.id, customer.id, c.slot);
    const err = await errorOf(business.settings.updateBusinessProfile(moveTo(profile, c.to)));
    expect(outwardOf(err)).toEqual({
      code: 'CONFLICT',
      message: c.message,
      title: 'Error updating profile',
      field: 'timezone',
    });
    await expectUnchanged({ businessId: owner.id, bookingId: id, slotId, slot: c.slot, feed });
  });

  it('refuses a change that would put a booking where another slot starts; nothing changes', async () => {
    t.clock.set(new Date('2026-11-24T12:00:00Z'));
    const { owner, profile, customer, business, feed } = await londonBusiness();
    const slot = { date: '2026-11-27', startTime: '09:00', endTime: '09:30' };
    const { id, slotId } = await booking(owner.id, customer.id, slot);
    // An open slot at 04:00 keeps its local time, which is where the booking would go.
    await createSlot(t.deps.db, owner.id, { date: '2026-11-27', startTime: '04:00', endTime: '04:30' });
    const err = await errorOf(business.settings.updateBusinessProfile(moveTo(profile, NEW_YORK)));
    expect(outwardOf(err)).toMatchObject({
      code: 'CONFLICT',
      message: MSG.timezoneSlotInTheWay(
        'Friday, 27th November 2026, 9:00 am - 9:30 am',
        NEW_YORK,
        'Friday, 27th November 2026, 4:00 am - 4:30 am',
      ),
      field: 'timezone',
    });
    await expectUnchanged({ businessId: owner.id, bookingId: id, slotId, slot, feed });
  });
});

/** A refused change left the zone, the slot, the booking's revision, the outbox and the feed alone. */
async function expectUnchanged(p: {
  businessId: string;
  bookingId: string;
  slotId: string;
  slot: { date: string; startTime: string; endTime: string };
  feed: string;
}) {
  const [profile] = await t.deps.db.select().from(businessProfiles).where(eq(businessProfiles.id, p.businessId));
  expect(profile!.timezone).toBe(LONDON);
  const [slot] = await t.deps.db.select().from(slots).where(eq(slots.id, p.slotId));
  expect(slot).toMatchObject(p.slot);
  expect((await bookingRow(t.deps.db, p.bookingId)).calendarRevision).toBe(0);
  expect(await outboxRows(p.bookingId, 'booking_updated')).toEqual([]);
  expect((await feedEvents(p.feed))[0]).toMatchObject({ tzid: LONDON, sequence: 0 });
}
