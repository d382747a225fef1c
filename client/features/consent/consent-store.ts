/**
 * Cookie preferences: necessary (always true), analytics and marketing (default false). Kept in
 * local storage, session storage and a cookie valid for one year (js-cookie). Save failures are
 * only logged. Nothing optional is loaded anywhere in LastSlot today; code that ever adds analytics
 * or marketing must check `hasConsent()` first.
 */
import Cookies from 'js-cookie';
import { useSyncExternalStore } from 'react';

export interface CookiePreferences {
  necessary: true;
  analytics: boolean;
  marketing: boolean;
}

export const CONSENT_KEY = 'cookiePreferences';
const COOKIE_DAYS = 365;

export const DEFAULT_PREFERENCES: CookiePreferences = { necessary: true, analytics: false, marketing: false };

function parse(raw: string | null | undefined): CookiePreferences | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<CookiePreferences>;
    if (typeof v.analytics !== 'boolean' || typeof v.marketing !== 'boolean') return null;
    return { necessary: true, analytics: v.analytics, marketing: v.marketing };
  } catch {
    return null;
  }
}

/** The saved choice, from local storage, then session storage, then the cookie; null if none. */
export function readPreferences(): CookiePreferences | null {
  const sources: Array<() => string | null | undefined> = [
    () => window.localStorage.getItem(CONSENT_KEY),
    () => window.sessionStorage.getItem(CONSENT_KEY),
    () => Cookies.get(CONSENT_KEY),
  ];
  for (const source of sources) {
    try {
      const found = parse(source());
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

/** The saved preferences (null before any choice) and whether the dialog is open. */
export function useConsent(): ConsentSnapshot {
  return useSyncExternalStore((l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  }, getSnapshot);
}
