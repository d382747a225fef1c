/**
 * What the boot script (client/boot.ts) of a page whose app loads at the first interaction shares
 * with the server that writes its element. Kept apart from the app's modules: whatever the boot
 * script imports goes into its own small file.
 */

/** The boot script's element carries the app script's address in this attribute. */
export const APP_ENTRY_ATTRIBUTE = 'data-app-entry';

/** The header by which the server render says its page loads the app at the first interaction. */
export const APP_AT_FIRST_INTERACTION_HEADER = 'x-app-at-first-interaction';
