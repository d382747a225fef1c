/** Delivery transports behind the outbox dispatcher. */
import { Resend } from 'resend';
import type { EmailMessage } from './outbox';

export interface MailTransport {
  /** 'resend' or 'mailbox' (kept for /dev/mailbox only). */
  readonly name: string;
  /** Delivers one message; resolves to the provider's id, rejects on failure. */
  send(message: EmailMessage & { from: string }): Promise<string>;
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
