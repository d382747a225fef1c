/**
 * What a person did before the app ran: the values typed or chosen in the page's fields (recorded
 * by the app's entry, client/lib/input-before-start.ts, on every page) and, on a page whose script
 * loads at the visitor's first interaction, the control tapped (client/boot.ts records it). Once
 * the app has hydrated the page, the root route sets the values again through React, then clicks
 * the recorded control again, now that React answers it, opens a list tapped and sends again a form
 * sent before the app ran (client/lib/hold-before-start.ts); this is the one place that does so.
 */
import { useEffect } from 'react';
import { TAP_PENDING_ATTRIBUTE, type PendingTap } from '../../shared/boot-script';
import { replayInputBeforeStart } from './input-before-start';
import { replayHeld, takeHeld } from './hold-before-start';

declare global {
  interface Window {
    /** Set by client/boot.ts on a page whose app loads at the first interaction. */
    lastslotPendingTap?: PendingTap;
  }
}

/**
 * Clicks again the control tapped before the app ran (if it is still on the page; a list box's
 * choice is set again with the other values, by `replayInputBeforeStart`), clears its "tap taken"
 * mark.
 */
function replayTap(pending: PendingTap): void {
  document.documentElement.removeAttribute(TAP_PENDING_ATTRIBUTE);
  const element = pending.element;
  pending.element = null;
  if (!(element instanceof HTMLElement)) return;
  element.removeAttribute(TAP_PENDING_ATTRIBUTE);
  element.removeAttribute('aria-busy');
  if (!element.isConnected || element instanceof HTMLSelectElement) return;
  if (element instanceof HTMLInputElement) {
    // A press first has React hydrate the part of the page it is in, if it has not yet: a box or
    // radio checked while React hydrates it would be taken as its starting state, not a change.
    element.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
  }
  element.click();
}

/**
 * Sets again what the person typed or chose before the app ran (`replayInputBeforeStart`), then,
 * once React has rendered those values, answers the control tapped meanwhile (a button pressed),
 * opens the list tapped and sends again the form sent meanwhile (client/lib/hold-before-start.ts),
 * so they act on them.
 */
export function replayTapBeforeStart(): void {
  const pending = window.lastslotPendingTap;
  const tap = pending && !pending.done ? pending : null;
  // The boot script records no more from now on.
  if (tap) tap.done = true;
  replayInputBeforeStart(() => {
    const held = takeHeld();
    if (!tap && !held) return;
    setTimeout(() => {
      if (tap) replayTap(tap);
      if (held) replayHeld(held);
    });
  });
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
