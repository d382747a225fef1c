/**
 * Taps made before the app runs, on a page whose script loads at the visitor's first interaction
 * (client/boot.ts records them). Once the app has hydrated the page, the root route clicks the
 * recorded control again, now that React answers it; this is the one place that does so.
 */
import { useEffect } from 'react';
import { TAP_PENDING_ATTRIBUTE, type PendingTap } from '../../shared/boot-script';

declare global {
  interface Window {
    /** Set by client/boot.ts on a page whose app loads at the first interaction. */
    lastslotPendingTap?: PendingTap;
  }
}

/**
 * Clicks again the control tapped before the app ran (if it is still on the page; a list box whose
 * choice changed is announced as changed instead), clears its "tap taken" mark and stops the boot
 * script recording. Does nothing on a page without one.
 */
export function replayTapBeforeStart(): void {
  const pending = window.lastslotPendingTap;
  if (!pending || pending.done) return;
  pending.done = true;
  document.documentElement.removeAttribute(TAP_PENDING_ATTRIBUTE);
  const element = pending.element;
  pending.element = null;
  if (!(element instanceof HTMLElement)) return;
  element.removeAttribute(TAP_PENDING_ATTRIBUTE);
  element.removeAttribute('aria-busy');
  if (!element.isConnected) return;
  if (element instanceof HTMLInputElement || element instanceof HTMLSelectElement) {
    // A press first has React hydrate the part of the page it is in, if it has not yet: a box or
    // radio checked while React hydrates it would be taken as its starting state, not a change.
    element.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
  }
  if (element instanceof HTMLSelectElement) element.dispatchEvent(new Event('change', { bubbles: true }));
  else element.click();
}

/** Whether the app was started by the visitor's first interaction with a page (client/boot.ts). */
export function startedByInteraction(): boolean {
  return typeof window !== 'undefined' && window.lastslotPendingTap !== undefined;
}

/** Runs `replayTapBeforeStart` once the first render has been committed (hydration done). */
export function useReplayTapBeforeStart(): void {
  useEffect(() => {
    const frame = requestAnimationFrame(replayTapBeforeStart);
    return () => cancelAnimationFrame(frame);
  }, []);
}
