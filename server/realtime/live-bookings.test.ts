import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { BOOKING_CHANNEL, BookingEventHub, type BookingEvent } from './booking-events';
import { liveBookingEvents, liveEventFor, type LiveEvent } from './live-bookings';
import { SESSION_REVOCATION_CHANNEL, SessionRevocations } from './session-revocations';

const booking: BookingEvent = {
  kind: 'booking',
  change: 'confirmed',
  bookingId: 'b1',
  slotId: 's1',
  businessId: 'biz',
  customerId: 'cus',
};
const slot: BookingEvent = { kind: 'slot', change: 'deleted', slotId: 's2', businessId: 'biz' };
const profile: BookingEvent = { kind: 'business', change: 'updated', businessId: 'biz' };

describe('liveEventFor', () => {
  it('gives the business its booking with the slot, and its slot changes', () => {
    const business = { id: 'biz', role: 'business' } as const;
    expect(liveEventFor(business, booking)).toEqual({
      kind: 'booking',
      change: 'confirmed',
      bookingId: 'b1',
      slotId: 's1',
    });
    expect(liveEventFor(business, slot)).toEqual({ kind: 'slot', change: 'deleted', slotId: 's2' });
  });

  it('gives the customer only what became of its own booking', () => {
    const customer = { id: 'cus', role: 'customer' } as const;
    expect(liveEventFor(customer, booking)).toEqual({ kind: 'booking', change: 'confirmed', bookingId: 'b1' });
    expect(liveEventFor(customer, slot)).toBeNull();
  });

  it('gives anyone else nothing, whatever the role (ids are never matched across roles)', () => {
    for (const viewer of [
      { id: 'other', role: 'business' },
      { id: 'other', role: 'customer' },
      { id: 'cus', role: 'business' },
      { id: 'biz', role: 'customer' },
    ] as const) {
      expect(liveEventFor(viewer, booking)).toBeNull();
      expect(liveEventFor(viewer, slot)).toBeNull();
    }
  });

  it('gives nobody a business profile change, not even the business itself', () => {
    expect(liveEventFor({ id: 'biz', role: 'business' }, profile)).toBeNull();
    expect(liveEventFor({ id: 'cus', role: 'customer' }, profile)).toBeNull();
  });
});

describe('BookingEventHub.observe', () => {
  it('hears a publish before its NOTIFY is sent, again when it comes back, and a resync after a lost LISTEN', async () => {
    const { database, relisten } = fakeDatabase();
    const heard: string[] = [];
    const hub = new BookingEventHub(
      {
        listen: database.listen,
        async notify(channel, payload) {
          heard.push('notify');
          await database.notify(channel, payload);
        },
      },
      pino({ level: 'silent' }),
    );
    await hub.start();
    const stop = hub.observe((change) => heard.push(change.kind));
    await hub.publish(profile);
    relisten(BOOKING_CHANNEL);
    await database.notify(BOOKING_CHANNEL, '{not json');
    expect(heard).toEqual(['business', 'notify', 'business', 'resync']);
    stop();
    await hub.publish(slot);
    expect(heard).toEqual(['business', 'notify', 'business', 'resync', 'notify']);
    await hub.stop();
  });
});

/** An in-memory LISTEN/NOTIFY: `notify` delivers at once; `relisten` plays a LISTEN reconnection. */
function fakeDatabase() {
  const channels = new Map<string, { onPayload: (p: string) => void; onRelisten?: () => void }>();
  const database: Pick<Database, 'listen' | 'notify'> = {
    async listen(channel, onPayload, onRelisten) {
      channels.set(channel, { onPayload, onRelisten });
      return async () => void channels.delete(channel);
    },
    async notify(channel, payload) {
      channels.get(channel)?.onPayload(payload);
    },
  };
  return { database, relisten: (channel: string) => channels.get(channel)?.onRelisten?.() };
}

async function setUp(user: { id: string; role: 'business' | 'customer' }) {
  const { database, relisten } = fakeDatabase();
  const logger = pino({ level: 'silent' });
  const hub = new BookingEventHub(database, logger);
  const revocations = new SessionRevocations(database, logger);
  await hub.start();
  await revocations.start();
  const later = new Date('2026-12-21T10:00:00Z');
  const controller = new AbortController();
  const stream = liveBookingEvents(
    {
      user,
      session: { id: 'session-1', expiresAt: later },
      hub,
      revocations,
      now: () => new Date('2026-11-21T10:00:00Z'),
      readExpiry: async () => later,
    },
    controller.signal,
  );
  const ids: string[] = [];
  /** The next event's data (its tracked id kept in `ids`), or 'ended'. */
  const next = async (): Promise<LiveEvent | 'ended'> => {
    const r = await stream.next();
    if (r.done) return 'ended';
    ids.push(r.value[0]);
    return r.value[1];
  };
  return { database, relisten, hub, next, ids, controller };
}

describe('liveBookingEvents', () => {
  it("starts with a resync, then yields the subscriber's own changes, and a resync after a lost LISTEN", async () => {
    const s = await setUp({ id: 'cus', role: 'customer' });
    expect(await s.next()).toEqual({ kind: 'resync' });
    await s.hub.publish({ ...booking, bookingId: 'not-mine', customerId: 'someone-else' });
    await s.hub.publish(slot);
    await s.database.notify(BOOKING_CHANNEL, '{not json');
    await s.database.notify(BOOKING_CHANNEL, JSON.stringify({ bookingId: 'b1', customerId: 'cus' })); // no kind
    await s.hub.publish(booking);
    expect(await s.next()).toEqual({ kind: 'booking', change: 'confirmed', bookingId: 'b1' });
    s.relisten(BOOKING_CHANNEL);
    expect(await s.next()).toEqual({ kind: 'resync' });
    expect(new Set(s.ids).size).toBe(3); // every event has its own tracked id
    s.controller.abort();
    expect(await s.next()).toBe('ended');
  });

  it('ends when its session is revoked, dropping events already queued', async () => {
    const s = await setUp({ id: 'biz', role: 'business' });
    expect(await s.next()).toEqual({ kind: 'resync' });
    await s.hub.publish(booking); // queued, not yet read
    await s.database.notify(SESSION_REVOCATION_CHANNEL, 'session-1');
    expect(await s.next()).toBe('ended');
  });
});
