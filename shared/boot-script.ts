/**
 * The boot script of a server-rendered public page (client/boot.ts, docs/decisions/0075): its
 * element carries the app script's address in this attribute, which the server writes.
 */
export const APP_ENTRY_ATTRIBUTE = 'data-app-entry';
