/**
 * Live booking changes across processes (BRIEF §6, docs/decisions/0002): a change is published
 * with NOTIFY after its transaction commits; each process holds one LISTEN connection and fans the
 * small event out in-process to its SSE subscribers.
 */
import { EventEmitter, on } from 'node:events';
import type { Logger } from 'pino';
import type { Database } from '../db/client';

export const BOOKING_CHANNEL = 'booking_events';

/**
 * "Booking X of business Y (and customer Z) changed": enough to invalidate caches. `bookingId` is
 * null when a slot changed without a booking (added, edited, deleted, marked added to system).
 */
export interface BookingEvent {
  bookingId: string | null;
  businessId: string | null;
  customerId: string | null;
}

/** What a subscriber receives: a change, or 'resync' when changes may have been missed. */
export type HubEvent = { kind: 'change'; event: BookingEvent } | { kind: 'resync' };

export class BookingEventHub {
  private readonly emitter = new EventEmitter();
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
        try {
          const event = JSON.parse(payload) as BookingEvent;
          this.emitter.emit('event', { kind: 'change', event } satisfies HubEvent);
        } catch (err) {
          this.logger.warn({ err }, 'ignored malformed booking event');
        }
      },
      () => {
        // The LISTEN connection was lost and is back: tell every subscriber to refetch.
        this.logger.warn('booking events: LISTEN reconnected; asking subscribers to resync');
        this.emitter.emit('event', { kind: 'resync' } satisfies HubEvent);
      },
    );
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = null;
    this.emitter.removeAllListeners();
  }

  /**
   * Publishes `event` to every process. Call after commit. A failure is logged, not thrown: the
   * change itself is already durable and clients refetch on reconnect.
   */
  async publish(event: BookingEvent): Promise<void> {
    try {
      await this.database.notify(BOOKING_CHANNEL, JSON.stringify(event));
    } catch (err) {
      this.logger.error({ err }, 'booking event publish failed');
    }
  }

  /**
   * Async iterator of the changes for which `filter` is true, and of every 'resync', from the
   * moment of the call (the listener is attached before the caller reads any backlog). Ends when
   * `signal` aborts.
   */
  subscribe(filter: (event: BookingEvent) => boolean, signal: AbortSignal): AsyncIterable<HubEvent> {
    // `on` attaches its listener now, not on the first read.
    const source = on(this.emitter, 'event', { signal }) as AsyncIterableIterator<[HubEvent]>;
    return (async function* () {
      try {
        for await (const [e] of source) if (e.kind === 'resync' || filter(e.event)) yield e;
      } catch (err) {
        if ((err as { name?: string }).name !== 'AbortError') throw err;
      }
    })();
  }
}
