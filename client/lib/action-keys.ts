/**
 * Idempotency keys for user actions (docs/decisions/0034-idempotent-booking-actions.md). An action
 * (e.g. "request this slot with these notes", "confirm this booking") gets a fresh UUID the first
 * time the user starts it, and the same UUID when the user tries it again after an answer that
 * never arrived (a timeout, a lost connection, a server failure), so the server applies it once and
 * answers the retry with the first answer. A definite answer (success or a refusal) ends the
 * action: the next attempt is a new action with a new key.
 */
import { useMemo, useRef } from 'react';
import { isAnswer } from './trpc';

/**
 * A random UUID v4. `crypto.randomUUID` exists only in secure contexts (https, localhost); a page
 * served over plain http elsewhere builds one from `getRandomValues`, which exists everywhere.
 */
export function newActionKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whether `err` (undefined: success) is a definite answer, i.e. not a lost or failed call. */
export function isDefiniteAnswer(err?: unknown): boolean {
  return err === undefined || isAnswer(err);
}

/**
 * Keys of the actions started in this component. `keyFor(action)`: the action's key, made on first
 * use; `settle(action, err?)`: forgets it after a definite answer (`err` undefined: success).
 */
export function useActionKeys() {
  const keys = useRef(new Map<string, string>());
  return useMemo(
    () => ({
      keyFor(action: string): string {
        let key = keys.current.get(action);
        if (!key) {
          key = newActionKey();
          keys.current.set(action, key);
        }
        return key;
      },
      settle(action: string, err?: unknown): void {
        if (isDefiniteAnswer(err)) keys.current.delete(action);
      },
    }),
    [],
  );
}
