/**
 * The Mailer port (the transactional outbox). Callers write a message into the outbox inside the same transaction
 * as the change that causes it; the dispatcher (dispatcher.ts) renders and delivers it later, with retries.
 */
import { and, desc, inArray, isNotNull, lt, ne, notLike, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { preparedStatement } from '../db/prepared';
import { emailOutbox } from '../db/schema/index';
import type { EmailMessage } from './templates';

export type { EmailMessage } from './templates';

/**
 * What makes a message a booking notification (docs/decisions/0050): its kind (the preference the
 * recipient may turn off), the recipient's account, the booking it is about, the dedupe key (one
 * message per event: a second insert with the same key is ignored), the hash of its one-click
 * unsubscribe token, and the time before which it must not be sent (default: now).
 */
export interface NotificationMeta {
  kind: string;
  userId: string;
  bookingId: string | null;
  dedupeKey: string;
  unsubscribeTokenHash: string;
  sendAfter?: Date;
}

/**
 * Queues `message` for delivery. Use the caller's transaction so it commits with the change.
 * With `notification`, a message whose dedupe key is already in the outbox is not queued again.
 */
export async function enqueueEmail(
  db: DbOrTx,
  message: EmailMessage,
  now: Date = new Date(),
  notification?: NotificationMeta,
): Promise<void> {
  const sendAfter = notification?.sendAfter ?? now;
  await insertMessage(db, {
    toAddress: message.to,
    subject: message.subject,
    template: message.template,
    props: message.props,
    attachments: message.attachments ? JSON.stringify(message.attachments) : null,
    kind: notification?.kind ?? null,
    userId: notification?.userId ?? null,
    bookingId: notification?.bookingId ?? null,
    dedupeKey: notification?.dedupeKey ?? null,
    unsubscribeTokenHash: notification?.unsubscribeTokenHash ?? null,
    createdAt: now,
    sendAfter,
  });
}

/**
 * The outbox insert of `enqueueEmail`, prepared (every booking transition queues one or two).
 * `attachments` is the JSON text or null: a placeholder encoded as the jsonb column would store
 * JSON `null` instead of SQL NULL.
 */
const insertMessage = preparedStatement<{
  toAddress: string;
  subject: string;
  template: string;
  props: Record<string, unknown>;
  attachments: string | null;
  kind: string | null;
  userId: string | null;
  bookingId: string | null;
  dedupeKey: string | null;
  unsubscribeTokenHash: string | null;
  createdAt: Date;
  sendAfter: Date;
}>()('outbox_insert_message', (db, p) =>
  db
    .insert(emailOutbox)
    .values({
      toAddress: p.toAddress,
      subject: p.subject,
      template: p.template,
      props: p.props,
      attachments: sql`${p.attachments}`,
      kind: p.kind,
      userId: p.userId,
      bookingId: p.bookingId,
      dedupeKey: p.dedupeKey,
      unsubscribeTokenHash: p.unsubscribeTokenHash,
      createdAt: p.createdAt,
      sendAfter: p.sendAfter,
      nextAttemptAt: p.sendAfter,
    })
    .onConflictDoNothing({ target: emailOutbox.dedupeKey }),
);

/**
 * Account emails whose content depends on who owns an address (docs/decisions/0033). The request
 * only queues an intent (`enqueueEmailIntent`), the same row whether or not the address has an
 * account; the dispatcher later resolves it (looks the account up, issues the link, writes the real
 * message) or drops it. Answers therefore do the same work for every address.
 */
export type EmailIntentKind = 'password_reset' | 'email_confirmation';

const EMAIL_INTENT_KINDS: readonly EmailIntentKind[] = ['password_reset', 'email_confirmation'];

/** Outbox rows whose subject starts with this are intents, never sent as they are. */
export const EMAIL_INTENT_PREFIX = 'intent:';

/** A queued intent, as the dispatcher hands it to its resolver. */
export interface EmailIntent {
  kind: EmailIntentKind;
  /** The address the request named (lower-cased). */
  to: string;
  /** When the request was made. */
  requestedAt: Date;
}

/** Queues an intent for `to`: one outbox row, whatever the address. */
export async function enqueueEmailIntent(
  db: DbOrTx,
  kind: EmailIntentKind,
  to: string,
  now: Date = new Date(),
): Promise<void> {
  await db.insert(emailOutbox).values({
    toAddress: to,
    subject: `${EMAIL_INTENT_PREFIX}${kind}`,
    html: '',
    text: '',
    createdAt: now,
    sendAfter: now,
    nextAttemptAt: now,
  });
}

/** The intent kind of an outbox subject, or null for a real message. */
export function emailIntentKind(subject: string): EmailIntentKind | null {
  if (!subject.startsWith(EMAIL_INTENT_PREFIX)) return null;
  const kind = subject.slice(EMAIL_INTENT_PREFIX.length) as EmailIntentKind;
  return EMAIL_INTENT_KINDS.includes(kind) ? kind : null;
}

/**
 * The newest `limit` outbox messages, newest first, intents left out (they are requests not yet
 * resolved into a message): id, recipient `to`, subject, template and props, HTML and text bodies
 * (empty until rendered), attachments, kind, status, sendAfter, createdAt.
 */
export function latestOutboxMessages(db: DbOrTx, limit = 100) {
  return db
    .select({
      id: emailOutbox.id,
      to: emailOutbox.toAddress,
      subject: emailOutbox.subject,
      template: emailOutbox.template,
      props: emailOutbox.props,
      html: emailOutbox.html,
      text: emailOutbox.text,
      attachments: emailOutbox.attachments,
      kind: emailOutbox.kind,
      status: emailOutbox.status,
      sendAfter: emailOutbox.sendAfter,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(notLike(emailOutbox.subject, `${EMAIL_INTENT_PREFIX}%`))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(limit);
}

const DAY_MS = 24 * 60 * 60_000;
/** Finished messages keep their bodies and props this long (support, the dev mailbox). */
export const OUTBOX_BODY_RETENTION_MS = 30 * DAY_MS;
/** Finished messages are deleted after this long; their unsubscribe links work until then. */
export const OUTBOX_ROW_RETENTION_MS = 365 * DAY_MS;

/**
 * Outbox retention (docs/decisions/0059): a message that is no
 * longer pending (sent, skipped or failed) loses its HTML, text, props and attachments 30 days
 * after it was queued, keeping the recipient, subject, kind, status and unsubscribe token, and is
 * deleted after 365 days. Pending messages are never touched. Output: rows emptied and deleted.
 */
export async function applyOutboxRetention(db: DbOrTx, now: Date): Promise<{ emptied: number; deleted: number }> {
  const finished = inArray(emailOutbox.status, ['sent', 'skipped', 'failed']);
  const deleted = await db
    .delete(emailOutbox)
    .where(and(finished, lt(emailOutbox.createdAt, new Date(now.getTime() - OUTBOX_ROW_RETENTION_MS))))
    .returning({ id: emailOutbox.id });
  const emptied = await db
    .update(emailOutbox)
    .set({ html: '', text: '', props: null, attachments: null })
    .where(
      and(
        finished,
        lt(emailOutbox.createdAt, new Date(now.getTime() - OUTBOX_BODY_RETENTION_MS)),
        or(
          ne(emailOutbox.html, ''),
          ne(emailOutbox.text, ''),
          isNotNull(emailOutbox.props),
          isNotNull(emailOutbox.attachments),
        ),
      ),
    )
    .returning({ id: emailOutbox.id });
  return { emptied: emptied.length, deleted: deleted.length };
}
