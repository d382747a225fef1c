/** Single-use email tokens, stored hashed. */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { oneTimeTokens } from '../../db/schema/index';
import { generateToken, hashToken } from './tokens';

export type TokenPurpose = 'email_confirmation' | 'password_reset' | 'email_change';

export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  email_confirmation: 24 * 60 * 60 * 1000,
  password_reset: 60 * 60 * 1000,
  email_change: 24 * 60 * 60 * 1000,
};

/** Marks used every unused token of `userId` with one of `purposes`. */
export async function voidOneTimeTokens(
  db: DbOrTx,
  params: { userId: string; purposes: TokenPurpose[]; now: Date },
): Promise<void> {
  await db
    .update(oneTimeTokens)
    .set({ usedAt: params.now })
    .where(
      and(
        eq(oneTimeTokens.userId, params.userId),
        inArray(oneTimeTokens.purpose, params.purposes),
        isNull(oneTimeTokens.usedAt),
      ),
    );
}

/** Issues a token, voiding the user's older ones of that purpose; returns the raw token for the link. */
export async function issueOneTimeToken(
  db: DbOrTx,
  params: { userId: string; purpose: TokenPurpose; now: Date; newEmail?: string },
): Promise<string> {
  const { userId, purpose, now } = params;
  await voidOneTimeTokens(db, { userId, purposes: [purpose], now });
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

export type TokenProblem = 'invalid' | 'expired' | 'used' | 'wrong_purpose';

export type ConsumeResult =
  { ok: true; userId: string; purpose: TokenPurpose; newEmail: string | null } | { ok: false; reason: TokenProblem };

type TokenRow = typeof oneTimeTokens.$inferSelect;

async function findToken(db: DbOrTx, token: string): Promise<TokenRow | undefined> {
  const [row] = await db
    .select()
    .from(oneTimeTokens)
    .where(eq(oneTimeTokens.tokenHash, hashToken(token)))
    .limit(1);
  return row;
}

function problemOf(row: TokenRow | undefined, purposes: TokenPurpose[], now: Date): TokenProblem | null {
  if (!row) return 'invalid';
  if (!purposes.includes(row.purpose)) return 'wrong_purpose';
  if (row.usedAt) return 'used';
  if (row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return null;
}

/** Uses the token atomically: of two concurrent uses, one wins. Never throws for a bad token. */
export async function consumeOneTimeToken(
  db: DbOrTx,
  params: { token: string; purpose: TokenPurpose | TokenPurpose[]; now: Date },
): Promise<ConsumeResult> {
  const purposes = Array.isArray(params.purpose) ? params.purpose : [params.purpose];
  const row = await findToken(db, params.token);
  const problem = problemOf(row, purposes, params.now);
  if (problem || !row) return { ok: false, reason: problem ?? 'invalid' };
  const [claimed] = await db
    .update(oneTimeTokens)
    .set({ usedAt: params.now })
    .where(and(eq(oneTimeTokens.id, row.id), isNull(oneTimeTokens.usedAt)))
    .returning({ id: oneTimeTokens.id });
  if (!claimed) return { ok: false, reason: 'used' };
  return { ok: true, userId: row.userId, purpose: row.purpose, newEmail: row.newEmail };
}

/** A token's state without using it: 'wrong_type' for another purpose, used or not; 'invalid' for unknown or used. */
export async function inspectOneTimeToken(
  db: DbOrTx,
  params: { token: string; purpose: TokenPurpose; now: Date },
): Promise<'valid' | 'expired' | 'invalid' | 'wrong_type'> {
  const problem = problemOf(await findToken(db, params.token), [params.purpose], params.now);
  if (problem === null) return 'valid';
  if (problem === 'wrong_purpose') return 'wrong_type';
  if (problem === 'expired') return 'expired';
  return 'invalid';
}
