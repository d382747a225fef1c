/**
 * Live changes across processes (docs/decisions/0002, 0039): NOTIFY after commit; each process holds
 * one LISTEN connection and fans events out to its SSE subscribers and observers (docs/decisions/0046).
 */
import { EventEmitter, on } from 'node:events';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Database } from '../db/client';

export const BOOKING_CHANNEL = 'booking_events';

/**
 * What happened to a booking: 'approved' leads to completed; 'declined' to cancelled with
 * declined_by_business; 'rejected' and 'cancelled' to cancelled without it.
 */
export const BOOKING_CHANGES = ['requested', 'confirmed', 'approved', 'declined', 'rejected', 'cancelled'] as const;
export type BookingChange = (typeof BOOKING_CHANGES)[number];

/** A slot change without a booking change; 'updated' also covers "added to system" and a deleted customer's details. */
export const SLOT_CHANGES = ['created', 'updated', 'deleted'] as const;
export type SlotChange = (typeof SLOT_CHANGES)[number];

/**
 * A business profile change; 'located': its location or Discover switch changed. Heard by the public
 * page cache and the Discover stream, not the bookings stream. 'subscription': its subscription changed
 * (docs/decisions/0100), heard by its own bookings stream only.
 */
export const BUSINESS_CHANGES = ['updated', 'deleted', 'located', 'subscription'] as const;
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
    // Where the slot shows in Discover, when the publisher knows (null: it does not), so the Discover
    // stream can leave out slots far from a subscriber.
    latitude: z.number().nullish(),
    longitude: z.number().nullish(),
  }),
  z.object({
    kind: z.literal('business'),
    change: z.enum(BUSINESS_CHANGES),
    businessId: id,
    // 'located': where it now shows in Discover, or null.
    latitude: z.number().nullish(),
    longitude: z.number().nullish(),
    // 'located' and 'deleted': where it showed in Discover before, or null; absent: not known.
    was: z.object({ latitude: z.number(), longitude: z.number() }).nullish(),
  }),
]);

/** One change on the channel; its business and customer decide who hears of it (`liveEventFor`). */
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
   * Publishes `event` to every process; call after commit. Local observers hear it before the NOTIFY,
   * so a cache here is invalidated before the writer answers. A failure is logged, not thrown: the
   * change is already durable and clients refetch on reconnect.
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
   * Calls `observer` synchronously with every change published here (again when its NOTIFY comes back),
   * every change heard from other processes, and 'resync' after a LISTEN reconnect. Returns the unsubscribe.
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

  /** Live streams open on this process. */
  subscriberCount(): number {
    return this.emitter.listenerCount('event');
  }

  /**
   * Yields the non-null `view(event)` of each change, and every 'resync', from the moment of the call,
   * before the caller reads any backlog. Ends when `signal` aborts.
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
