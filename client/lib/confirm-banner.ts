/**
 * The 'Please confirm your email!' banner state that is not derived from the session: shown after
 * a login refused for an unconfirmed email (accounts spec §4), dismissed by the user.
 */
import { useSyncExternalStore } from 'react';

interface BannerState {
  /** Raised by a refused login (no session, so the role is unknown). */
  raisedByLogin: boolean;
  dismissed: boolean;
}

let state: BannerState = { raisedByLogin: false, dismissed: false };
const listeners = new Set<() => void>();

function set(next: Partial<BannerState>) {
  state = { ...state, ...next };
  listeners.forEach((l) => l());
}

export const confirmBanner = {
  raiseFromLogin: () => set({ raisedByLogin: true, dismissed: false }),
  dismiss: () => set({ dismissed: true }),
  /** Sign-out and successful sign-in clear it. */
  reset: () => set({ raisedByLogin: false, dismissed: false }),
};

export function useConfirmBanner(): BannerState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}
