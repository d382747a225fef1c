/**
 * The Mailer port (the transactional outbox). Callers write a message into the outbox inside the same transaction
 * as the change that causes it; the dispatcher (dispatcher.ts) renders and delivers it later, with retries.
 */
import { and, desc, inArray, isNotNull, isNull, like, lt, ne, notInArray, notLike, or, sql } from 'drizzle-orm';
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

/**
 * The outbox `kind` of each intent. The column also holds a booking notification's kind on a
 * message (shared/notifications.ts, none of which is one of these) and is NULL on an account message.
 */
export const EMAIL_INTENT_KINDS: readonly EmailIntentKind[] = ['password_reset', 'email_confirmation'];

/** A queued intent, as the dispatcher hands it to its resolver. */
export interface EmailIntent {
  kind: EmailIntentKind;
  /** The address the request named (lower-cased). */
  to: string;
  /** When the request was made. */
  requestedAt: Date;
}

/**
 * Queues an intent of `kind` for `to`: one outbox row, whatever the address, with its kind and no
 * subject, template or body (it is never sent as it is).
 */
export async function enqueueEmailIntent(
  db: DbOrTx,
  kind: EmailIntentKind,
  to: string,
  now: Date = new Date(),
): Promise<void> {
  await db.insert(emailOutbox).values({
    toAddress: to,
    kind,
    subject: '',
    html: '',
    text: '',
    createdAt: now,
    sendAfter: now,
    nextAttemptAt: now,
  });
}

/**
 * LEGACY: how intents were told apart before they had a `kind`: kind NULL and subject
 * 'intent:<kind>'. A row queued that way by the previous release may still be pending when this
 * one starts (an intent is resolved within seconds, or retried for about an hour when its
 * resolution fails), and read as a message it would be sent: an empty email with that subject, to
 * an address that may have no account. So such rows are still read as intents, and no data step
 * is needed. Remove `LEGACY_INTENT_SUBJECT` and what uses it (here and in the bench's baseline)
 * once no deployment runs a release from before intent kinds. (An older process still running
 * beside this one takes a new intent for a message of a deleted account and skips it: nothing is
 * sent, and the person asks again.)
 */
const LEGACY_INTENT_SUBJECT = 'intent:';
/** LEGACY: the LIKE pattern of a legacy intent's subject (also bound by bench/baseline-server.ts). */
export const LEGACY_INTENT_PATTERN = `${LEGACY_INTENT_SUBJECT}%`;
const legacyIntent = and(isNull(emailOutbox.kind), like(emailOutbox.subject, LEGACY_INTENT_PATTERN));

/** SQL condition: the outbox row is an intent (by its kind, or in the legacy form). */
export const isEmailIntent = or(inArray(emailOutbox.kind, EMAIL_INTENT_KINDS), legacyIntent);

/**
 * SQL condition: the outbox row is a message to send (an account message, kind NULL, or a booking
 * notification), not an intent. Spelled out rather than `not(isEmailIntent)`, which is NULL, not
 * true, for a row whose kind is NULL.
 */
export const isOutboxMessage = or(
  notInArray(emailOutbox.kind, [...EMAIL_INTENT_KINDS]),
  and(isNull(emailOutbox.kind), notLike(emailOutbox.subject, LEGACY_INTENT_PATTERN)),
);

/** The intent kind of an outbox row (its `kind`, or a legacy row's subject), or null for a message. */
export function emailIntentKind(row: { kind: string | null; subject: string }): EmailIntentKind | null {
  const kind =
    row.kind ??
    (row.subject.startsWith(LEGACY_INTENT_SUBJECT) ? row.subject.slice(LEGACY_INTENT_SUBJECT.length) : null);
  return EMAIL_INTENT_KINDS.find((k) => k === kind) ?? null;
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
    .where(isOutboxMessage)
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
