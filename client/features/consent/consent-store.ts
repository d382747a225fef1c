/**
 * Cookie preferences: necessary (always true), analytics and marketing (default false). Kept in
 * local storage, session storage and a cookie valid for one year (js-cookie). Save failures are
 * only logged. Nothing optional is loaded anywhere in LastSlot today; code that ever adds analytics
 * or marketing must check `hasConsent()` first.
 */
import Cookies from 'js-cookie';
import { createContext, useContext, useSyncExternalStore } from 'react';
import { CONSENT_KEY, consentChosen, parseConsent, type CookiePreferences } from '../../../shared/consent';

export { CONSENT_KEY, consentChosen, type CookiePreferences };
const COOKIE_DAYS = 365;

export const DEFAULT_PREFERENCES: CookiePreferences = { necessary: true, analytics: false, marketing: false };

/** The saved choice, from local storage, then session storage, then the cookie; null if none. */
export function readPreferences(): CookiePreferences | null {
  const sources: Array<() => string | null | undefined> = [
    () => window.localStorage.getItem(CONSENT_KEY),
    () => window.sessionStorage.getItem(CONSENT_KEY),
    () => Cookies.get(CONSENT_KEY),
  ];
  for (const source of sources) {
    try {
      const found = parseConsent(source());
      if (found) return found;
    } catch {
      // A blocked storage: try the next one.
    }
  }
  return null;
}

let current: CookiePreferences | null | undefined;
let dialogOpen = false;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

/** Saves the choice in all three places; failures are logged, never shown. */
export function savePreferences(prefs: Omit<CookiePreferences, 'necessary'>): void {
  const value: CookiePreferences = { necessary: true, analytics: prefs.analytics, marketing: prefs.marketing };
  const json = JSON.stringify(value);
  const writes: Array<[string, () => void]> = [
    ['local storage', () => window.localStorage.setItem(CONSENT_KEY, json)],
    ['session storage', () => window.sessionStorage.setItem(CONSENT_KEY, json)],
    [
      'cookie',
      () =>
        Cookies.set(CONSENT_KEY, json, {
          expires: COOKIE_DAYS,
          sameSite: 'lax',
          secure: window.location.protocol === 'https:',
        }),
    ],
  ];
  for (const [where, write] of writes) {
    try {
      write();
    } catch (err) {
      console.warn(`Could not save cookie preferences in ${where}`, err);
    }
  }
  current = value;
  dialogOpen = false;
  notify();
}

/** True when the user allowed `kind` of cookies. */
export function hasConsent(kind: 'analytics' | 'marketing'): boolean {
  return (current ?? readPreferences())?.[kind] ?? false;
}

/** Opens the preferences dialog (footer 'Cookie settings'). */
export function openCookieSettings(): void {
  dialogOpen = true;
  notify();
}

export function closeCookieSettings(): void {
  dialogOpen = false;
  notify();
}

interface ConsentSnapshot {
  preferences: CookiePreferences | null;
  dialogOpen: boolean;
}
let snapshot: ConsentSnapshot | null = null;

function getSnapshot(): ConsentSnapshot {
  if (current === undefined) current = readPreferences();
  if (!snapshot || snapshot.preferences !== current || snapshot.dialogOpen !== dialogOpen) {
    snapshot = { preferences: current, dialogOpen };
  }
  return snapshot;
}

/**
 * The consent cookie's value a server render was asked with (docs/decisions/0080), undefined in
 * the browser. A server render and the browser's hydration of it must agree on whether the banner
 * shows: both read only the cookie, the one store the server sees.
 */
export const ConsentCookieContext = createContext<string | undefined>(undefined);

const CHOSEN: ConsentSnapshot = { preferences: DEFAULT_PREFERENCES, dialogOpen: false };
const NOT_CHOSEN: ConsentSnapshot = { preferences: null, dialogOpen: false };

/**
 * The saved preferences (null before any choice) and whether the dialog is open. While a
 * server-rendered page hydrates, what the cookie says (banner or not; the switches' values show
 * only in the dialog, which is never server-rendered), then the stores' saved choice.
 */
export function useConsent(): ConsentSnapshot {
  const serverCookie = useContext(ConsentCookieContext);
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getSnapshot,
    () => (consentChosen(serverCookie ?? Cookies.get(CONSENT_KEY)) ? CHOSEN : NOT_CHOSEN),
  );
}
