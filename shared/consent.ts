/**
 * The name of the cookie (and storage key) holding a visitor's cookie preferences. The server renders
 * the cookie banner from it, so a page kept for visitors is kept per value (docs/decisions/0106).
 */
export const CONSENT_KEY = 'cookiePreferences';
