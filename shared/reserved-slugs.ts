/**
 * First path segments the product uses for its own routes (client screens and server paths) and a few
 * more. A business slug may not be one of these, so /{slug} never shadows a screen
 * (server/app.test.ts checks every route's).
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'login',
  'register',
  'check-email',
  'forgot-password',
  'reset-password',
  'complete-business-profile',
  'auth-redirect',
  'dashboard',
  'settings',
  'qrcode',
  'contact',
  'discover',
  'dev',
  'unsubscribe',
  'trpc',
  'healthz',
  'calendar',
  'webhooks',
  'api',
  'assets',
  'static',
  'admin',
  'about',
  'pricing',
  'terms',
  'privacy',
  'help',
  'support',
  'favicon.ico',
  'robots.txt',
  'logout',
  'signup',
  'sign-up',
  'signin',
  'sign-in',
  'www',
  'mail',
  'mailbox',
  'null',
  'undefined',
]);

export function isReservedSlug(slug: string): boolean {
  return RESERVED_SLUGS.has(slug.toLowerCase());
}

/**
 * What a business slug can look like: 3 to 50
 * lowercase letters, digits and hyphens. The same pattern as SLUG_PATTERN in schemas/settings.ts,
 * repeated here so the router's /{slug} check does not pull the settings schemas (and zod) into
 * the first page load.
 */
export const PUBLIC_SLUG_PATTERN = /^[a-z0-9-]{3,50}$/;

/**
 * How the client treats a single unmatched path segment (ADR 0020):
 * - 'slug': a syntactically valid slug or a reserved word: the public business page, which says
 *   'Business Not Found' when no business has it;
 * - 'redirect': a valid slug written with capitals ('/Demo-Salon'): go to the lower-case address
 *   in `to`;
 * - 'not-found': anything a slug cannot be (characters outside a-z 0-9 -, shorter than 3, longer
 *   than 50): the 404 page.
 */
export type SlugPathKind = { kind: 'slug'; slug: string } | { kind: 'redirect'; to: string } | { kind: 'not-found' };

export function classifySlugPath(segment: string): SlugPathKind {
  if (PUBLIC_SLUG_PATTERN.test(segment) || RESERVED_SLUGS.has(segment)) return { kind: 'slug', slug: segment };
  const lower = segment.toLowerCase();
  if (PUBLIC_SLUG_PATTERN.test(lower) || RESERVED_SLUGS.has(lower)) return { kind: 'redirect', to: lower };
  return { kind: 'not-found' };
}
