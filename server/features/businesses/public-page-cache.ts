/**
 * The public page cache (docs/decisions/0046): each process keeps the pages it served, per slug,
 * as stored (the business fields and its requestable slots from its local today on), bounded and
 * least-recently-used first out. "Has it started" is applied each time a page is shown, so a
 * cached page never offers a slot that has started. A page leaves the cache when its business,
 * slots or bookings change: at once in the writing process (the hub's observers hear a publish
 * before it is sent), and in every other process when the NOTIFY arrives; all pages leave when
 * the LISTEN connection came back (changes may have been missed).
 */
import { LRUCache } from 'lru-cache';
import { zonedInstant } from '../../../shared/zoned-time';
import type { BookingEvent, ChangeObserver, Resync } from '../../core/deps';
import type { DbOrTx } from '../../db/client';
import { loadPublicPage, type PublicPage } from './businesses.service';

/** At most this many pages per process. */
export const PUBLIC_PAGE_CACHE_PAGES = 10_000;
/**
 * At most this many slots (plus one per page) per process: about 250 bytes each, so the cache
 * stays under about 50 MB however many slots the pages hold.
 */
export const PUBLIC_PAGE_CACHE_SLOTS = 200_000;
/**
 * A page is read again after this long (ms) even without a change heard: the bound on staleness
 * should a NOTIFY be lost without the LISTEN connection dropping (a failed publish is only logged).
 */
export const PUBLIC_PAGE_CACHE_TTL_MS = 60_000;

interface Entry {
  /** The page as stored, every slot included; also the answer while no slot has started. */
  page: PublicPage;
  /** Start instant (ms since epoch) of each of `page.slots`, in the business's time zone. */
  startsAt: number[];
  /** `now` (ms) when it was read. */
  readAt: number;
  /**
   * The last page shown with some slots left out, by how many slots it kept, so the same answer is
   * the same object until another slot starts (answers can be memoised per object).
   */
  lastShown?: { kept: number; page: PublicPage };
}

/** Something that tells of every committed change (BookingEventHub). */
export interface ChangeSource {
  observe(observer: ChangeObserver): () => void;
}

export class PublicPageCache {
  private readonly pages: LRUCache<string, Entry>;
  /** businessId → the slugs its pages are cached under (more than one just after a slug change). */
  private readonly slugsOf = new Map<string, Set<string>>();
  /** Reads in flight, per slug, shared by the requests that want the same page meanwhile. */
  private readonly reading = new Map<string, Promise<Entry | null>>();
  /** Counts invalidations: a read that overlapped one is answered but not kept (it may be stale). */
  private generation = 0;

  constructor(
    private readonly db: DbOrTx,
    limits: { pages?: number; slots?: number; ttlMs?: number } = {},
  ) {
    this.pages = new LRUCache<string, Entry>({
      max: limits.pages ?? PUBLIC_PAGE_CACHE_PAGES,
      maxSize: limits.slots ?? PUBLIC_PAGE_CACHE_SLOTS,
      sizeCalculation: (entry) => 1 + entry.page.slots.length,
      ttl: limits.ttlMs ?? PUBLIC_PAGE_CACHE_TTL_MS,
      dispose: (entry, slug) => this.unindex(entry.page.business.id, slug),
    });
  }

  /**
   * The public page of `slug` (normalised: `publicSlug`) at `now`, or null when no business has that
   * slug: the cached page, or one read from the database (and kept). Slots whose start is at or
   * before `now` are left out. The same object is answered until the page or the slots it shows
   * change, so callers may memoise what they derive from it (`WeakMap`). Unknown slugs are not
   * cached. Database errors are thrown.
   */
  async get(slug: string, now: Date): Promise<PublicPage | null> {
    const cached = this.pages.get(slug);
    // A clock that went back past the read (tests move time) may need slots the read skipped.
    const entry = cached && cached.readAt <= now.getTime() ? cached : await this.read(slug, now);
    return entry && shown(entry, now.getTime());
  }

  /**
   * Drops what `change` may have made stale: the pages of its business, or every page for a
   * 'resync'. Reads in flight are not kept, and later requests read afresh.
   */
  invalidate(change: BookingEvent | Resync): void {
    if (change.kind === 'resync') {
      this.generation++;
      this.reading.clear();
      this.pages.clear();
      return;
    }
    if (!change.businessId) return;
    this.generation++;
    this.reading.clear();
    const slugs = this.slugsOf.get(change.businessId);
    if (slugs) for (const slug of [...slugs]) this.pages.delete(slug);
  }

  /** Invalidates on every change `source` tells of (see `invalidate`). Returns the unsubscribe. */
  follow(source: ChangeSource): () => void {
    return source.observe((change) => this.invalidate(change));
  }

  /** Number of cached pages (tests). */
  get size(): number {
    return this.pages.size;
  }

  private read(slug: string, now: Date): Promise<Entry | null> {
    const inFlight = this.reading.get(slug);
    if (inFlight) return inFlight;
    const generation = this.generation;
    const reading = loadPublicPage(this.db, slug, now)
      .then((page) => {
        if (!page) return null;
        const { timezone } = page.business;
        const entry: Entry = {
          page,
          startsAt: page.slots.map((s) => zonedInstant(s.date, s.startTime, timezone).getTime()),
          readAt: now.getTime(),
        };
        if (generation === this.generation) {
          this.pages.set(slug, entry);
          this.index(page.business.id, slug);
        }
        return entry;
      })
      .finally(() => {
        if (this.reading.get(slug) === reading) this.reading.delete(slug);
      });
    this.reading.set(slug, reading);
    return reading;
  }

  private index(businessId: string, slug: string): void {
    let slugs = this.slugsOf.get(businessId);
    if (!slugs) this.slugsOf.set(businessId, (slugs = new Set()));
    slugs.add(slug);
  }

  private unindex(businessId: string, slug: string): void {
    const slugs = this.slugsOf.get(businessId);
    if (!slugs) return;
    slugs.delete(slug);
    if (slugs.size === 0) this.slugsOf.delete(businessId);
  }
}

/**
 * The page as shown at `nowMs`: without the slots whose start is at or before it (the rule of
 * `isPast`, shared/zoned-time.ts, on start instants computed once per read). The stored page
 * itself while none has started; otherwise the same object as last time while the same number of
 * slots is kept (the kept slots are those starting after a moment, so their number says which).
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
