/**
 * The per-process cache of pages as a visitor without a session sees them (docs/decisions/0106): `/`
 * and the public business pages, each as the bytes sent for one content coding, so a hit neither
 * renders nor compresses. A page leaves when its business changes (the booking hub's observers, as
 * the public page data cache: at once in the writing process, elsewhere when the NOTIFY arrives),
 * every page after a LISTEN reconnect, and each on its own at its expiry (the next slot start it
 * shows, at most a minute after its render).
 */
import { LRUCache } from 'lru-cache';
import type { BookingEvent, Resync } from '../core/deps';
import type { ChangeSource } from '../features/businesses/public-page-cache';

/** At most this many pages (each coding of a page counts) per process. */
export const VISITOR_PAGE_CACHE_PAGES = 5_000;
/** At most this many bytes of page bodies per process. */
export const VISITOR_PAGE_CACHE_BYTES = 64 * 1024 * 1024;
/** A page is rendered again at least this often (ms): what it shows may depend on the day and time. */
export const VISITOR_PAGE_TTL_MS = 60_000;

/** A page as it is sent: status 200, its headers and its body in `encoding`. */
export interface VisitorPage {
  /** The body, compressed with `encoding` ('identity': as is). */
  body: Buffer;
  encoding: 'br' | 'gzip' | 'identity';
  etag: string;
  /** Its Content-Security-Policy (its inline scripts allowed by hash). */
  csp: string;
  /** When it leaves the cache (ms since epoch, the app's clock). */
  expiresAt: number;
  /** The business it shows, whose changes drop it; null for a page of none (`/`). */
  businessId: string | null;
}

/** What a cached page is looked up by: everything a visitor's answer depends on. */
export interface VisitorPageKey {
  /** The path, without a query string (requests with one are not cached). */
  path: string;
  encoding: VisitorPage['encoding'];
  /**
   * Whether the consent cookie holds a saved choice (the render shows the cookie banner without
   * one): what the page depends on, not the value sent, so made-up values cannot crowd the cache.
   */
  consentChosen: boolean;
}

export class VisitorPageCache {
  private readonly pages: LRUCache<string, VisitorPage>;
  /** businessId → its cached keys. */
  private readonly keysOf = new Map<string, Set<string>>();
  /** Counts invalidations: a page rendered while one happened is sent but not kept (it may be stale). */
  private generation = 0;
  /** Pages this process has rendered since start, for visitors or not (tests count renders by it). */
  renders = 0;

  constructor(limits: { pages?: number; bytes?: number } = {}) {
    this.pages = new LRUCache<string, VisitorPage>({
      max: limits.pages ?? VISITOR_PAGE_CACHE_PAGES,
      maxSize: limits.bytes ?? VISITOR_PAGE_CACHE_BYTES,
      sizeCalculation: (page) => Math.max(1, page.body.length),
      dispose: (page, key) => this.unindex(page.businessId, key),
    });
  }

  /** The page cached for `key` that has not expired at `nowMs`, else undefined. */
  get(key: VisitorPageKey, nowMs: number): VisitorPage | undefined {
    const id = keyOf(key);
    const page = this.pages.get(id);
    if (!page) return undefined;
    if (page.expiresAt <= nowMs) {
      this.pages.delete(id);
      return undefined;
    }
    return page;
  }

  /**
   * Counts a render and returns the token `set` takes: a page is kept only if no change
   * was heard between this call (made before the render reads anything) and `set`.
   */
  startRender(): number {
    this.renders++;
    return this.generation;
  }

  /** Keeps `page` for `key` unless a change was heard since `startRender` returned `token`. */
  set(key: VisitorPageKey, page: VisitorPage, token: number): void {
    if (token !== this.generation) return;
    const id = keyOf(key);
    this.pages.set(id, page);
    if (page.businessId === null || !this.pages.has(id)) return;
    let keys = this.keysOf.get(page.businessId);
    if (!keys) this.keysOf.set(page.businessId, (keys = new Set()));
    keys.add(id);
  }

  /** Drops the pages of the change's business, or every page for a 'resync'. */
  invalidate(change: BookingEvent | Resync): void {
    if (change.kind === 'resync') {
      this.generation++;
      this.pages.clear();
      return;
    }
    if (!change.businessId) return;
    this.generation++;
    const keys = this.keysOf.get(change.businessId);
    if (keys) for (const id of [...keys]) this.pages.delete(id);
  }

  /** Invalidates on every change `source` tells of; returns the unsubscribe. */
  follow(source: ChangeSource): () => void {
    return source.observe((change) => this.invalidate(change));
  }

  /** Number of cached pages (tests). */
  get size(): number {
    return this.pages.size;
  }

  private unindex(businessId: string | null, id: string): void {
    if (businessId === null) return;
    const keys = this.keysOf.get(businessId);
    if (!keys) return;
    keys.delete(id);
    if (keys.size === 0) this.keysOf.delete(businessId);
  }
}

function keyOf({ path, encoding, consentChosen }: VisitorPageKey): string {
  return JSON.stringify([path, encoding, consentChosen]);
}
