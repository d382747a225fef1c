/** Development-only accounts for the Playwright journeys (docs/decisions/0040), behind `developmentProcedure`. */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { registerBusinessInput, registerCustomerInput } from '../../../shared/schemas/auth';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { users } from '../../db/schema/index';
import { registerBusiness, registerCustomer } from './auth.service';
import { markEmailVerified } from './credentials.service';
import { createSession } from './session';

/** `dev.createAccount`'s input: a sign-up form's fields, the role, and whether it is confirmed. */
export const devAccountInput = z.discriminatedUnion('role', [
  registerCustomerInput.extend({ role: z.literal('customer'), confirmed: z.boolean().default(true) }),
  registerBusinessInput.extend({ role: z.literal('business'), confirmed: z.boolean().default(true) }),
]);

/**
 * Makes an account through the sign-up services; when `confirmed`, confirms it and returns a session,
 * else null. Throws CONFLICT for a registered email (unlike sign-up, which would sign the caller in to
 * someone else's account here) or a taken slug.
 */
export async function createDevAccount(
  deps: ServiceDeps,
  input: z.output<typeof devAccountInput>,
): Promise<{ token: string; expiresAt: Date } | null> {
  const userWithEmail = () => deps.db.select({ id: users.id }).from(users).where(eq(users.email, input.email)).limit(1);
  if ((await userWithEmail()).length > 0) throw new DomainError('CONFLICT', 'This email is already registered');
  if (input.role === 'business') await registerBusiness(deps, input);
  else await registerCustomer(deps, input);
  if (!input.confirmed) return null;
  const [user] = await userWithEmail();
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    await markEmailVerified(tx, user!.id, now);
    return createSession(tx, user!.id, now);
  });
}
