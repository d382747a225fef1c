/**
 * Keeps every open tab on the same session: a session change in another tab updates this tab. The
 * session cookie is shared by all tabs already; this tells the other tabs to ask the server again.
 * BroadcastChannel where available, else a storage event.
 */
const CHANNEL = 'lastslot-session';
const STORAGE_KEY = 'lastslot.sessionChanged';

/**
 * 'ending': a tab is asking the server to end the session (logout, account deletion), so an ended
 * session that any tab hears of before the 'logout' that follows is deliberate, not an expiry;
 * 'kept': the server refused, and a later end is news again.
 */
export type SessionChange = 'login' | 'logout' | 'changed' | 'ending' | 'kept';

let channel: BroadcastChannel | null = null;
function getChannel(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel(CHANNEL);
  return channel;
}

/** Tells the other tabs of this browser that the session changed (login, logout, password...). */
export function broadcastSessionChange(kind: SessionChange = 'changed'): void {
  const ch = getChannel();
  if (ch) {
    ch.postMessage(kind);
    return;
  }
  try {
    window.localStorage.setItem(STORAGE_KEY, `${kind}:${Date.now()}`);
  } catch {
    // Storage blocked: the 30 s consistency check still catches up.
  }
}

/** Calls `onChange` when another tab reports a session change. Returns the unsubscribe function. */
export function onSessionChangeElsewhere(onChange: (kind: SessionChange) => void): () => void {
  const ch = getChannel();
  if (ch) {
    const listener = (e: MessageEvent) => onChange(e.data as SessionChange);
    ch.addEventListener('message', listener);
    return () => ch.removeEventListener('message', listener);
  }
  const listener = (e: StorageEvent) => {
    if (e.key === STORAGE_KEY && e.newValue) onChange(e.newValue.split(':')[0] as SessionChange);
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}

let localChange = false;

/** Marks the next session change as made by this tab on purpose (login, logout), not an expiry. */
export function markLocalSessionChange(): void {
  localChange = true;
}

/**
 * Call just before asking the server to end this browser's session (logout, account deletion):
 * every tab, this one included, may hear of the ended session before the server's answer (its
 * periodic check, another request), and must take it as deliberate, not as 'Session Expired'.
 */
export function sessionEndStarting(): void {
  markLocalSessionChange();
  broadcastSessionChange('ending');
}

/** The server did not end the session after `sessionEndStarting`: a later end is news again. */
export function sessionEndAbandoned(): void {
  localChange = false;
  broadcastSessionChange('kept');
}

/** True once after `markLocalSessionChange`. */
export function consumeLocalSessionChange(): boolean {
  const was = localChange;
  localChange = false;
  return was;
}
