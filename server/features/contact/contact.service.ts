/** The contact form: a message stored and emailed to support in one transaction (docs/decisions/0016). */
import { MSG } from '../../../shared/messages';
import type { SendContactMessageInput } from '../../../shared/schemas/contact';
import type { ServiceDeps } from '../../core/deps';
import { envSchema } from '../../core/env';
import { DomainError } from '../../core/errors';
import { contactMessages } from '../../db/schema/index';
import { enqueueEmail } from '../../email/outbox';
import { contactMessageEmail } from '../../email/templates';
import type { SessionUser } from '../auth/session';

/** SUPPORT_EMAIL from `source`, else the schema's default. */
export function supportEmailFrom(source: NodeJS.ProcessEnv = process.env): string {
  const raw = source.SUPPORT_EMAIL?.trim();
  return envSchema.shape.SUPPORT_EMAIL.parse(raw === '' ? undefined : raw);
}

/**
 * Sends `input` from `sender` to `supportEmail`. Output: { id } of the stored message. Throws
 * TOO_MANY_REQUESTS over the per-user limit; the count is given back when storing fails.
 */
export async function sendContactMessage(
  deps: Pick<ServiceDeps, 'db' | 'now' | 'throttle' | 'kickMailer'>,
  sender: Pick<SessionUser, 'id' | 'name' | 'email' | 'role' | 'isVerified' | 'businessName'>,
  input: SendContactMessageInput,
  supportEmail: string,
): Promise<{ id: string }> {
  if (!(await deps.throttle.consume('contact', sender.id))) {
    throw new DomainError('TOO_MANY_REQUESTS', MSG.contactLimit);
  }
  const businessName = sender.role === 'business' ? sender.businessName : null;
  let id: string;
  try {
    id = await deps.db.transaction(async (tx) => {
      const now = deps.now();
      const [row] = await tx
        .insert(contactMessages)
        .values({
          userId: sender.id,
          name: sender.name,
          email: sender.email,
          role: sender.role,
          businessName,
          subject: input.subject,
          message: input.message,
          createdAt: now,
        })
        .returning({ id: contactMessages.id });
      await enqueueEmail(
        tx,
        contactMessageEmail(supportEmail, {
          subject: input.subject,
          message: input.message,
          name: sender.name,
          email: sender.email,
          role: sender.role,
          businessName,
          emailConfirmed: sender.isVerified,
        }),
        now,
      );
      return row!.id;
    });
  } catch (err) {
    await deps.throttle.refund('contact', sender.id);
    throw err;
  }
  deps.kickMailer();
  return { id };
}
