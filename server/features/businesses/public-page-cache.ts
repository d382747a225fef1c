/**
 * The per-process public page cache (docs/decisions/0046). "Has it started" is applied each time a page
 * is shown, so a cached page never offers a started slot. A page leaves when its business, slots or
 * bookings change: at once in the writing process, elsewhere when the NOTIFY arrives; all pages leave
 * after a LISTEN reconnect, since changes may have been missed.
 */
import { zonedInstant } from '../../../shared/zoned-time';
import type { BookingEvent, Resync } from '../../core/deps';
import type { DbOrTx } from '../../db/client';
import { BusinessCache, type ChangeSource } from './business-cache';
import { loadPublicPage, type PublicPage } from './businesses.service';

/** At most this many pages per process. */
export const PUBLIC_PAGE_CACHE_PAGES = 10_000;
/** At most this many slots (plus one per page) per process: at about 250 bytes each, under 50 MB. */
export const PUBLIC_PAGE_CACHE_SLOTS = 200_000;
/** Bounds staleness (ms) should a NOTIFY be lost without the LISTEN connection dropping. */
export const PUBLIC_PAGE_CACHE_TTL_MS = 60_000;

interface Entry {
  /** Every slot included; also the answer while no slot has started. */
  page: PublicPage;
  /** Start instant (ms since epoch) of each of `page.slots`. */
  startsAt: number[];
  /** `now` (ms) when it was read. */
  readAt: number;
  /** Kept so the answer stays the same object until another slot starts: callers memoise per object. */
  lastShown?: { kept: number; page: PublicPage };
}

export class PublicPageCache {
  /** Pages by slug (a business has more than one just after a slug change). */
  private readonly pages: BusinessCache<Entry>;
  /** Reads in flight per slug, shared by concurrent requests. */
  private readonly reading = new Map<string, Promise<Entry | null>>();

  constructor(
    private readonly db: DbOrTx,
    limits: { pages?: number; slots?: number; ttlMs?: number } = {},
  ) {
    this.pages = new BusinessCache<Entry>({
      max: limits.pages ?? PUBLIC_PAGE_CACHE_PAGES,
      maxSize: limits.slots ?? PUBLIC_PAGE_CACHE_SLOTS,
      sizeOf: (entry) => 1 + entry.page.slots.length,
      businessOf: (entry) => entry.page.business.id,
      ttlMs: limits.ttlMs ?? PUBLIC_PAGE_CACHE_TTL_MS,
    });
  }

  /**
   * The public page of a `publicSlug`-normalised slug at `now`, without started slots; null for an
   * unknown slug (not cached). The same object is answered until what it shows changes, so callers may
   * memoise per object. Database errors are thrown.
   */
  async get(slug: string, now: Date): Promise<PublicPage | null> {
    const cached = this.pages.get(slug);
    // A clock that went back past the read (tests move time) may need slots the read skipped.
    const entry = cached && cached.readAt <= now.getTime() ? cached : await this.read(slug, now);
    return entry && shown(entry, now.getTime());
  }

  /**
   * Drops the pages of the change's business, or every page for a 'resync'. Reads in flight are no
   * longer shared: a request after a change must not get a read that began before it.
   */
  invalidate(change: BookingEvent | Resync): void {
    this.reading.clear();
    this.pages.invalidate(change);
  }

  /** Invalidates on every change `source` tells of; returns the unsubscribe. */
  follow(source: ChangeSource): () => void {
    return this.pages.follow(source, (change) => this.invalidate(change));
  }

  /** Number of cached pages (tests). */
  get size(): number {
    return this.pages.size;
  }

  private read(slug: string, now: Date): Promise<Entry | null> {
    const inFlight = this.reading.get(slug);
    if (inFlight) return inFlight;
    const token = this.pages.token();
    const reading = loadPublicPage(this.db, slug, now)
      .then((page) => {
        if (!page) return null;
        const { timezone } = page.business;
        const entry: Entry = {
          page,
          startsAt: page.slots.map((s) => zonedInstant(s.date, s.startTime, timezone).getTime()),
          readAt: now.getTime(),
        };
        this.pages.set(slug, entry, token);
        return entry;
      })
      .finally(() => {
        if (this.reading.get(slug) === reading) this.reading.delete(slug);
      });
    this.reading.set(slug, reading);
    return reading;
  }
}

/**
 * The page at `nowMs` without started slots (`isPast`'s rule). The kept slots are those starting
 * after a moment, so their count identifies the answer to reuse.
 */
function shown(entry: Entry, nowMs: number): PublicPage {
  const { page, startsAt } = entry;
  let kept = 0;
  for (const t of startsAt) if (t > nowMs) kept++;
  if (kept === startsAt.length) return page;
  if (entry.lastShown?.kept !== kept) {
    const slots = page.slots.filter((_, i) => startsAt[i]! > nowMs);
    entry.lastShown = { kept, page: { business: page.business, slots } };
  }
  return entry.lastShown.page;
}
