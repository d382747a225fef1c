/**
 * The per-process cache of pages as a visitor without a session sees them (docs/decisions/0106): `/`
 * and the public business pages, each as the bytes sent for one content coding, so a hit neither
 * renders nor compresses. A page leaves when its business changes (the booking hub's observers, as
 * the public page data cache: at once in the writing process, elsewhere when the NOTIFY arrives),
 * every page after a LISTEN reconnect, and each on its own at its expiry (the next slot start it
 * shows, at most a minute after its render).
 */
import type { BookingEvent, Resync } from '../core/deps';
import { BusinessCache, type ChangeSource } from '../features/businesses/business-cache';

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
  private readonly pages: BusinessCache<VisitorPage>;
  /** Pages this process has rendered since start, for visitors or not (tests count renders by it). */
  renders = 0;

  constructor(limits: { pages?: number; bytes?: number } = {}) {
    this.pages = new BusinessCache<VisitorPage>({
      max: limits.pages ?? VISITOR_PAGE_CACHE_PAGES,
      maxSize: limits.bytes ?? VISITOR_PAGE_CACHE_BYTES,
      sizeOf: (page) => page.body.length,
      businessOf: (page) => page.businessId,
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
   * Counts a render and returns the token `set` takes: a page is kept only if its business did not
   * change between this call (made before the render reads anything) and `set`.
   */
  startRender(): number {
    this.renders++;
    return this.pages.token();
  }

  /** Keeps `page` for `key` unless its business changed since `startRender` returned `token`. */
  set(key: VisitorPageKey, page: VisitorPage, token: number): void {
    this.pages.set(keyOf(key), page, token);
  }

  /** Drops the pages of the change's business, or every page for a 'resync'. */
  invalidate(change: BookingEvent | Resync): void {
    this.pages.invalidate(change);
  }

  /** Invalidates on every change `source` tells of; returns the unsubscribe. */
  follow(source: ChangeSource): () => void {
    return this.pages.follow(source);
  }

  /** Number of cached pages (tests). */
  get size(): number {
    return this.pages.size;
  }
}

function keyOf({ path, encoding, consentChosen }: VisitorPageKey): string {
  return JSON.stringify([path, encoding, consentChosen]);
}
