/** The transactional outbox: a message is written in the transaction of the change that causes it. */
import { and, desc, inArray, isNotNull, isNull, lt, ne, notInArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { preparedStatement } from '../db/prepared';
import { emailOutbox } from '../db/schema/index';
import type { EmailMessage } from './templates';

export type { EmailMessage } from './templates';

/**
 * A booking notification's metadata (docs/decisions/0050): `kind` is the preference the recipient may
 * turn off; a second message with the same `dedupeKey` is ignored.
 */
export interface NotificationMeta {
  kind: string;
  userId: string;
  bookingId: string | null;
  dedupeKey: string;
  /** Absent for an email that cannot be turned off (a subscription's). */
  unsubscribeTokenHash?: string;
  sendAfter?: Date;
}

/** Queues `message` in the caller's transaction, so it commits with the change. */
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

/** `attachments` is JSON text: a placeholder encoded as the jsonb column would store JSON `null`, not SQL NULL. */
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
 * Account emails whose content depends on who owns an address (docs/decisions/0033): the request queues
 * the same intent row for every address, so its answer reveals nothing; the dispatcher resolves or drops it.
 */
export type EmailIntentKind = 'password_reset' | 'email_confirmation';

/** Intent kinds; the same column holds notification kinds (shared/notifications.ts), NULL on account messages. */
export const EMAIL_INTENT_KINDS: readonly EmailIntentKind[] = ['password_reset', 'email_confirmation'];

/** A queued intent, as the dispatcher hands it to its resolver. */
export interface EmailIntent {
  kind: EmailIntentKind;
  /** Lower-cased. */
  to: string;
  requestedAt: Date;
}

/** Queues an intent of `kind` for `to`: an outbox row with no subject or body, never sent as it is. */
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

/** SQL condition: the outbox row is an intent. */
export const isEmailIntent = inArray(emailOutbox.kind, EMAIL_INTENT_KINDS);

/** SQL condition: the row is a message, not an intent; `not(isEmailIntent)` would be NULL for kind NULL. */
export const isOutboxMessage = or(notInArray(emailOutbox.kind, [...EMAIL_INTENT_KINDS]), isNull(emailOutbox.kind));

/** The intent kind of an outbox row, or null for a message. */
export function emailIntentKind(row: { kind: string | null }): EmailIntentKind | null {
  return EMAIL_INTENT_KINDS.find((k) => k === row.kind) ?? null;
}

/** The newest `limit` outbox messages, newest first, without intents; bodies are empty until rendered. */
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
 * Outbox retention (docs/decisions/0059): finished messages lose their bodies after
 * OUTBOX_BODY_RETENTION_MS and are deleted after OUTBOX_ROW_RETENTION_MS. Output: rows emptied and deleted.
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
