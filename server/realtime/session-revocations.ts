/**
 * Ended sessions, live (docs/decisions/0032): whenever sessions are deleted (logout, password
 * change or reset, account deletion, expiry), their ids are sent with NOTIFY on
 * `session_revocations` in the same transaction, so PostgreSQL delivers them when (and only if) the
 * deletion commits. Each process holds one LISTEN (on the same connection as the booking events)
 * and tells the live streams of those sessions to end, on every instance, within moments.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, DbOrTx } from '../db/client';

export const SESSION_REVOCATION_CHANNEL = 'session_revocations';

/** Session ids per NOTIFY payload: 100 × 64 hex characters stay under PostgreSQL's 8000 bytes. */
const IDS_PER_NOTIFY = 100;

/**
 * Announces that the sessions `sessionIds` (hex SHA-256 ids) ended. Call it with the handle that
 * deleted them: inside a transaction the notification is delivered at commit and dropped on
 * rollback.
 */
export async function notifySessionsEnded(db: DbOrTx, sessionIds: readonly string[]): Promise<void> {
  for (let i = 0; i < sessionIds.length; i += IDS_PER_NOTIFY) {
    const payload = sessionIds.slice(i, i + IDS_PER_NOTIFY).join(',');
    await db.execute(sql`select pg_notify(${SESSION_REVOCATION_CHANNEL}, ${payload})`);
  }
}

/** What a watcher hears: its session ended, or notifications may have been missed (check it). */
export type SessionSignal = 'ended' | 'check';

/** The process's fan-out of ended sessions to the live streams that use them. */
export class SessionRevocations {
  private readonly emitter = new EventEmitter();
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly database: Pick<Database, 'listen'>,
    private readonly logger: Logger,
  ) {
    this.emitter.setMaxListeners(0);
  }

  /** Starts this process's LISTEN. */
  async start(): Promise<void> {
    this.unlisten = await this.database.listen(
      SESSION_REVOCATION_CHANNEL,
      (payload) => {
        for (const id of payload.split(',')) if (id) this.emitter.emit(`ended:${id}`);
      },
      () => {
        // The LISTEN connection was lost and is back: an ending may have been missed.
        this.logger.warn('session revocations: LISTEN reconnected; asking streams to check their session');
        this.emitter.emit('check');
      },
    );
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = null;
    this.emitter.removeAllListeners();
  }

  /**
   * Calls `onSignal('ended')` when session `sessionId` ends and `onSignal('check')` after a
   * reconnection of the LISTEN (endings may have been missed). Returns the function that stops
   * watching.
   */
  watch(sessionId: string, onSignal: (signal: SessionSignal) => void): () => void {
    const ended = () => onSignal('ended');
    const check = () => onSignal('check');
    this.emitter.on(`ended:${sessionId}`, ended);
    this.emitter.on('check', check);
    return () => {
      this.emitter.off(`ended:${sessionId}`, ended);
      this.emitter.off('check', check);
    };
  }
}

/** How soon a stream reads its session again after a failed read (ms). */
const READ_RETRY_MS = 1_000;

/** The longest timer a stream arms before re-reading its session's expiry (Node's limit is ~24.8 days). */
const MAX_EXPIRY_TIMER_MS = 24 * 60 * 60 * 1000;

/**
 * Aborts `controller` when the session ends: at once on its revocation NOTIFY, after one read of
 * the session right away (an ending just before the watch began), and at its natural expiry (a
 * timer at `expiresAt`, re-armed when the session was renewed meanwhile; also re-read after a
 * LISTEN reconnection). `readExpiry` returns the session's current expiry, or null when it
 * is gone. A read that fails (database unreachable) does not end the stream: it is retried after
 * READ_RETRY_MS, and the last expiry read still ends the stream once passed. Returns the function
 * that stops watching (call it when the stream ends).
 */
export function endWithSession(params: {
  revocations: Pick<SessionRevocations, 'watch'>;
  sessionId: string;
  expiresAt: Date;
  now: () => Date;
  readExpiry: () => Promise<Date | null>;
  controller: AbortController;
}): () => void {
  const { controller, now, readExpiry } = params;
  let timer: NodeJS.Timeout | undefined;
  const end = () => controller.abort();
  const arm = (expiresAt: Date) => {
    clearTimeout(timer);
    const wait = Math.min(Math.max(expiresAt.getTime() - now().getTime(), 0), MAX_EXPIRY_TIMER_MS);
    timer = setTimeout(() => void check(), wait);
    timer.unref();
  };
  // The latest expiry read: what ends the stream while the database cannot be read.
  let knownExpiry = params.expiresAt;
  const check = async () => {
    if (controller.signal.aborted) return;
    let expiresAt: Date | null;
    try {
      expiresAt = await readExpiry();
    } catch {
      // The read failed (a dropped connection, a database restart): that says nothing about the
      // session, and ending here would close a live stream for good on every database hiccup. A
      // revocation NOTIFY still ends it at once; the session is read again shortly, and the last
      // known expiry still applies.
      if (knownExpiry.getTime() <= now().getTime()) return end();
      clearTimeout(timer);
      timer = setTimeout(() => void check(), READ_RETRY_MS);
      timer.unref();
      return;
    }
    if (!expiresAt || expiresAt.getTime() <= now().getTime()) return end();
    knownExpiry = expiresAt;
    arm(expiresAt);
  };
  const unwatch = params.revocations.watch(params.sessionId, (signal) => (signal === 'ended' ? end() : void check()));
  arm(params.expiresAt);
  // An ending announced between the caller's session read and `watch` would be missed: read once.
  void check();
  return () => {
    clearTimeout(timer);
    unwatch();
  };
}
