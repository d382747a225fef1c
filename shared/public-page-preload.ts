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
  /**
   * favourites.status's answer for a visitor without a session (`favourited` false), when the
   * server rendered the page's markup for one (docs/decisions/0075): the favourite button's count.
   */
  favourites?: { count: number; favourited: boolean };
}

/**
 * What the server's render of the pages a visitor without a session sees first (client/entry-server.tsx)
 * offers the server: the public business page (docs/decisions/0075) and the landing page
 * (docs/decisions/0076).
 */
export interface PublicPageRenderer {
  /**
   * The markup of `#root` for the public page of `preload.slug`, as a visitor without a session
   * sees it, `consentCookie` being the request's consent cookie (undefined: none). Rejects when
   * the render fails.
   */
  renderPublicPage(preload: PublicPagePreload, consentCookie: string | undefined): Promise<string>;
  /** The markup of `#root` for the landing page `/` without a session, as renderPublicPage. */
  renderLandingPage(consentCookie: string | undefined): Promise<string>;
  /** Whether the consent cookie's value `raw` holds a saved choice (the render then has no banner). */
  consentChosen(raw: string | undefined): boolean;
  /** The consent cookie's name. */
  consentCookieName: string;
}
