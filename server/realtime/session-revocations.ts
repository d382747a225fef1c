/**
 * Ended sessions, live (docs/decisions/0032): deleted session ids are NOTIFYed in the deleting
 * transaction, so they arrive only if it commits, and every process ends those sessions' live streams.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, DbOrTx } from '../db/client';

export const SESSION_REVOCATION_CHANNEL = 'session_revocations';

/** Session ids per NOTIFY payload: 100 × 64 hex characters stay under PostgreSQL's 8000 bytes. */
const IDS_PER_NOTIFY = 100;

/** Announces that `sessionIds` ended; call with the handle that deleted them, so a rollback drops it. */
export async function notifySessionsEnded(db: DbOrTx, sessionIds: readonly string[]): Promise<void> {
  for (let i = 0; i < sessionIds.length; i += IDS_PER_NOTIFY) {
    const payload = sessionIds.slice(i, i + IDS_PER_NOTIFY).join(',');
    await db.execute(sql`select pg_notify(${SESSION_REVOCATION_CHANNEL}, ${payload})`);
  }
}

/** 'check': notifications may have been missed. */
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

  /** `onSignal('ended')` when the session ends, `onSignal('check')` after a LISTEN reconnect. Returns the unwatch. */
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

/** The longest expiry timer (ms); Node's limit is ~24.8 days. */
const MAX_EXPIRY_TIMER_MS = 24 * 60 * 60 * 1000;

/**
 * Aborts `controller` when the session ends: on its revocation NOTIFY, or at its expiry, re-read when
 * due (`readExpiry`: null once gone). A failed read does not end the stream; it is retried and the last
 * expiry read still applies. Returns the unwatch.
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
  let knownExpiry = params.expiresAt;
  const check = async () => {
    if (controller.signal.aborted) return;
    let expiresAt: Date | null;
    try {
      expiresAt = await readExpiry();
    } catch {
      // A failed read says nothing about the session: ending here would close streams for good on
      // every database hiccup.
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
