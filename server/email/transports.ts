/** Delivery transports behind the outbox dispatcher. */
import { Resend } from 'resend';
import type { OutboxAttachment } from '../db/schema/index';

/** One rendered message as a transport sends it. */
export interface OutgoingEmail {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments?: OutboxAttachment[];
  headers?: Record<string, string>;
}

/** A message sent in a batch: no attachments (Resend's batch endpoint takes none). */
export type BatchEmail = Omit<OutgoingEmail, 'attachments'>;

/** Each message's outcome, in the batch's order. */
export type BatchResult = ({ id: string } | { error: string })[];

/** Most messages one `sendBatch` call may carry (Resend's batch limit). */
export const MAX_BATCH = 100;

export interface MailTransport {
  /** 'resend' or 'mailbox'. */
  readonly name: string;
  /** Delivers one message; resolves to the provider's id, rejects on failure. */
  send(message: OutgoingEmail): Promise<string>;
  /**
   * Delivers 1 to MAX_BATCH messages in one provider call, resolving to one outcome per message. Rejects
   * when the whole call failed; then no message counts as sent.
   */
  sendBatch(messages: BatchEmail[]): Promise<BatchResult>;
}

/**
 * Per-message outcomes of a permissive batch answer (`ids` in request order, `errors` by index).
 * Throws when it does not account for exactly `count` messages: which were sent is then unknown.
 */
export function batchOutcomes(
  count: number,
  ids: readonly { id: string }[],
  errors: readonly { index: number; message: string }[],
): BatchResult {
  const refused = new Map(errors.map((e) => [e.index, e.message]));
  if (ids.length + refused.size !== count || [...refused.keys()].some((i) => !(i >= 0 && i < count))) {
    throw new Error(`batch answer covers ${ids.length} sent and ${refused.size} refused of ${count} messages`);
  }
  let next = 0;
  return Array.from({ length: count }, (_, i) => {
    const error = refused.get(i);
    return error === undefined ? { id: ids[next++]!.id } : { error };
  });
}

/** Real delivery through Resend (RESEND_API_KEY set). */
export function resendTransport(apiKey: string): MailTransport {
  const client = new Resend(apiKey);
  return {
    name: 'resend',
    async send(message) {
      const { data, error } = await client.emails.send({
        from: message.from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        headers: message.headers,
        attachments: message.attachments?.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.content, 'utf8'),
        })),
      });
      if (error || !data) throw new Error(`Resend: ${error?.name ?? 'unknown'}: ${error?.message ?? 'no data'}`);
      return data.id;
    },
    async sendBatch(messages) {
      // Permissive: an invalid message is refused alone instead of failing the whole batch.
      const { data, error } = await client.batch.send(
        messages.map((m) => ({
          from: m.from,
          to: m.to,
          subject: m.subject,
          html: m.html,
          text: m.text,
          headers: m.headers,
        })),
        { batchValidation: 'permissive' },
      );
      if (error || !data) throw new Error(`Resend: ${error?.name ?? 'unknown'}: ${error?.message ?? 'no data'}`);
      return batchOutcomes(messages.length, data.data, data.errors ?? []);
    },
  };
}

/** No provider configured: messages stay readable in the outbox at /dev/mailbox. */
export const mailboxTransport: MailTransport = {
  name: 'mailbox',
  async send() {
    return 'mailbox';
  },
  async sendBatch(messages) {
    return messages.map(() => ({ id: 'mailbox' }));
  },
};
