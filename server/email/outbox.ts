/**
 * The Mailer port (the transactional outbox). Callers write a message into the outbox inside the same transaction
 * as the change that causes it; the dispatcher (dispatcher.ts) delivers it later, with retries.
 */
import { desc, notLike } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { emailOutbox } from '../db/schema/index';

export interface EmailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** Queues `message` for delivery. Use the caller's transaction so it commits with the change. */
export async function enqueueEmail(db: DbOrTx, message: EmailMessage, now: Date = new Date()): Promise<void> {
  await db.insert(emailOutbox).values({
    toAddress: message.to,
    subject: message.subject,
    html: message.html,
    text: message.text,
    createdAt: now,
    nextAttemptAt: now,
  });
}

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
 * resolved into a message): id, recipient `to`, subject, HTML and text bodies, status, createdAt.
 */
export function latestOutboxMessages(db: DbOrTx, limit = 100) {
  return db
    .select({
      id: emailOutbox.id,
      to: emailOutbox.toAddress,
      subject: emailOutbox.subject,
      html: emailOutbox.html,
      text: emailOutbox.text,
      status: emailOutbox.status,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(notLike(emailOutbox.subject, `${EMAIL_INTENT_PREFIX}%`))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(limit);
}
