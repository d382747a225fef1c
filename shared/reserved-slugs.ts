/**
 * First path segments the product uses for its own routes (accounts spec §2 route table, plus
 * server paths). A business slug may not be one of these, so /{slug} never shadows a screen.
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
  'dev',
  'trpc',
  'healthz',
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
