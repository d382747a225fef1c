/**
 * Single-use email tokens (BRIEF §4): confirmation 24 h, password reset 1 h, email change 24 h.
 * Stored hashed; issuing a new one voids the older unused ones of the same purpose.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { oneTimeTokens } from '../db/schema/index';
import { generateToken, hashToken } from './tokens';

export type TokenPurpose = 'email_confirmation' | 'password_reset' | 'email_change';

export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  email_confirmation: 24 * 60 * 60 * 1000,
  password_reset: 60 * 60 * 1000,
  email_change: 24 * 60 * 60 * 1000,
};

/** Issues a token for `userId` and `purpose`; returns the raw token for the email link. */
export async function issueOneTimeToken(
  db: DbOrTx,
  params: { userId: string; purpose: TokenPurpose; now: Date; newEmail?: string },
): Promise<string> {
  const { userId, purpose, now } = params;
  await db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
  const token = generateToken();
  await db.insert(oneTimeTokens).values({
    userId,
    purpose,
    tokenHash: hashToken(token),
    newEmail: params.newEmail ?? null,
    expiresAt: new Date(now.getTime() + TOKEN_TTL_MS[purpose]),
    createdAt: now,
  });
  return token;
}

export type ConsumeResult =
  | { ok: true; userId: string; newEmail: string | null }
  | { ok: false; reason: 'invalid' | 'expired' | 'used' | 'wrong_purpose' };

/**
 * Marks the token used and returns its user, atomically (two concurrent uses: one wins).
 * Never throws for a bad token; the caller maps `reason` to the spec's message.
 */
export async function consumeOneTimeToken(
  db: DbOrTx,
  params: { token: string; purpose: TokenPurpose; now: Date },
): Promise<ConsumeResult> {
  const tokenHash = hashToken(params.token);
  const [row] = await db.select().from(oneTimeTokens).where(eq(oneTimeTokens.tokenHash, tokenHash)).limit(1);
  if (!row) return { ok: false, reason: 'invalid' };
  if (row.purpose !== params.purpose) return { ok: false, reason: 'wrong_purpose' };
  if (row.usedAt) return { ok: false, reason: 'used' };
  if (row.expiresAt.getTime() <= params.now.getTime()) return { ok: false, reason: 'expired' };
  const [claimed] = await db
    .update(oneTimeTokens)
    .set({ usedAt: params.now })
    .where(and(eq(oneTimeTokens.id, row.id), isNull(oneTimeTokens.usedAt)))
    .returning({ id: oneTimeTokens.id });
  if (!claimed) return { ok: false, reason: 'used' };
  return { ok: true, userId: row.userId, newEmail: row.newEmail };
}
