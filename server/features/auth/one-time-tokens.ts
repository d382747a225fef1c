/**
 * Single-use email tokens: confirmation 24 h, password reset 1 h, email change 24 h.
 * Stored hashed; issuing a new one voids the older unused ones of the same purpose.
 */
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

/** Voids (marks used) every unused token of `userId` with one of `purposes`. */
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

/**
 * Issues a token for `userId` and `purpose` (voiding the user's older unused ones of that purpose);
 * returns the raw token for the email link. `newEmail` is stored with an email_change token.
 */
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

/** What is wrong with `row` for one of `purposes` at `now`, or null when it may be used. */
function problemOf(row: TokenRow | undefined, purposes: TokenPurpose[], now: Date): TokenProblem | null {
  if (!row) return 'invalid';
  if (!purposes.includes(row.purpose)) return 'wrong_purpose';
  if (row.usedAt) return 'used';
  if (row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return null;
}

/**
 * Marks the token used and returns its user, purpose and new email, atomically (two concurrent
 * uses: one wins). `purpose` may list several accepted purposes. Never throws for a bad token;
 * the caller maps `reason` to its message.
 */
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

/**
 * The state of a token for `purpose` without using it: 'valid', 'expired', 'wrong_type' (a token of another purpose, used or not) or
 * 'invalid' (unknown or already used).
 */
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
