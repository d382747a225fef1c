/**
 * Outbox dispatcher: first resolves queued email intents (docs/decisions/0033) into real messages,
 * then skips the due booking notifications nobody should get any more (recipient opted out or
 * gone, reminder of a booking no longer active; docs/decisions/0053, 0054), claims the other due
 * messages (FOR UPDATE SKIP LOCKED, safe with several processes), renders and sends them, and
 * retries failures with exponential backoff (30 s doubling, up to 8 attempts).
 */
import { and, asc, eq, inArray, isNotNull, like, lte, notLike, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { KINDS_NEEDING_ACTIVE_BOOKING } from '../../shared/notifications';
import type { Db, Tx } from '../db/client';
import { bookings, emailOutbox, notificationOptOuts, users } from '../db/schema/index';
import { EMAIL_INTENT_PREFIX, emailIntentKind, type EmailIntent } from './outbox';
import { renderEmail } from './render';
import type { MailTransport } from './transports';

export const MAX_ATTEMPTS = 8;
const BASE_BACKOFF_MS = 30_000;

/**
 * Turns one intent into its real message(s) inside `tx` (the transaction that removes the intent),
 * or does nothing to drop it. Provided by the process wiring (server/runtime.ts), so this module
 * knows nothing of accounts.
 */
export type EmailIntentResolver = (tx: Tx, intent: EmailIntent) => Promise<void>;

const INTENT_PATTERN = `${EMAIL_INTENT_PREFIX}%`;

/** Pending outbox rows whose next attempt (and send-after time) is due at `now`: the intents, or the messages. */
function isDue(now: Date, kind: 'intents' | 'messages') {
  return and(
    eq(emailOutbox.status, 'pending'),
    lte(emailOutbox.nextAttemptAt, now),
    lte(emailOutbox.sendAfter, now),
    kind === 'intents' ? like(emailOutbox.subject, INTENT_PATTERN) : notLike(emailOutbox.subject, INTENT_PATTERN),
  );
}

/**
 * The row update after failed attempt number `attempts` (from 1): retried 30 s × 2^(attempts-1)
 * after `now`, or 'failed' from MAX_ATTEMPTS on.
 */
function afterFailure(attempts: number, now: Date, lastError: string) {
  return {
    status: attempts >= MAX_ATTEMPTS ? ('failed' as const) : ('pending' as const),
    lastError,
    nextAttemptAt: new Date(now.getTime() + BASE_BACKOFF_MS * 2 ** (attempts - 1)),
  };
}

/**
 * Resolves up to `batch` due intents once, each in its own transaction that deletes the intent
 * row (a row another process deleted first is skipped) and runs `resolve`. A resolver failure
 * leaves the intent for a retry with the messages' backoff (failed after 8 attempts). Returns how
 * many were resolved or dropped.
 */
export async function resolveEmailIntentsOnce(params: {
  db: Db;
  resolve: EmailIntentResolver;
  logger: Logger;
  now?: Date;
  batch?: number;
}): Promise<number> {
  const { db, resolve, logger } = params;
  const now = params.now ?? new Date();
  const due = await db
    .select({
      id: emailOutbox.id,
      to: emailOutbox.toAddress,
      subject: emailOutbox.subject,
      attempts: emailOutbox.attempts,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(isDue(now, 'intents'))
    .orderBy(asc(emailOutbox.createdAt))
    .limit(params.batch ?? 20);
  let done = 0;
  for (const row of due) {
    try {
      await db.transaction(async (tx) => {
        const [claimed] = await tx
          .delete(emailOutbox)
          .where(and(eq(emailOutbox.id, row.id), eq(emailOutbox.status, 'pending')))
          .returning({ id: emailOutbox.id });
        if (!claimed) return;
        const kind = emailIntentKind(row.subject);
        if (kind) await resolve(tx, { kind, to: row.to, requestedAt: row.createdAt });
      });
      done++;
    } catch (err) {
      const attempts = row.attempts + 1;
      logger.warn({ err, outboxId: row.id, attempts }, 'email intent could not be resolved');
      await db
        .update(emailOutbox)
        .set({ attempts, ...afterFailure(attempts, now, 'intent could not be resolved') })
        .where(eq(emailOutbox.id, row.id));
    }
  }
  return done;
}

/**
 * Marks `skipped` (never sent) the due booking notifications that must not go: the recipient turned
 * the kind off (notification_opt_outs), the recipient's account is gone, or the notification
 * (a reminder) is about a booking that is no longer confirmed or completed. Returns how many.
 */
async function skipUnwanted(tx: Tx, now: Date): Promise<number> {
  const needsActive = sql.join(
    KINDS_NEEDING_ACTIVE_BOOKING.map((k) => sql`${k}`),
    sql`, `,
  );
  const skipped = await tx
    .update(emailOutbox)
    .set({
      status: 'skipped',
      lastError: sql`case
        when not exists (select 1 from ${users} where ${users.id} = ${emailOutbox.userId}) then 'recipient account deleted'
        when exists (select 1 from ${notificationOptOuts} where ${notificationOptOuts.userId} = ${emailOutbox.userId} and ${notificationOptOuts.kind} = ${emailOutbox.kind}) then 'recipient opted out'
        else 'booking no longer active' end`,
    })
    .where(
      and(
        isDue(now, 'messages'),
        isNotNull(emailOutbox.kind),
        sql`(
          not exists (select 1 from ${users} where ${users.id} = ${emailOutbox.userId})
          or exists (select 1 from ${notificationOptOuts} where ${notificationOptOuts.userId} = ${emailOutbox.userId} and ${notificationOptOuts.kind} = ${emailOutbox.kind})
          or (${emailOutbox.kind} in (${needsActive}) and not exists (
            select 1 from ${bookings} where ${bookings.id} = ${emailOutbox.bookingId} and ${bookings.status} in ('confirmed', 'completed')))
        )`,
      ),
    )
    .returning({ id: emailOutbox.id });
  return skipped.length;
}

/** The one-click unsubscribe headers (RFC 8058) of a notification whose props carry its link. */
function unsubscribeHeaders(props: Record<string, unknown> | null): Record<string, string> | undefined {
  const footer = props?.footer as { unsubscribeUrl?: unknown } | undefined;
  if (typeof footer?.unsubscribeUrl !== 'string') return undefined;
  return {
    'List-Unsubscribe': `<${footer.unsubscribeUrl}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

/**
 * Renders (when not yet rendered) and sends up to `batch` due messages once (intents are left to
 * `resolveEmailIntentsOnce`); unwanted notifications are skipped first. Returns how many were
 * sent. Never throws for a render or delivery failure (it is recorded on the row and retried);
 * throws only when the database itself fails.
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
    await skipUnwanted(tx, now);
    const due = await tx
      .select()
      .from(emailOutbox)
      .where(isDue(now, 'messages'))
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
      const body =
        message.template && !message.html
          ? await renderEmail(message.template, message.props ?? {})
          : { html: message.html, text: message.text };
      const providerMessageId = await transport.send({
        from,
        to: message.toAddress,
        subject: message.subject,
        html: body.html,
        text: body.text,
        attachments: message.attachments ?? undefined,
        headers: unsubscribeHeaders(message.props),
      });
      await db
        .update(emailOutbox)
        .set({ status: 'sent', sentAt: new Date(), providerMessageId, lastError: null, ...body })
        .where(eq(emailOutbox.id, message.id));
      sent++;
    } catch (err) {
      logger.warn({ err, outboxId: message.id, attempts }, 'email delivery failed');
      const lastError = err instanceof Error ? err.message.slice(0, 500) : 'unknown error';
      await db
        .update(emailOutbox)
        .set(afterFailure(attempts, now, lastError))
        .where(eq(emailOutbox.id, message.id));
    }
  }
  return sent;
}

/**
 * Runs the dispatcher every `intervalMs` (and on `kick()`), until `stop()`: resolves due intents
 * with `resolveIntent` (when given), then sends due messages until none is left.
 */
export function startOutboxDispatcher(params: {
  db: Db;
  transport: MailTransport;
  from: string;
  logger: Logger;
  resolveIntent?: EmailIntentResolver;
  intervalMs?: number;
}): { kick(): void; stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (stopped || running) return;
    running = (async () => {
      try {
        const resolve = params.resolveIntent;
        if (resolve) {
          while (!stopped && (await resolveEmailIntentsOnce({ ...params, resolve })) > 0) {
            /* drain */
          }
        }
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
