/**
 * How long a sign-up waits for its email to be confirmed (docs/decisions/0117): an account still
 * unconfirmed after UNCONFIRMED_SIGN_UP_MS is removed with its profile, so its email and business
 * username are free again.
 */
import { and, isNull, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema/index';

/** 7 days, in ms: how long an unconfirmed account, or a username held for a sign-up, lasts. */
export const UNCONFIRMED_SIGN_UP_MS = 7 * 24 * 60 * 60_000;

/**
 * Removes the accounts created more than UNCONFIRMED_SIGN_UP_MS before `now` whose email was never
 * confirmed (housekeeping), their profile and emailed links with them.
 */
export async function deleteUnconfirmedSignUps(db: DbOrTx, now: Date): Promise<void> {
  const before = new Date(now.getTime() - UNCONFIRMED_SIGN_UP_MS);
  await db.delete(users).where(and(isNull(users.emailVerifiedAt), lt(users.createdAt, before)));
}
