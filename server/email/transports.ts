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
  /** Text attachments (e.g. an .ics file). */
  attachments?: OutboxAttachment[];
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
}

export interface MailTransport {
  /** 'resend' or 'mailbox' (kept for /dev/mailbox only). */
  readonly name: string;
  /** Delivers one message; resolves to the provider's id, rejects on failure. */
  send(message: OutgoingEmail): Promise<string>;
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
  };
}

/** No provider configured: messages stay readable in the outbox at /dev/mailbox. */
export const mailboxTransport: MailTransport = {
  name: 'mailbox',
  async send() {
    return 'mailbox';
  },
};
