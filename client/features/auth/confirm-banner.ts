/**
 * The 'Please confirm your email!' banner state that is not derived from the session: raised after
 * a sign-up and after a login refused for an unconfirmed email (the refusal carries the account's
 * role, docs/decisions/0010), dismissed by the user. Kept in session storage
 * (`lastslot.confirmBanner`) so a reload of /check-email keeps it; sign-in, sign-out and a
 * confirmed session clear it.
 */
import { useSyncExternalStore } from 'react';

export type BannerRole = 'business' | 'customer';

interface BannerState {
  /** Raised by a sign-up or a refused login (there is no session, so no user to read it from). */
  raised: boolean;
  /** The role the refusal or the sign-up named, when known: picks the banner's sentence. */
  role: BannerRole | null;
  dismissed: boolean;
}

export const CONFIRM_BANNER_KEY = 'lastslot.confirmBanner';
const EMPTY: BannerState = { raised: false, role: null, dismissed: false };

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

function load(): BannerState {
  try {
    const raw = storage()?.getItem(CONFIRM_BANNER_KEY);
    if (!raw) return EMPTY;
    const v = JSON.parse(raw) as Partial<BannerState>;
    const role = v.role === 'business' || v.role === 'customer' ? v.role : null;
    return { raised: v.raised === true, role, dismissed: v.dismissed === true };
  } catch {
    return EMPTY;
  }
}

let state: BannerState = load();
const listeners = new Set<() => void>();

function set(next: BannerState) {
  state = next;
  try {
    if (next.raised) storage()?.setItem(CONFIRM_BANNER_KEY, JSON.stringify(next));
    else storage()?.removeItem(CONFIRM_BANNER_KEY);
  } catch {
    // Storage blocked: the banner still shows until the page is reloaded.
  }
  listeners.forEach((l) => l());
}

export const confirmBanner = {
  /** Shows the banner; `role` (from the login refusal or the sign-up) picks its sentence. */
  raise: (role: BannerRole | null = null) => set({ raised: true, role: role ?? state.role, dismissed: false }),
  dismiss: () => set({ ...state, dismissed: true }),
  /** Sign-out, successful sign-in and a confirmed session clear it. */
  reset: () => {
    if (state.raised || state.dismissed || state.role) set(EMPTY);
  },
};

/** The banner state, re-rendering on change. */
export function useConfirmBanner(): BannerState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
    () => EMPTY,
  );
}
