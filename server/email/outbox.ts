/**
 * The Mailer port (BRIEF §5). Callers write a message into the outbox inside the same transaction
 * as the change that causes it; the dispatcher (dispatcher.ts) delivers it later, with retries.
 */
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
