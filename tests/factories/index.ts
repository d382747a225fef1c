/**
 * Test data factories and callers. Users are written directly (verified unless asked otherwise)
 * and signed in by writing a session row, as the Playwright fixtures of the epic stack do.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { bookings, businessProfiles, customerProfiles, slots, users } from '../../server/db/schema/index';
import { hashPassword } from '../../server/features/auth/password';
import { createSession, validateSessionToken } from '../../server/features/auth/session';
import { businessPlacement, slotDiscoveryColumns } from '../../server/features/discovery/listing.service';
import { createInnerContext, type AppDeps, type CookieWriter, type RequestMeta } from '../../server/trpc/context';
import { createCaller } from '../../server/trpc/router';
import { defaultWeeklySchedule, WEEKDAYS, type OpeningHours } from '../../shared/opening-hours';
import { dateChoices, endTimeChoices, startTimeChoices } from '../../shared/slot-rules';
import type { UpdateBusinessProfileForm } from '../../shared/schemas/settings';

export const TEST_PASSWORD = 'correct-horse-battery';
let passwordHash: Promise<string> | undefined;
const unique = () => randomBytes(4).toString('hex');

export const ALL_WEEK_9_TO_18: OpeningHours = Object.fromEntries(
  WEEKDAYS.map((d) => [d, { open: '09:00', close: '18:00' }]),
);

/**
 * A user with the test password, verified unless `verified: false`. A customer gets its customer
 * profile; a business gets NO business profile (see `createBusiness` for one with a profile), which
 * is the profile_incomplete state.
 */
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

/**
 * A free slot of `businessId` at local `date` + `startTime`, with its Discover columns as the slot
 * service writes them (start instant in the business's zone, its listed coordinates).
 */
export async function createSlot(
  db: Db,
  businessId: string,
  values: { date: string; startTime: string; endTime: string; description?: string },
) {
  const [slot] = await db.transaction(async (tx) => {
    const placement = await businessPlacement(tx, businessId);
    return tx
      .insert(slots)
      .values({
        businessId,
        description: values.description ?? 'Haircut',
        ...values,
        ...slotDiscoveryColumns(placement, values.date, values.startTime),
      })
      .returning();
  });
  return slot!;
}

/**
 * Every { date, startTime, endTime } (local) a business with `profile`'s hours may still create from
 * tomorrow on at `now`, soonest first, each ending at its first end time offered.
 */
export function slotTimes(
  profile: { openingHours: Parameters<typeof dateChoices>[0]; timezone: string },
  now: Date,
): { date: string; startTime: string; endTime: string }[] {
  const out: { date: string; startTime: string; endTime: string }[] = [];
  for (const date of dateChoices(profile.openingHours, profile.timezone, now).slice(1)) {
    for (const startTime of startTimeChoices(date, profile.openingHours, profile.timezone, now)) {
      const endTime = endTimeChoices(date, startTime, profile.openingHours)[0];
      if (endTime) out.push({ date, startTime, endTime });
    }
  }
  return out;
}

/**
 * A valid business sign-up (auth.registerBusiness) for `email`: Bea Owner's 'Bea Cuts' at slug
 * 'bea-{local part of email}', weekday hours, with `overrides` applied.
 */
export function businessSignUp(email: string, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Bea Owner',
    email,
    password: TEST_PASSWORD,
    businessName: 'Bea Cuts',
    slug: `bea-${email.split('@')[0]}`,
    category: 'Barber Shop',
    description: 'Walk-ins welcome',
    address: '2 Market Row, Leeds, LS1 6DL',
    phone: '',
    schedule: defaultWeeklySchedule(),
    ...overrides,
  };
}

/** A valid Business Information card (settings.updateBusinessProfile) moving the page to `slug`. */
export function businessProfileForm(slug: string, businessName = 'Renamed Studio'): UpdateBusinessProfileForm {
  return {
    businessName,
    slug,
    contactName: 'Bea Owner',
    category: 'Barber Shop',
    description: 'Fades and beard trims',
    address: '3 New Road, York, YO1 7HH',
    phone: '01904 000000',
    email: 'desk@renamed.example',
    timezone: 'Europe/London',
  };
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

/** A business user without a business profile (the logged-in /complete-business-profile case). */
export function createBusinessWithoutProfile(db: Db, opts: { verified?: boolean; email?: string } = {}) {
  return createUser(db, { role: 'business', ...opts });
}

/** Request metadata as an HTTP call from `ip` would carry (same-origin, so mutations pass). */
export function requestFrom(ip: string): RequestMeta {
  return { origin: 'http://localhost:3000', host: 'localhost:3000', ip };
}

/**
 * A tRPC caller signed in as `userId` (a real session row), or anonymous when null. `request`
 * makes it look like an HTTP call (client IP for the login throttle).
 */
export async function callerFor(deps: AppDeps, userId: string | null, cookies?: CookieWriter, request?: RequestMeta) {
  if (!userId) return createCaller(createInnerContext(deps, { session: null, user: null }, cookies, request));
  const { token } = await createSession(deps.db, userId, deps.now());
  return callerForToken(deps, token, cookies, request);
}

/** A tRPC caller for an existing session cookie token. */
export async function callerForToken(deps: AppDeps, token: string, cookies?: CookieWriter, request?: RequestMeta) {
  const found = await validateSessionToken(deps.db, token, deps.now());
  if (!found) throw new Error('test session not found');
  return createCaller(
    createInnerContext(deps, { session: found.session, user: found.user, sessionToken: token }, cookies, request),
  );
}

/** The session token a recorded cookie writer last set (fails when none was set). */
export function lastSetToken(calls: ReturnType<typeof recordingCookies>['calls']): string {
  const set = calls.filter((c) => c.kind === 'set').at(-1);
  if (!set) throw new Error('no session cookie was set');
  return set.token;
}

/**
 * A business ('Snip Studio'), a customer ('Cara Customer') and the customer's pending request
 * ('First visit') for one slot ('Fringe trim', default 22 November 2026 12:00-12:30), with a
 * signed-in caller for each side.
 */
export async function pendingRequest(
  deps: AppDeps,
  slot = { date: '2026-11-22', startTime: '12:00', endTime: '12:30' },
) {
  const { user: owner, profile } = await createBusiness(deps.db, { name: 'Snip Studio' });
  const customer = await createUser(deps.db, { role: 'customer', name: 'Cara Customer' });
  const s = await createSlot(deps.db, owner.id, { ...slot, description: 'Fringe trim' });
  const client = await callerFor(deps, customer.id);
  const { id: bookingId } = await client.bookings.request({ slotId: s.id, notes: 'First visit' });
  return { owner, profile, customer, slot: s, client, bookingId, business: await callerFor(deps, owner.id) };
}

/** The bookings row `id` as stored (fails the test when there is none). */
export async function bookingRow(db: Db, id: string) {
  const [row] = await db.select().from(bookings).where(eq(bookings.id, id));
  if (!row) throw new Error(`no booking ${id}`);
  return row;
}
