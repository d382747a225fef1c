/**
 * Live booking changes across processes (docs/decisions/0002, 0039): a change is published with
 * NOTIFY after its transaction commits; each process holds one LISTEN connection and fans the
 * small event out in-process to its SSE subscribers and to its observers (the public page cache,
 * docs/decisions/0046), which also hear business profile changes.
 */
import { EventEmitter, on } from 'node:events';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Database } from '../db/client';

export const BOOKING_CHANNEL = 'booking_events';

/**
 * What happened to a booking. The booking's status follows from it: requested → pending;
 * confirmed → confirmed; approved → completed; declined → cancelled by the business
 * (declined_by_business); rejected (inline on the slot card) and cancelled (withdrawn by the
 * customer, or closed by the deletion of the customer's account) → cancelled without the flag.
 */
export const BOOKING_CHANGES = ['requested', 'confirmed', 'approved', 'declined', 'rejected', 'cancelled'] as const;
export type BookingChange = (typeof BOOKING_CHANGES)[number];

/**
 * What happened to a slot without a booking changing: added; edited (also: marked added to the
 * system, or a deleted customer's details cleared from it); deleted.
 */
export const SLOT_CHANGES = ['created', 'updated', 'deleted'] as const;
export type SlotChange = (typeof SLOT_CHANGES)[number];

/**
 * What happened to a business's own profile (the public page's fields, its Business URL, hours
 * or time zone): updated; deleted with its account; located (its location or its "Show my slots
 * in Discover" switch changed). Heard by the public page cache
 * (server/features/businesses/public-page-cache.ts) and the Discover stream, not by the bookings stream.
 */
export const BUSINESS_CHANGES = ['updated', 'deleted', 'located'] as const;
export type BusinessChange = (typeof BUSINESS_CHANGES)[number];

const id = z.string().max(100);
const bookingEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('booking'),
    change: z.enum(BOOKING_CHANGES),
    bookingId: id,
    // Null when the slot, business or customer is gone (their bookings outlive them).
    slotId: id.nullable(),
    businessId: id.nullable(),
    customerId: id.nullable(),
  }),
  z.object({
    kind: z.literal('slot'),
    change: z.enum(SLOT_CHANGES),
    slotId: id,
    businessId: id,
    // Where the slot shows in Discover (its business's coordinates), when the publisher knows;
    // null: not in Discover. Lets the Discover stream leave out slots far from a subscriber.
    latitude: z.number().nullish(),
    longitude: z.number().nullish(),
  }),
  z.object({
    kind: z.literal('business'),
    change: z.enum(BUSINESS_CHANGES),
    businessId: id,
    // 'located': where the business now shows in Discover, or null when it no longer does.
    latitude: z.number().nullish(),
    longitude: z.number().nullish(),
  }),
]);

/**
 * One change as published on the channel (a few hundred bytes of JSON): what changed, and the
 * business and customer it belongs to, which decide who hears of it (`liveEventFor`).
 */
export type BookingEvent = z.infer<typeof bookingEvent>;

/** Sent to every subscriber when changes may have been missed: refetch everything. */
export interface Resync {
  kind: 'resync';
}
const RESYNC: Resync = { kind: 'resync' };

/** A listener of `BookingEventHub.observe`. */
export type ChangeObserver = (change: BookingEvent | Resync) => void;

export class BookingEventHub {
  private readonly emitter = new EventEmitter();
  private readonly observers = new Set<ChangeObserver>();
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly database: Pick<Database, 'listen' | 'notify'>,
    private readonly logger: Logger,
  ) {
    this.emitter.setMaxListeners(0);
  }

  /** Starts this process's single LISTEN. */
  async start(): Promise<void> {
    this.unlisten = await this.database.listen(
      BOOKING_CHANNEL,
      (payload) => {
        let event: BookingEvent;
        try {
          event = bookingEvent.parse(JSON.parse(payload));
        } catch (err) {
          this.logger.warn({ err }, 'ignored malformed booking event');
          return;
        }
        this.tellObservers(event);
        this.emitter.emit('event', event);
      },
      () => {
        // The LISTEN connection was lost and is back: tell every subscriber to refetch.
        this.logger.warn('booking events: LISTEN reconnected; asking subscribers to resync');
        this.tellObservers(RESYNC);
        this.emitter.emit('event', RESYNC);
      },
    );
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = null;
    this.emitter.removeAllListeners();
    this.observers.clear();
  }

  /**
   * Publishes `event` to every process. Call after commit. This process's observers hear it at
   * once, before the NOTIFY is sent (so a cache here is invalidated before the writer answers),
   * and again when the NOTIFY comes back. A failure is logged, not thrown: the change itself is
   * already durable and clients refetch on reconnect.
   */
  async publish(event: BookingEvent): Promise<void> {
    this.tellObservers(event);
    try {
      await this.database.notify(BOOKING_CHANNEL, JSON.stringify(event));
    } catch (err) {
      this.logger.error({ err }, 'booking event publish failed');
    }
  }

  /**
   * Calls `observer` synchronously with every change this process publishes (before its NOTIFY is
   * sent), every change heard on the channel from any process (this one's included, a second
   * time) and a 'resync' whenever the LISTEN connection came back (changes may have been missed).
   * For in-process caches; live streams use `subscribe`. Returns a function that stops it.
   */
  observe(observer: ChangeObserver): () => void {
    this.observers.add(observer);
    return () => void this.observers.delete(observer);
  }

  private tellObservers(change: BookingEvent | Resync): void {
    for (const observer of this.observers) {
      try {
        observer(change);
      } catch (err) {
        this.logger.error({ err }, 'booking event observer failed');
      }
    }
  }

  /** How many `subscribe` iterators are attached now (live streams open on this process). */
  subscriberCount(): number {
    return this.emitter.listenerCount('event');
  }

  /**
   * Async iterator of `view(event)` for each change it does not map to null, and of every
   * 'resync', from the moment of the call (the listener is attached before the caller reads any
   * backlog). Ends when `signal` aborts.
   */
  subscribe<T>(view: (event: BookingEvent) => T | null, signal: AbortSignal): AsyncIterable<T | Resync> {
    // `on` attaches its listener now, not on the first read.
    const source = on(this.emitter, 'event', { signal }) as AsyncIterableIterator<[BookingEvent | Resync]>;
    return (async function* () {
      try {
        for await (const [e] of source) {
          if (e.kind === 'resync') yield e;
          else {
            const seen = view(e);
            if (seen !== null) yield seen;
          }
        }
      } catch (err) {
        if ((err as { name?: string }).name !== 'AbortError') throw err;
      }
    })();
  }
}
