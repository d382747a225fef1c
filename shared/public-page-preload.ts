/**
 * The public page's data sent inside its HTML (docs/decisions/0047): index.html for a known /{slug}
 * carries businesses.bySlug's answer in `<script type="application/json" id={PUBLIC_PAGE_PRELOAD_ID}>`,
 * so the page paints without waiting for an API call. Not executable, so the CSP allows it.
 */
import type { SuperJSONResult } from 'superjson';

/** The id of the JSON script element. */
export const PUBLIC_PAGE_PRELOAD_ID = 'public-page-data';

/**
 * What the element holds: the slug the data is for (lower-case, as the query asks for it) and the
 * answer serialised with superjson (`{ json, meta? }`), as tRPC sends it.
 */
export interface PublicPagePreload {
  slug: string;
  data: SuperJSONResult;
}
