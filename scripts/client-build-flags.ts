/**
 * Build-time switches of the client bundle, read by vite.config.ts.
 *
 * The development mailbox (/dev/mailbox) is left out of a client built with NODE_ENV=production.
 * `vite build` sets NODE_ENV=production itself when it is unset, before vite.config.ts runs, so
 * the value the build was started with is read from the process's initial environment
 * (/proc/self/environ on Linux). Where that cannot be read, only an explicit
 * LASTSLOT_DEV_MAILBOX=true includes the mailbox in a build. LASTSLOT_DEV_MAILBOX=true|false always
 * wins. See docs/decisions/0032.
 */
import { readFileSync } from 'node:fs';

/** NODE_ENV as the process was started (undefined when unset), or null when unknowable. */
export function startupNodeEnv(environFile = '/proc/self/environ'): string | undefined | null {
  try {
    const entry = readFileSync(environFile, 'latin1')
      .split('\0')
      .find((e) => e.startsWith('NODE_ENV='));
    return entry === undefined ? undefined : entry.slice('NODE_ENV='.length);
  } catch {
    return null;
  }
}

/**
 * Whether the client bundle includes the development mailbox. `override` is LASTSLOT_DEV_MAILBOX;
 * `startNodeEnv` is `startupNodeEnv()`; `command` is Vite's ('serve' for the dev server).
 */
export function includeDevMailbox(
  override: string | undefined,
  startNodeEnv: string | undefined | null,
  command: 'serve' | 'build',
): boolean {
  if (override === 'true' || override === 'false') return override === 'true';
  if (startNodeEnv === null) return command === 'serve';
  return startNodeEnv !== 'production';
}
