/**
 * What a person did before the app ran, answered once it has hydrated the page: the values typed
 * or chosen in the page's fields (recorded by the app's entry, client/lib/input-before-start.ts)
 * and what the page's head held meanwhile, on every page (client/lib/hold-before-start.ts: the
 * control tapped, the list tapped, the form sent). The root route sets the values again through
 * React, then answers what was held, now that React renders those values; this is the one place
 * that does so.
 */
import { useEffect } from 'react';
import { replayInputBeforeStart } from './input-before-start';
import { replayHeld, takeHeld } from './hold-before-start';

declare global {
  interface Window {
    /** Set by client/boot.ts when the visitor's first interaction loads the page's app. */
    lastslotStartedByInteraction?: boolean;
  }
}

/**
 * Sets again what the person typed or chose before the app ran (`replayInputBeforeStart`), then,
 * once React has rendered those values, answers what the page's head held meanwhile
 * (`takeHeld`, `replayHeld`: the control tapped is clicked again, the list tapped opens, the form
 * sent is sent again), so they act on them.
 */
export function replayTapBeforeStart(): void {
  replayInputBeforeStart(() => {
    const held = takeHeld();
    if (held) setTimeout(() => replayHeld(held));
  });
}

/** Whether the app was started by the visitor's first interaction with a page (client/boot.ts). */
export function startedByInteraction(): boolean {
  return typeof window !== 'undefined' && window.lastslotStartedByInteraction === true;
}

/** Runs `replayTapBeforeStart` once the first render has been committed (hydration done). */
export function useReplayTapBeforeStart(): void {
  useEffect(() => {
    const frame = requestAnimationFrame(replayTapBeforeStart);
    return () => cancelAnimationFrame(frame);
  }, []);
}
