/**
 * What the boot script (client/boot.ts) of a page whose app loads at the first interaction shares
 * with the server that writes its element and with the app that takes over from it. Kept apart from
 * the app's modules: whatever the boot script imports goes into its own small file.
 */

/** The boot script's element carries the app script's address in this attribute. */
export const APP_ENTRY_ATTRIBUTE = 'data-app-entry';

/**
 * Set on a control tapped before the app ran, and on `<html>` while the app is on its way: the
 * page's CSS shows the visitor that the tap was taken.
 */
export const TAP_PENDING_ATTRIBUTE = 'data-tap-pending';

/** The control tapped before the app ran (the latest), and whether the app has taken it. */
export interface PendingTap {
  element: Element | null;
  done?: boolean;
}

/** The header by which the server render says its page loads the app at the first interaction. */
export const APP_AT_FIRST_INTERACTION_HEADER = 'x-app-at-first-interaction';
