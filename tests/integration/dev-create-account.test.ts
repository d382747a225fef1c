/**
 * dev.createAccount, the account maker of the Playwright journeys (docs/decisions/0040): a new
 * account made by the sign-up services, confirmed and signed in (session row and cookie) unless
 * asked otherwise; a registered email refused; NOT_FOUND in production with nothing written.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, users } from '../../server/db/schema/index';
import { MSG } from '../../shared/messages';
import { defaultWeeklySchedule } from '../../shared/opening-hours';
import {
  callerFor,
  callerForToken,
  createUser,
  lastSetToken,
  recordingCookies,
  TEST_PASSWORD,
} from '../factories/index';
import { errorOf, latestEmailTo } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

const customer = (email: string) => ({
  role: 'customer' as const,
  name: 'Cam Customer',
  email,
  password: TEST_PASSWORD,
});

/** The number of users rows with `email`. */
async function usersWith(email: string): Promise<number> {
  return (await t.deps.db.select({ id: users.id }).from(users).where(eq(users.email, email))).length;
}

describe('dev.createAccount', () => {
  it('makes a confirmed customer and signs the caller in with a new session cookie', async () => {
    const cookies = recordingCookies();
    const anon = await callerFor(t.deps, null, cookies.writer);
    await expect(anon.dev.createAccount(customer('  Cam@Example.TEST '))).resolves.toEqual({ signedIn: true });

    const me = await (await callerForToken(t.deps, lastSetToken(cookies.calls))).auth.me();
    expect(me).toMatchObject({
      authState: 'authenticated',
      user: { email: 'cam@example.test', name: 'Cam Customer', role: 'customer', isVerified: true },
    });
    // Made by the sign-up service: its confirmation email is queued, and the password logs in.
    expect((await latestEmailTo(t.deps.db, 'cam@example.test'))?.subject).toBe('Confirm your email for LastSlot');
    await expect(
      (await callerFor(t.deps, null)).auth.login({ email: 'cam@example.test', password: TEST_PASSWORD }),
    ).resolves.toEqual({ ok: true });
  });

  it('makes a business with its profile, and ends the session the caller had', async () => {
    const before = await createUser(t.deps.db, { role: 'customer' });
    const cookies = recordingCookies();
    const caller = await callerFor(t.deps, before.id, cookies.writer);
    await expect(
      caller.dev.createAccount({
        role: 'business',
        name: 'Bea Owner',
        email: 'bea@example.test',
        password: TEST_PASSWORD,
        businessName: 'Bea Cuts',
        slug: 'bea-cuts',
        category: 'Barber Shop',
        description: 'Walk-ins welcome',
        address: '2 Market Row, Leeds, LS1 6DL',
        schedule: defaultWeeklySchedule(),
      }),
    ).resolves.toEqual({ signedIn: true });

    const me = await (await callerForToken(t.deps, lastSetToken(cookies.calls))).auth.me();
    expect(me).toMatchObject({
      authState: 'authenticated',
      user: { email: 'bea@example.test', role: 'business', businessName: 'Bea Cuts', businessSlug: 'bea-cuts' },
    });
    const left = await t.deps.db.select().from(sessions).where(eq(sessions.userId, before.id));
    expect(left).toEqual([]);
  });

  it('leaves an unconfirmed account signed out when asked', async () => {
    const cookies = recordingCookies();
    const anon = await callerFor(t.deps, null, cookies.writer);
    await expect(anon.dev.createAccount({ ...customer('una@example.test'), confirmed: false })).resolves.toEqual({
      signedIn: false,
    });
    expect(cookies.calls).toEqual([]);
    const [user] = await t.deps.db.select().from(users).where(eq(users.email, 'una@example.test'));
    expect(user?.emailVerifiedAt).toBeNull();
    await expect(
      (await callerFor(t.deps, null)).auth.login({ email: 'una@example.test', password: TEST_PASSWORD }),
    ).rejects.toThrow(MSG.emailNotConfirmedLogin);
  });

  it('refuses a registered email with CONFLICT and signs nobody in', async () => {
    const owner = await createUser(t.deps.db, { role: 'customer', email: 'taken@example.test' });
    const cookies = recordingCookies();
    const anon = await callerFor(t.deps, null, cookies.writer);
    const err = await errorOf(anon.dev.createAccount({ ...customer('taken@example.test'), password: 'another-pw-1' }));
    expect(err).toMatchObject({ code: 'CONFLICT', message: 'This email is already registered' });
    expect(cookies.calls).toEqual([]);
    expect(await t.deps.db.select().from(sessions).where(eq(sessions.userId, owner.id))).toEqual([]);
  });

  it('is NOT_FOUND in production and writes nothing', async () => {
    const cookies = recordingCookies();
    const production = await callerFor({ ...t.deps, isProduction: true }, null, cookies.writer);
    const err = await errorOf(production.dev.createAccount(customer('prod@example.test')));
    expect(err.code).toBe('NOT_FOUND');
    expect(await usersWith('prod@example.test')).toBe(0);
    expect(cookies.calls).toEqual([]);
  });
});
