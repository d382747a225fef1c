/**
 * The data the server sends inside a page's HTML (docs/decisions/0047 and 0075), put into the query
 * cache before the first render: the public page's businesses.bySlug answer, and, on a page the
 * server rendered, the favourite count and auth.me's answer for a visitor without a session, which
 * the render showed. The browser then renders (or hydrates) the same page the HTML holds, and asks
 * the server again as the queries' own stale times say.
 */
import type { QueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import superjson from 'superjson';
import { PUBLIC_PAGE_PRELOAD_ID, type PublicPagePreload } from '../../shared/public-page-preload';
import { trpc, type RouterOutputs } from './trpc';

/** auth.me's answer without a session: what a server render shows. */
const NO_SESSION: RouterOutputs['auth']['me'] = { user: null, authState: 'unregistered' };

/**
 * Puts `preload` into `queryClient`: bySlug for its slug and, when present, favourites.status.
 * `rendered`: the page's markup was rendered without a session, so auth.me starts as that answer,
 * already stale (asked again as soon as the page mounts).
 */
export function seedPageData(queryClient: QueryClient, preload: PublicPagePreload | null, rendered: boolean): void {
  if (preload) {
    const data = superjson.deserialize<RouterOutputs['businesses']['bySlug']>(preload.data);
    queryClient.setQueryData(getQueryKey(trpc.businesses.bySlug, { slug: preload.slug }, 'query'), data);
    if (preload.favourites) {
      const key = getQueryKey(trpc.favourites.status, { businessId: data.business.id }, 'query');
      queryClient.setQueryData(key, preload.favourites);
    }
  }
  if (rendered) queryClient.setQueryData(getQueryKey(trpc.auth.me, undefined, 'query'), NO_SESSION, { updatedAt: 0 });
}

/** The page's preloaded data, read once: the element is removed (null when absent or unreadable). */
export function takePagePreload(): PublicPagePreload | null {
  const element = document.getElementById(PUBLIC_PAGE_PRELOAD_ID);
  if (!element) return null;
  element.remove();
  try {
    return JSON.parse(element.textContent ?? '') as PublicPagePreload;
  } catch {
    return null;
  }
}
