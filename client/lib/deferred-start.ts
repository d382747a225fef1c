/**
 * What a server-rendered public page's boot script (client/boot.ts) hands to the app when it
 * starts (docs/decisions/0075): the button the visitor clicked before the app could answer it.
 */

/** The button clicked before the app ran (the latest), and whether the app has taken it. */
export interface PendingClick {
  element: Element | null;
  done?: boolean;
}

declare global {
  interface Window {
    /** Set by the boot script of a server-rendered page. */
    lastslotPendingClick?: PendingClick;
  }
}

/**
 * Once the app has hydrated the page: clicks again the button clicked before (if it is still on
 * the page), now that React answers it, and stops the boot script recording. Does nothing on a
 * page without a boot script.
 */
export function replayPendingClick(): void {
  const pending = window.lastslotPendingClick;
  if (!pending || pending.done) return;
  pending.done = true;
  const element = pending.element;
  pending.element = null;
  if (element instanceof HTMLElement && element.isConnected) element.click();
}

/** Whether the app was started by a server-rendered page's boot script, at the visitor's first interaction. */
export function startedByInteraction(): boolean {
  return window.lastslotPendingClick !== undefined;
}
