/**
 * Outbox dispatcher: claims due messages (FOR UPDATE SKIP LOCKED, safe with several processes),
 * sends them, and retries failures with exponential backoff (30 s doubling, up to 8 attempts).
 */
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import { emailOutbox } from '../db/schema/index';
import type { MailTransport } from './transports';

export const MAX_ATTEMPTS = 8;
const BASE_BACKOFF_MS = 30_000;

/**
 * Sends up to `batch` due messages once. Returns how many were sent. Never throws for a delivery
 * failure (it is recorded on the row); throws only when the database itself fails.
 */
export async function dispatchOutboxOnce(params: {
  db: Db;
  transport: MailTransport;
  from: string;
  logger: Logger;
  now?: Date;
  batch?: number;
}): Promise<number> {
  const { db, transport, from, logger } = params;
  const now = params.now ?? new Date();
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, now)))
      .orderBy(asc(emailOutbox.createdAt))
      .limit(params.batch ?? 20)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    // Push the claimed rows into the future so another process does not pick them up meanwhile.
    await tx
      .update(emailOutbox)
      .set({ nextAttemptAt: new Date(now.getTime() + 5 * 60_000), attempts: sql`${emailOutbox.attempts} + 1` })
      .where(
        inArray(
          emailOutbox.id,
          due.map((m) => m.id),
        ),
      );
    return due;
  });
  let sent = 0;
  for (const message of claimed) {
    const attempts = message.attempts + 1;
    try {
      const providerMessageId = await transport.send({
        from,
        to: message.toAddress,
        subject: message.subject,
        html: message.html,
        text: message.text,
      });
      await db
        .update(emailOutbox)
        .set({ status: 'sent', sentAt: new Date(), providerMessageId, lastError: null })
        .where(eq(emailOutbox.id, message.id));
      sent++;
    } catch (err) {
      const failed = attempts >= MAX_ATTEMPTS;
      logger.warn({ err, outboxId: message.id, attempts }, 'email delivery failed');
      await db
        .update(emailOutbox)
        .set({
          status: failed ? 'failed' : 'pending',
          lastError: err instanceof Error ? err.message.slice(0, 500) : 'unknown error',
          nextAttemptAt: new Date(now.getTime() + BASE_BACKOFF_MS * 2 ** (attempts - 1)),
        })
        .where(eq(emailOutbox.id, message.id));
    }
  }
  return sent;
}

/** Runs the dispatcher every `intervalMs` (and on `kick()`), until `stop()`. */
export function startOutboxDispatcher(params: {
  db: Db;
  transport: MailTransport;
  from: string;
  logger: Logger;
  intervalMs?: number;
}): { kick(): void; stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (stopped || running) return;
    running = (async () => {
      try {
        while (!stopped && (await dispatchOutboxOnce(params)) > 0) {
          /* drain */
        }
      } catch (err) {
        params.logger.error({ err }, 'outbox dispatcher failed');
      } finally {
        running = null;
      }
    })();
  };
  const timer = setInterval(run, params.intervalMs ?? 2000);
  timer.unref();
  run();
  return {
    kick: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
