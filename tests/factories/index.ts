/**
 * Test data factories and callers. Users are written directly (verified unless asked otherwise)
 * and signed in by writing a session row, as the Playwright fixtures of the epic stack do.
 */
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../server/auth/password';
import { createSession, validateSessionToken } from '../../server/auth/session';
import type { Db } from '../../server/db/client';
import { businessProfiles, customerProfiles, slots, users } from '../../server/db/schema/index';
import { createInnerContext, type AppDeps, type CookieWriter } from '../../server/trpc/context';
import { createCaller } from '../../server/trpc/router';
import { WEEKDAYS, type OpeningHours } from '../../shared/opening-hours';

export const TEST_PASSWORD = 'correct-horse-battery';
let passwordHash: Promise<string> | undefined;
const unique = () => randomBytes(4).toString('hex');

export const ALL_WEEK_9_TO_18: OpeningHours = Object.fromEntries(
  WEEKDAYS.map((d) => [d, { open: '09:00', close: '18:00' }]),
);

export async function createUser(
  db: Db,
  opts: { role: 'business' | 'customer'; verified?: boolean; name?: string; email?: string },
) {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const email = opts.email ?? `${opts.role}-${unique()}@example.test`;
  const name = opts.name ?? (opts.role === 'business' ? 'Bea Business' : 'Cam Customer');
  const [user] = await db
    .insert(users)
    .values({
      email,
      name,
      role: opts.role,
      passwordHash: await passwordHash,
      emailVerifiedAt: opts.verified === false ? null : new Date('2026-01-01T00:00:00Z'),
    })
    .returning();
  if (opts.role === 'customer') {
    await db.insert(customerProfiles).values({ id: user!.id, fullName: name, email });
  }
  return user!;
}

export async function createBusiness(
  db: Db,
  opts: { verified?: boolean; timezone?: string; openingHours?: OpeningHours; name?: string } = {},
) {
  const user = await createUser(db, { role: 'business', verified: opts.verified });
  const slug = `biz-${unique()}`;
  const [profile] = await db
    .insert(businessProfiles)
    .values({
      id: user.id,
      businessName: opts.name ?? `Studio ${slug}`,
      slug,
      address: '1 Test Street, London, SW1A 1AA',
      emailAddress: user.email,
      description: 'Test business',
      openingHours: opts.openingHours ?? ALL_WEEK_9_TO_18,
      timezone: opts.timezone ?? 'Europe/London',
    })
    .returning();
  return { user, profile: profile! };
}

export async function createSlot(
  db: Db,
  businessId: string,
  values: { date: string; startTime: string; endTime: string; description?: string },
) {
  const [slot] = await db
    .insert(slots)
    .values({ businessId, description: values.description ?? 'Haircut', ...values })
    .returning();
  return slot!;
}

/** A recording cookie writer, to assert what a procedure set. */
export function recordingCookies() {
  const calls: Array<{ kind: 'set'; token: string; expiresAt: Date } | { kind: 'clear' }> = [];
  const writer: CookieWriter = {
    setSession: (token, expiresAt) => calls.push({ kind: 'set', token, expiresAt }),
    clearSession: () => calls.push({ kind: 'clear' }),
  };
  return { writer, calls };
}

/** A tRPC caller signed in as `userId` (a real session row), or anonymous when null. */
export async function callerFor(deps: AppDeps, userId: string | null, cookies?: CookieWriter) {
  if (!userId) return createCaller(createInnerContext(deps, { session: null, user: null }, cookies));
  const { token } = await createSession(deps.db, userId, deps.now());
  return callerForToken(deps, token, cookies);
}

/** A tRPC caller for an existing session cookie token. */
export async function callerForToken(deps: AppDeps, token: string, cookies?: CookieWriter) {
  const found = await validateSessionToken(deps.db, token, deps.now());
  if (!found) throw new Error('test session not found');
  return createCaller(
    createInnerContext(deps, { session: found.session, user: found.user, sessionToken: token }, cookies),
  );
}
