/**
 * The app shell (index.html) for page paths (docs/decisions/0047): which clients take it (content
 * negotiation), which paths are the client's screens (200), which may be a business page (200 when
 * a business has the slug, with its data preloaded in the HTML and its name, description and
 * address in the head, docs/decisions/0074) and which are the 404 page (404, same HTML: the
 * client renders the 404 screen); and the ETag answers for what may be revalidated.
 */
import escapeHtml from 'escape-html';
import Negotiator from 'negotiator';
import { createHash } from 'node:crypto';
import { hasBusinessIdentity, pageTitle } from '../shared/format';
import type { ServiceDeps } from './core/deps';
import { publicPageUrl } from './features/businesses/businesses.service';
import { APP_ENTRY_ATTRIBUTE } from '../shared/boot-script';
import { PUBLIC_PAGE_PRELOAD_ID, type PublicPagePreload } from '../shared/public-page-preload';
import { classifySlugPath, isReservedSlug } from '../shared/reserved-slugs';

/**
 * The paths of the client's own screens (client/routes/, without /{slug}), in the route tree's
 * spelling: a `$name` segment stands for any one segment. A unit test keeps the list equal to the
 * generated route tree.
 */
export const CLIENT_PATHS: ReadonlySet<string> = new Set([
  '/',
  '/auth-redirect',
  '/check-email',
  '/complete-business-profile',
  '/contact',
  '/dashboard',
  '/dashboard/customer/settings',
  '/dashboard/qrcode',
  '/dashboard/settings',
  '/forgot-password',
  '/login',
  '/qrcode',
  '/register',
  '/register/business-details',
  '/reset-password',
  '/settings',
  '/unsubscribe/$token',
]);

/** The screens of CLIENT_PATHS with a `$name` segment, as patterns of one concrete path each. */
const CLIENT_PATH_PATTERNS: readonly RegExp[] = [...CLIENT_PATHS]
  .filter((p) => p.includes('$'))
  .map((p) => new RegExp(`^${p.replace(/\$[^/]+/g, '[^/]+')}$`));

/** Whether `pathname` (no trailing slash) is one of the client's screens. */
function isClientPath(pathname: string): boolean {
  return CLIENT_PATHS.has(pathname) || CLIENT_PATH_PATTERNS.some((pattern) => pattern.test(pathname));
}

/** Client screens outside production only (the development mailbox). */
export const DEVELOPMENT_CLIENT_PATHS: ReadonlySet<string> = new Set(['/dev/mailbox']);

/**
 * What the page at `url` (path and query) is, before any look-up: the landing page `/`, which the
 * server renders for a visitor without a session (docs/decisions/0076); one of the client's screens;
 * a business page if a business has `slug` (a slug-shaped segment); a redirect to the lower-case
 * address of a slug typed with capitals ('/Demo-Salon?ref=qr' to '/demo-salon?ref=qr', as the
 * client's route does); or the 404 page (a reserved word that is no screen, anything a slug
 * cannot be, any other path). One trailing slash is ignored.
 */
export function classifyPagePath(
  url: string,
  options: { production: boolean },
):
  | { kind: 'landing' }
  | { kind: 'screen' }
  | { kind: 'business'; slug: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found' } {
  const [pathname = '', query] = url.split(/\?(.*)/s, 2);
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (trimmed === '/') return { kind: 'landing' };
  if (isClientPath(trimmed) || (!options.production && DEVELOPMENT_CLIENT_PATHS.has(trimmed))) {
    return { kind: 'screen' };
  }
  const segment = /^\/([^/]+)$/.exec(trimmed)?.[1];
  if (segment === undefined) return { kind: 'not-found' };
  const path = classifySlugPath(segment);
  if (path.kind === 'not-found') return path;
  const slug = path.kind === 'slug' ? path.slug : path.to;
  if (isReservedSlug(slug)) return { kind: 'not-found' };
  if (path.kind === 'redirect') return { kind: 'redirect', location: query ? `/${slug}?${query}` : `/${slug}` };
  return { kind: 'business', slug };
}

/**
 * Whether a request with this `Accept` header takes an HTML answer, by content negotiation
 * (`negotiator`): text/html named, or matched by the text or the any-type wildcard, at a q-value
 * above 0; or no header at all (any type, RFC 9110). Browsers name text/html when they navigate;
 * link previewers, monitors and curl send the any-type wildcard or nothing, and must see a
 * business page as it is (200), not a 404. An empty header, or one that names only other types
 * (application/json), does not.
 */
export function acceptsHtml(accept: string | undefined): boolean {
  const headers = accept === undefined ? {} : { accept };
  return new Negotiator({ headers }).mediaType(['text/html']) !== undefined;
}

/** What a page's HTML head says before any script runs: the tab title and the link-preview text. */
export interface PageHead {
  /** The whole `<title>`, e.g. 'Demo Hair Studio | LastSlot'; also og:title. */
  title: string;
  /** The description meta and og:description; the shell's own text when absent. */
  description?: string;
  /** The page's one address (canonical link and og:url), whatever case, slash or query it was asked with. */
  url?: string;
}

/**
 * The head of a business's public page: its name as the client titles the page (`pageTitle`), its
 * description and its address (`publicPageUrl`: `deps.appOrigin` and the slug), so a link shared
 * in a chat or a search result names the business. Undefined for a business the page cannot show
 * ('Invalid Business Data'): the shell's head stays.
 */
export function businessPageHead(
  business: { id: string; businessName: string; slug: string; description: string | null },
  deps: Pick<ServiceDeps, 'appOrigin'>,
): PageHead | undefined {
  if (!hasBusinessIdentity(business)) return undefined;
  const description = business.description?.trim();
  return {
    title: pageTitle(business.businessName.trim()),
    ...(description ? { description } : {}),
    url: publicPageUrl(deps, business.slug),
  };
}

/** `<title>`, and the content of the head's description, og:title and og:description metas. */
const TITLE_ELEMENT = /<title>[^<]*<\/title>/;
const META_CONTENT = /(<meta\s+(?:name|property)="(description|og:title|og:description)"\s+content=")[^"]*(")/g;

/** index.html's module scripts and module preloads, as Vite writes them. */
const APP_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload"[^>]*>/g;

/**
 * The shell of a server-rendered page (docs/decisions/0075): index.html with the app's script
 * replaced by the boot script at `bootSrc` (its address in the build, e.g. '/assets/boot-x.js'),
 * which names the app's script in its APP_ENTRY_ATTRIBUTE and loads it at the first interaction,
 * and without module preloads. Throws when index.html has no app script (not a Vite build).
 */
export function deferredAppShell(template: string, bootSrc: string): string {
  const app = APP_SCRIPT.exec(template);
  if (!app) throw new Error('index.html has no module script to defer');
  const boot = `<script type="module" crossorigin src="${escapeHtml(bootSrc)}" ${APP_ENTRY_ATTRIBUTE}="${app[1]!}"></script>`;
  return template.replace(MODULE_PRELOAD, '').replace(APP_SCRIPT, () => boot);
}

/** The shell's empty mount point, which a server-rendered page fills. */
const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * index.html with `head` (when given) in its `<title>` and its description, og:title and
 * og:description metas, its `url` as a canonical link and og:url before `</head>` (all
 * HTML-escaped with `escape-html`), `markup` (when given: the page rendered on the server,
 * docs/decisions/0075) inside its `#root` element, and `preload` (when given) in a
 * non-executable JSON script element before `</body>`. Every '<' in the JSON is written '\u003c',
 * so the data can never close the element.
 */
export function renderShell(template: string, preload?: PublicPagePreload, head?: PageHead, markup?: string): string {
  let html = template;
  if (markup !== undefined) html = html.replace(ROOT_ELEMENT, () => `<div id="root">${markup}</div>`);
  if (head) {
    const title = escapeHtml(head.title);
    const description = head.description === undefined ? undefined : escapeHtml(head.description);
    html = html.replace(TITLE_ELEMENT, () => `<title>${title}</title>`);
    html = html.replace(META_CONTENT, (whole: string, start: string, name: string, end: string) => {
      if (name === 'og:title') return `${start}${title}${end}`;
      return description === undefined ? whole : `${start}${description}${end}`;
    });
    if (head.url !== undefined) {
      const url = escapeHtml(head.url);
      const links = `<link rel="canonical" href="${url}" />\n    <meta property="og:url" content="${url}" />\n  `;
      const close = html.indexOf('</head>');
      if (close !== -1) html = html.slice(0, close) + links + html.slice(close);
    }
  }
  if (!preload) return html;
  const json = JSON.stringify(preload).replace(/</g, '\\u003c');
  const element = `<script type="application/json" id="${PUBLIC_PAGE_PRELOAD_ID}">${json}</script>`;
  const end = html.lastIndexOf('</body>');
  return end === -1 ? html + element : html.slice(0, end) + element + html.slice(end);
}

/** A strong ETag for `body`: a quoted base64url SHA-1 of it. */
export function etagOf(body: string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * Whether an If-None-Match header value names `etag` (weak comparison, as RFC 9110 asks for
 * If-None-Match: a W/ prefix is ignored; '*' matches anything).
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
