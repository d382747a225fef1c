/**
 * The name of the cookie (and storage key) holding a visitor's cookie preferences. The server renders
 * the cookie banner from it, so a page kept for visitors is kept per choice made or not
 * (docs/decisions/0106).
 */
export const CONSENT_KEY = 'cookiePreferences';

/** A visitor's cookie preferences: necessary (always true), analytics and marketing. */
export interface CookiePreferences {
  necessary: true;
  analytics: boolean;
  marketing: boolean;
}

/** The preferences saved as `raw` (the stored JSON), or null when it is missing or not a saved choice. */
export function parseConsent(raw: string | null | undefined): CookiePreferences | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<CookiePreferences>;
    if (typeof v.analytics !== 'boolean' || typeof v.marketing !== 'boolean') return null;
    return { necessary: true, analytics: v.analytics, marketing: v.marketing };
  } catch {
    return null;
  }
}

/**
 * Whether the consent cookie's value `raw` (undefined: no cookie) holds a saved choice: all a page's
 * server render reads of it (the banner shows without one).
 */
export function consentChosen(raw: string | undefined): boolean {
  return parseConsent(raw) !== null;
}
