/**
 * What an unconfirmed sign-up may do and how long it lasts (docs/decisions/0117): its business page
 * is not public until the email is confirmed; its username looks taken the same whether or not the
 * email had an account; after 7 days the account goes and the username is free again.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { slugHolds, users } from '../../server/db/schema/index';
import { deleteUnconfirmedSignUps } from '../../server/features/auth/unconfirmed-sign-ups';
import { deleteExpiredSlugHolds } from '../../server/features/businesses/slug-holds';
import { MSG } from '../../shared/messages';
import {
  businessSignUp,
  callerFor,
  createBusiness,
  createBusinessWithoutProfile,
  createUser,
  TEST_PASSWORD,
} from '../factories/index';
import { errorOf, latestEmailTo, linkToken } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'), { fakeDate: true });
const WEEK_MS = 7 * 24 * 60 * 60_000;

/** The housekeeping parts this concerns, at the clock's time. */
async function sweep(): Promise<void> {
  await deleteUnconfirmedSignUps(t.deps.db, t.clock.now());
  await deleteExpiredSlugHolds(t.deps.db, t.clock.now());
}

describe('unconfirmed sign-ups', () => {
  it("keeps a business's page private until its email is confirmed", async () => {
    const anon = await callerFor(t.deps, null);
    await anon.auth.registerBusiness(
      businessSignUp('owner@example.test', { slug: 'fake-bank', businessName: 'Fake Bank Support' }),
    );
    const hidden = await errorOf(anon.businesses.bySlug({ slug: 'fake-bank' }));
    expect([hidden.code, hidden.message]).toEqual(['NOT_FOUND', MSG.businessNotFound]);

    const token = linkToken((await latestEmailTo(t.deps.db, 'owner@example.test'))!.text);
    await anon.auth.confirmEmail({ token });
    await expect(anon.businesses.bySlug({ slug: 'fake-bank' })).resolves.toMatchObject({
      business: { businessName: 'Fake Bank Support', slug: 'fake-bank' },
    });
  });

  it('holds the username of a sign-up the same whether or not its email has an account, for 7 days', async () => {
    const { user: registered } = await createBusiness(t.deps.db);
    const { user: other } = await createBusiness(t.deps.db);
    const anon = await callerFor(t.deps, null);
    const settings = (await callerFor(t.deps, other.id)).settings;
    const probes = { 'probe-registered': registered.email, 'probe-unknown': 'unknown@example.test' };

    const answers = [];
    for (const [slug, email] of Object.entries(probes))
      answers.push(await anon.auth.registerBusiness(businessSignUp(email, { slug })));
    expect(answers.map((a) => a.emailThrottled)).toEqual([false, false]);
    for (const slug of Object.keys(probes)) {
      expect(await anon.auth.checkSlug({ slug })).toEqual({ available: false });
      expect(await settings.checkSlug({ slug })).toEqual({ status: 'taken', message: MSG.slugTaken });
      expect((await errorOf(anon.businesses.bySlug({ slug }))).code).toBe('NOT_FOUND');
      const again = await errorOf(anon.auth.registerBusiness(businessSignUp('third@example.test', { slug })));
      expect([again.code, again.message]).toEqual(['CONFLICT', MSG.usernameTaken]);
    }

    t.clock.advance(WEEK_MS + 1);
    await sweep();
    for (const slug of Object.keys(probes)) expect(await anon.auth.checkSlug({ slug })).toEqual({ available: true });
    expect(await t.deps.db.select().from(slugHolds)).toEqual([]);
    // The unconfirmed account is gone with its profile, so the address can sign up again.
    expect(await t.deps.db.select().from(users).where(eq(users.email, 'unknown@example.test'))).toEqual([]);
    const login = await errorOf(anon.auth.login({ email: 'unknown@example.test', password: TEST_PASSWORD }));
    expect(login.message).toBe(MSG.loginInvalid);
    // The registered account the probe named is untouched.
    expect(await t.deps.db.select().from(users).where(eq(users.id, registered.id))).toHaveLength(1);
  });

  it('removes only accounts unconfirmed for more than 7 days', async () => {
    const start = t.clock.now();
    const confirmed = await createUser(t.deps.db, { role: 'customer' });
    const old = await createUser(t.deps.db, { role: 'customer', verified: false });
    const recent = await createUser(t.deps.db, { role: 'customer', verified: false });
    // The factory stamps created_at with the database's clock: give each the time it stands for.
    const createdAt = (id: string, at: Date) => t.deps.db.update(users).set({ createdAt: at }).where(eq(users.id, id));
    await createdAt(confirmed.id, new Date(0));
    await createdAt(old.id, start);
    await createdAt(recent.id, new Date(start.getTime() + 60_000));

    const left = async () => (await t.deps.db.select({ id: users.id }).from(users)).map((u) => u.id);
    t.clock.advance(WEEK_MS);
    await deleteUnconfirmedSignUps(t.deps.db, t.clock.now());
    expect(await left()).toEqual(expect.arrayContaining([confirmed.id, old.id, recent.id]));
    t.clock.advance(1);
    await deleteUnconfirmedSignUps(t.deps.db, t.clock.now());
    expect(await left()).toEqual(expect.arrayContaining([confirmed.id, recent.id]));
    expect(await left()).not.toContain(old.id);
  });

  it('gives a held username to nobody else, not even a profile named after it', async () => {
    const { user: registered } = await createBusiness(t.deps.db);
    const anon = await callerFor(t.deps, null);
    await anon.auth.registerBusiness(businessSignUp(registered.email, { slug: 'twin-cuts' }));
    const user = await createBusinessWithoutProfile(t.deps.db);
    const caller = await callerFor(t.deps, user.id);
    await expect(
      caller.businesses.completeProfile({
        businessName: 'Twin Cuts',
        description: 'Cuts',
        category: 'Barber Shop',
        address: '2 Market Row, Leeds, LS1 6DL',
        phone: '',
        schedule: businessSignUp('x@example.test').schedule,
      }),
    ).resolves.toEqual({ slug: 'twin-cuts-2' });
  });
});
