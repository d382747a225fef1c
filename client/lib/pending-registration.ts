/**
 * The business's pending registration (accounts spec §3): kept in session storage under
 * `pendingRegistration` between /register and /complete-business-profile.
 */
import { z } from 'zod';
import { emailSchema, nameSchema, newPasswordSchema } from '../../shared/schemas/auth';

export const PENDING_REGISTRATION_KEY = 'pendingRegistration';

const pendingRegistrationSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  name: nameSchema,
  role: z.literal('business'),
  businessName: z.string(),
  businessSlug: z.string(),
});
export type PendingRegistration = z.infer<typeof pendingRegistrationSchema>;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/** The stored pending registration, or null when missing or invalid. */
export function readPendingRegistration(): PendingRegistration | null {
  const raw = storage()?.getItem(PENDING_REGISTRATION_KEY);
  if (!raw) return null;
  try {
    const parsed = pendingRegistrationSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function savePendingRegistration(value: PendingRegistration): void {
  storage()?.setItem(PENDING_REGISTRATION_KEY, JSON.stringify(value));
}

export function clearPendingRegistration(): void {
  storage()?.removeItem(PENDING_REGISTRATION_KEY);
}

/** Fallback for /check-email when navigation state is lost (reload, new tab). */
export const CHECK_EMAIL_KEY = 'lastslot.checkEmail';

export function rememberCheckEmail(email: string): void {
  storage()?.setItem(CHECK_EMAIL_KEY, email);
}

export function recalledCheckEmail(): string | null {
  return storage()?.getItem(CHECK_EMAIL_KEY) ?? null;
}
