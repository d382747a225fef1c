/**
 * The discovery.onChange stream (docs/decisions/0081, 0094): a change reaches only the Discover lists
 * whose area holds where its business is listed, and nothing of a business not listed leaves the
 * server. No event is sent when a slot's start passes: it leaves on the client's own clock.
 */
import { tracked, type TrackedEnvelope } from '@trpc/server';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { distanceMiles, type LatLng } from '../../shared/geo';
import type { DbOrTx } from '../db/client';
import { discoverListing } from '../features/discovery/listing.service';
import type { BookingEvent, BookingEventHub, Resync } from './booking-events';

/**
 * What a Discover subscriber receives. 'resync': search again. 'reopened': a request was withdrawn or
 * rejected. 'unlisted': hidden, moved out of the subscriber's area, or gone.
 */
export type DiscoveryEvent =
  | Resync
  | {
      kind: 'slot';
      change: 'published' | 'edited' | 'reopened' | 'taken' | 'deleted';
      slotId: string;
      businessId: string;
    }
  | { kind: 'business'; change: 'listed' | 'unlisted' | 'updated'; businessId: string };

/** A Discover list's area: within `miles` of `centre`, as the search measures it; null: everywhere. */
export type DiscoveryArea = { centre: LatLng; miles: number } | null;

/** `event` for the subscribers whose area holds `at`, where the business is (or was) listed. */
interface Delivery {
  at: LatLng;
  event: Exclude<DiscoveryEvent, Resync>;
}

/** Businesses whose last `shown` digest a process remembers. */
const SHOWN_MEMORY = 10_000;

/** Whether a list of `area` watches the point `at`. */
function watches(area: DiscoveryArea, at: LatLng): boolean {
  return area === null || distanceMiles(area.centre, at) <= area.miles;
}

/** What a subscriber of `area` hears of a change going to `deliveries`: the first its area holds, or null. */
function deliveredTo(area: DiscoveryArea, deliveries: readonly Delivery[]): DiscoveryEvent | null {
  return deliveries.find((d) => watches(area, d.at))?.event ?? null;
}

const position = (latitude: number | null | undefined, longitude: number | null | undefined): LatLng | null =>
  latitude == null || longitude == null ? null : { latitude, longitude };

/**
 * A 'located' or 'deleted' business: 'listed' where it now shows, else 'unlisted' where it showed
 * before; nothing when neither (it was never listed) or nothing moved.
 */
function placementDeliveries(event: Extract<BookingEvent, { kind: 'business' }>): Delivery[] {
  const now = event.change === 'located' ? position(event.latitude, event.longitude) : null;
  const was = event.was ?? null;
  if (now && was && now.latitude === was.latitude && now.longitude === was.longitude) return [];
  const { businessId } = event;
  const out: Delivery[] = [];
  if (now) out.push({ at: now, event: { kind: 'business', change: 'listed', businessId } });
  if (was) out.push({ at: was, event: { kind: 'business', change: 'unlisted', businessId } });
  return out;
}

/** The Discover event of a slot or booking change; only slot and business ids, never a booking's or customer's. */
function slotEvent(
  event: Exclude<BookingEvent, { kind: 'business' }>,
  slotId: string,
  businessId: string,
): Exclude<DiscoveryEvent, Resync> {
  if (event.kind === 'booking') {
    const leaves = event.change !== 'rejected' && event.change !== 'cancelled';
    return { kind: 'slot', change: leaves ? 'taken' : 'reopened', slotId, businessId };
  }
  const change = event.change === 'created' ? 'published' : event.change === 'updated' ? 'edited' : 'deleted';
  return { kind: 'slot', change, slotId, businessId };
}

/**
 * What one process's Discover streams share: each change resolved once, its business's listing read
 * once whatever the number of subscribers, and the last digest of what Discover shows of each business,
 * so an edit that changes none of it is not sent.
 */
class DiscoveryChanges {
  private readonly resolved = new WeakMap<BookingEvent, Promise<Delivery[]>>();
  private readonly shown = new LRUCache<string, string>({ max: SHOWN_MEMORY });

  constructor(private readonly deps: { db: DbOrTx; logger: Logger }) {}

  /** Where `event` goes, read once per change (the hub hands every subscriber the same object). */
  deliveries(event: BookingEvent): Promise<Delivery[]> {
    let found = this.resolved.get(event);
    if (!found) {
      found = this.resolve(event).catch((err: unknown) => {
        this.deps.logger.warn({ err }, 'Discover change not sent: its listing could not be read');
        return [];
      });
      this.resolved.set(event, found);
    }
    return found;
  }

  private async resolve(event: BookingEvent): Promise<Delivery[]> {
    // 'subscription' carries no place, so placementDeliveries sends nothing for it.
    if (event.kind === 'business' && event.change !== 'updated') return placementDeliveries(event);
    const { businessId } = event;
    if (!businessId) return [];
    const slotId = event.kind === 'business' ? null : event.slotId;
    if (event.kind !== 'business' && !slotId) return [];
    // A new or edited slot carries where it is listed when its publisher knew.
    const carried = event.kind === 'slot' && event.latitude !== undefined;
    const listing = carried ? null : await discoverListing(this.deps.db, businessId);
    const at = carried ? position(event.latitude, event.longitude) : (listing?.at ?? null);
    if (!at) return [];
    if (event.kind === 'business') {
      if (this.shown.get(businessId) === listing!.shown) return [];
      this.shown.set(businessId, listing!.shown);
      return [{ at, event: { kind: 'business', change: 'updated', businessId } }];
    }
    return [{ at, event: slotEvent(event, slotId!, businessId) }];
  }
}

/** One `DiscoveryChanges` per hub, that is per process. */
const changesOfHub = new WeakMap<object, DiscoveryChanges>();

/**
 * The Discover stream of `area`: a 'resync' first, the hub already listening so nothing is missed,
 * then each change `area` watches (`deliveredTo`). lastEventId is not replayed: the first 'resync'
 * covers it. `db` reads where a changed business is listed; `logger` hears of a read that failed.
 */
export async function* liveDiscoveryEvents(
  params: { hub: Pick<BookingEventHub, 'subscribe'>; area: DiscoveryArea; db: DbOrTx; logger: Logger },
  signal: AbortSignal | undefined,
): AsyncGenerator<TrackedEnvelope<DiscoveryEvent>> {
  let changes = changesOfHub.get(params.hub);
  if (!changes) {
    changes = new DiscoveryChanges({ db: params.db, logger: params.logger });
    changesOfHub.set(params.hub, changes);
  }
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort, { once: true });
  const events = params.hub.subscribe((e) => e, controller.signal);
  let seq = 0;
  const id = () => `${Date.now()}-${seq++}`;
  try {
    yield tracked<DiscoveryEvent>(id(), { kind: 'resync' });
    for await (const e of events) {
      const seen = e.kind === 'resync' ? e : deliveredTo(params.area, await changes.deliveries(e));
      if (seen) yield tracked(id(), seen);
    }
  } finally {
    signal?.removeEventListener('abort', abort);
    controller.abort();
  }
}
