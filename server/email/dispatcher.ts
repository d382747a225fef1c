/**
 * Outbox dispatcher: first resolves queued email intents (docs/decisions/0033) into real messages,
 * then skips the due booking notifications nobody should get any more (recipient opted out or
 * gone, reminder of a booking no longer active; docs/decisions/0053, 0054), claims the other due
 * messages (FOR UPDATE SKIP LOCKED, safe with several processes), renders and sends them, and
 * retries failures with exponential backoff (30 s doubling, up to 8 attempts).
 */
import { and, asc, eq, inArray, isNotNull, like, lte, notLike, sql, type Placeholder } from 'drizzle-orm';
import type { Logger } from 'pino';
import { KINDS_NEEDING_ACTIVE_BOOKING } from '../../shared/notifications';
import type { Db, Tx } from '../db/client';
import { encodedAs, preparedStatement } from '../db/prepared';
import { bookings, emailOutbox, notificationOptOuts, users } from '../db/schema/index';
import { EMAIL_INTENT_PREFIX, emailIntentKind, type EmailIntent } from './outbox';
import { renderEmail } from './render';
import type { MailTransport } from './transports';

export const MAX_ATTEMPTS = 8;
const BASE_BACKOFF_MS = 30_000;
/** How long a claimed message is kept from other processes while this one sends it. */
const CLAIM_MS = 5 * 60_000;

/**
 * Turns one intent into its real message(s) inside `tx` (the transaction that removes the intent),
 * or does nothing to drop it. Provided by the process wiring (server/runtime.ts), so this module
 * knows nothing of accounts.
 */
export type EmailIntentResolver = (tx: Tx, intent: EmailIntent) => Promise<void>;

const INTENT_PATTERN = `${EMAIL_INTENT_PREFIX}%`;

/**
 * Pending outbox rows whose next attempt (and send-after time) is due at `now` (a placeholder of
 * a prepared statement): the intents, or the messages.
 */
function isDue(now: Placeholder, kind: 'intents' | 'messages') {
  return and(
    eq(emailOutbox.status, 'pending'),
    lte(emailOutbox.nextAttemptAt, encodedAs(now, emailOutbox.nextAttemptAt)),
    lte(emailOutbox.sendAfter, encodedAs(now, emailOutbox.sendAfter)),
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
  const due = await dueIntents(db, { now, batch: params.batch ?? 20 });
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

/** Up to `batch` due intents, oldest first. */
const dueIntents = preparedStatement<{ now: Date; batch: number }>()('outbox_due_intents', (db, p) =>
  db
    .select({
      id: emailOutbox.id,
      to: emailOutbox.toAddress,
      subject: emailOutbox.subject,
      attempts: emailOutbox.attempts,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(isDue(p.now, 'intents'))
    .orderBy(asc(emailOutbox.createdAt))
    .limit(p.batch),
);

/**
 * Marks `skipped` (never sent) the due booking notifications that must not go: the recipient turned
 * the kind off (notification_opt_outs), the recipient's account is gone, or the notification
 * (a reminder) is about a booking that is no longer confirmed or completed. One statement, so it
 * needs no transaction of its own.
 */
const skipUnwanted = preparedStatement<{ now: Date }>()('outbox_skip_unwanted', (db, p) =>
  db
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
        isDue(p.now, 'messages'),
        isNotNull(emailOutbox.kind),
        sql`(
          not exists (select 1 from ${users} where ${users.id} = ${emailOutbox.userId})
          or exists (select 1 from ${notificationOptOuts} where ${notificationOptOuts.userId} = ${emailOutbox.userId} and ${notificationOptOuts.kind} = ${emailOutbox.kind})
          or (${emailOutbox.kind} in (${sql.join(
            KINDS_NEEDING_ACTIVE_BOOKING.map((k) => sql`${k}`),
            sql`, `,
          )}) and not exists (
            select 1 from ${bookings} where ${bookings.id} = ${emailOutbox.bookingId} and ${bookings.status} in ('confirmed', 'completed')))
        )`,
      ),
    ),
);

/**
 * Claims up to `batch` due messages, oldest first, in one statement: locks them (SKIP LOCKED, so
 * concurrent processes claim different rows), pushes their next attempt to `claimUntil` so no other
 * process picks them up meanwhile, counts the attempt, and returns the rows as updated (any order).
 */
const claimDue = preparedStatement<{ now: Date; claimUntil: Date; batch: number }>()('outbox_claim_due', (db, p) =>
  db
    .update(emailOutbox)
    .set({
      nextAttemptAt: encodedAs(p.claimUntil, emailOutbox.nextAttemptAt),
      attempts: sql`${emailOutbox.attempts} + 1`,
    })
    .where(
      inArray(
        emailOutbox.id,
        db
          .select({ id: emailOutbox.id })
          .from(emailOutbox)
          .where(isDue(p.now, 'messages'))
          .orderBy(asc(emailOutbox.createdAt))
          .limit(p.batch)
          .for('update', { skipLocked: true }),
      ),
    )
    .returning(),
);

/** Message `id` delivered at `sentAt` as `providerMessageId`, with the bodies it was sent with. */
const markSent = preparedStatement<{
  id: string;
  sentAt: Date;
  providerMessageId: string;
  html: string;
  text: string;
}>()('outbox_mark_sent', (db, p) =>
  db
    .update(emailOutbox)
    .set({
      status: 'sent',
      sentAt: encodedAs(p.sentAt, emailOutbox.sentAt),
      providerMessageId: encodedAs(p.providerMessageId, emailOutbox.providerMessageId),
      lastError: null,
      html: encodedAs(p.html, emailOutbox.html),
      text: encodedAs(p.text, emailOutbox.text),
    })
    .where(eq(emailOutbox.id, p.id)),
);

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
 * throws only when the database itself fails. `onClaimed` hears how many messages were claimed
 * (sent or failed), so a caller can tell a full batch from the last one.
 */
export async function dispatchOutboxOnce(params: {
  db: Db;
  transport: MailTransport;
  from: string;
  logger: Logger;
  now?: Date;
  batch?: number;
  onClaimed?: (count: number) => void;
}): Promise<number> {
  const { db, transport, from, logger } = params;
  const now = params.now ?? new Date();
  await skipUnwanted(db, { now });
  const claimed = await claimDue(db, {
    now,
    claimUntil: new Date(now.getTime() + CLAIM_MS),
    batch: params.batch ?? 20,
  });
  params.onClaimed?.(claimed.length);
  claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  let sent = 0;
  for (const message of claimed) {
    // The claim counted this attempt.
    const attempts = message.attempts;
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
      await markSent(db, { id: message.id, sentAt: new Date(), providerMessageId, ...body });
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

/** A running dispatcher: `kick()` asks for a run now; `stop()` resolves once the run under way ended. */
export interface OutboxDispatcher {
  kick(): void;
  stop(): Promise<void>;
}

/**
 * Runs the dispatcher every `intervalMs` (and on `kick()`), until `stop()`: resolves due intents
 * with `resolveIntent` (when given), then sends due messages until a batch comes back short. A
 * `kick()` while a run is under way (a change committed meanwhile) makes the run go round once
 * more, so the run needs no empty pass to find the messages queued while it sent.
 */
export function startOutboxDispatcher(params: {
  db: Db;
  transport: MailTransport;
  from: string;
  logger: Logger;
  resolveIntent?: EmailIntentResolver;
  intervalMs?: number;
  batch?: number;
}): OutboxDispatcher {
  const batch = params.batch ?? 20;
  let running: Promise<void> | null = null;
  let stopped = false;
  let kicked = false;
  const run = () => {
    kicked = true;
    if (stopped || running) return;
    running = (async () => {
      try {
        while (!stopped && kicked) {
          kicked = false;
          const resolve = params.resolveIntent;
          if (resolve) {
            while (!stopped && (await resolveEmailIntentsOnce({ ...params, resolve, batch })) === batch) {
              /* drain */
            }
          }
          let claimed = batch;
          while (!stopped && claimed === batch) {
            await dispatchOutboxOnce({ ...params, batch, onClaimed: (n) => (claimed = n) });
          }
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
