/**
 * Cookie sessions on the Lucia design (docs/decisions/0001): the cookie holds a 160-bit
 * token; the sessions table holds its SHA-256 as id. Sessions last 30 days and are extended to 30
 * days again when fewer than 15 remain. Every deletion of sessions announces their ids with NOTIFY
 * in the same transaction, so live streams using them end at once (docs/decisions/0032).
 */
import { eq, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { encodedAs, preparedStatement } from '../../db/prepared';
import { businessProfiles, sessions, users } from '../../db/schema/index';
import { notifySessionsEnded } from '../../realtime/session-revocations';
import { generateToken, hashToken } from './tokens';

export const SESSION_COOKIE = 'lastslot_session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const SESSION_RENEW_MS = 15 * 24 * 60 * 60 * 1000;

/** What procedures see of the signed-in user. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: 'business' | 'customer';
  isVerified: boolean;
  businessName: string | null;
  businessSlug: string | null;
}

export interface SessionInfo {
  id: string;
  userId: string;
  expiresAt: Date;
}

/** Creates a session for `userId`; returns the cookie token and its expiry (UTC instant). */
export async function createSession(
  db: DbOrTx,
  userId: string,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const token = generateToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.insert(sessions).values({ id: hashToken(token), userId, expiresAt, createdAt: now });
  return { token, expiresAt };
}

/** The session row of hashed token `id` with its user and business profile (every signed-in request). */
const sessionById = preparedStatement<{ id: string }>()('session_by_id', (db, p) =>
  db
    .select({
      session: { id: sessions.id, userId: sessions.userId, expiresAt: sessions.expiresAt },
      user: {
        id: users.id,
        email: users.email,
        name: users.name,
        role: users.role,
        emailVerifiedAt: users.emailVerifiedAt,
      },
      business: { name: businessProfiles.businessName, slug: businessProfiles.slug },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(businessProfiles, eq(businessProfiles.id, users.id))
    .where(eq(sessions.id, p.id))
    .limit(1),
);

/** Sets the expiry of session `id` (the renewal). */
const extendSession = preparedStatement<{ id: string; expiresAt: Date }>()('session_extend', (db, p) =>
  db
    .update(sessions)
    .set({ expiresAt: encodedAs(p.expiresAt, sessions.expiresAt) })
    .where(eq(sessions.id, p.id)),
);

/**
 * Looks up the session of a cookie token. Returns null for an unknown or expired token (an
 * expired row is deleted). Extends the expiry when under 15 days remain (`renewed` is then true).
 */
export async function validateSessionToken(
  db: DbOrTx,
  token: string,
  now: Date,
): Promise<{ session: SessionInfo; user: SessionUser; renewed: boolean } | null> {
  const id = hashToken(token);
  const [row] = await sessionById(db, { id });
  if (!row) return null;
  if (row.session.expiresAt.getTime() <= now.getTime()) {
    await invalidateSession(db, id);
    return null;
  }
  let renewed = false;
  if (row.session.expiresAt.getTime() - now.getTime() < SESSION_RENEW_MS) {
    row.session.expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    await extendSession(db, { id, expiresAt: row.session.expiresAt });
    renewed = true;
  }
  return {
    session: row.session,
    user: {
      id: row.user.id,
      email: row.user.email,
      name: row.user.name,
      role: row.user.role,
      isVerified: row.user.emailVerifiedAt !== null,
      businessName: row.business?.name ?? null,
      businessSlug: row.business?.slug ?? null,
    },
    renewed,
  };
}

/** Ends one session (and its live streams, on every instance, once `db`'s transaction commits). */
export async function invalidateSession(db: DbOrTx, sessionId: string): Promise<void> {
  const ended = await db.delete(sessions).where(eq(sessions.id, sessionId)).returning({ id: sessions.id });
  await notifySessionsEnded(
    db,
    ended.map((s) => s.id),
  );
}

/**
 * Ends every session of a user (password change/reset, account deletion) and their live streams.
 * Account deletion calls it before deleting the user, since the cascade would end them silently.
 */
export async function invalidateUserSessions(db: DbOrTx, userId: string): Promise<void> {
  const ended = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  await notifySessionsEnded(
    db,
    ended.map((s) => s.id),
  );
}

/** Removes expired sessions (housekeeping); their streams, if any, end too. */
export async function deleteExpiredSessions(db: DbOrTx, now: Date): Promise<void> {
  const ended = await db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id });
  await notifySessionsEnded(
    db,
    ended.map((s) => s.id),
  );
}

/** The current expiry of session `sessionId` (read only, no renewal), or null when it is gone. */
export async function sessionExpiry(db: DbOrTx, sessionId: string): Promise<Date | null> {
  const [row] = await db
    .select({ expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  return row?.expiresAt ?? null;
}
