/**
 * The business's pending registration: kept in session storage under `pendingRegistration` between
 * /register and /complete-business-profile.
 *
 * Checked by hand rather than with the zod schemas: the route guard runs in the first load and
 * should not pull zod into it. The server validates everything again on submit.
 */
export const PENDING_REGISTRATION_KEY = 'pendingRegistration';

export interface PendingRegistration {
  email: string;
  password: string;
  name: string;
  role: 'business';
  businessName: string;
  businessSlug: string;
}

/** The register form's simple email pattern (shared/schemas/auth.ts EMAIL_PATTERN). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isPendingRegistration(v: unknown): v is PendingRegistration {
  if (!v || typeof v !== 'object') return false;
  const r = v as Record<string, unknown>;
  return (
    typeof r.email === 'string' &&
    EMAIL.test(r.email) &&
    typeof r.password === 'string' &&
    r.password.length >= 8 &&
    r.password.length <= 128 &&
    typeof r.name === 'string' &&
    r.name.trim() !== '' &&
    r.role === 'business' &&
    typeof r.businessName === 'string' &&
    typeof r.businessSlug === 'string'
  );
}

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
    const parsed: unknown = JSON.parse(raw);
    return isPendingRegistration(parsed) ? parsed : null;
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

/** Forgets the /check-email address (sign-out, docs/decisions/0010). */
export function forgetCheckEmail(): void {
  storage()?.removeItem(CHECK_EMAIL_KEY);
}
