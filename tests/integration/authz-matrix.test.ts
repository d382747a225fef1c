/**
 * Authorization matrix, generated from the router itself: every procedure and subscription of
 * `appRouter` must have an entry in MATRIX (a new procedure without one fails, naming it), and
 * each entry says, for each identity, whether the call is let through ('ok') or which tRPC code
 * refuses it. Allowed calls run with valid inputs built from a fresh world of fixtures (business
 * X's slots, customer A's bookings of them); refused calls must reject (no data) and change
 * nothing in the database; answers to anyone but X and A must not carry A's private data.
 * Cross-tenant calls (customer B on A's booking, business Y on X's booking or slot) are refused.
 * Subscriptions: no identity hears of another tenant's change.
 */
import { randomBytes } from 'node:crypto';
import { TRPCError, type TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { BookingEvent } from '../../server/realtime/booking-events';
import { alerts, bookings, businessProfiles, customerLikes, slots } from '../../server/db/schema/index';
import { issueOneTimeToken } from '../../server/features/auth/one-time-tokens';
import type { BillingPortal } from '../../server/features/billing/portal';
import type { AppDeps } from '../../server/trpc/context';
import { appRouter } from '../../server/trpc/router';
import { defaultWeeklySchedule } from '../../shared/opening-hours';
import {
  businessProfileForm,
  callerFor,
  createBusiness,
  createSlot,
  createUser,
  TEST_PASSWORD,
} from '../factories/index';
import { useBilling } from '../setup/billing';
import { errorOf, liveEvents } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z')); // Saturday 10:00 in London (GMT)

const WHO = [
  'anonymous',
  'unverifiedCustomer',
  'unverifiedBusiness',
  'customerA',
  'customerB',
  'businessX',
  'businessY',
] as const;
type Who = (typeof WHO)[number];
type Outcome = 'ok' | TRPC_ERROR_CODE_KEY;

/** Text only customer A, its booking's business X and nobody else may see. */
const A_NAME = 'Ada Privatename';
const A_NOTES = 'private note of customer A';

const fakePortal: BillingPortal = {
  createSession: async ({ customerId }) => ({ url: `https://billing.example/session/${customerId}` }),
};
// Billing on (the local Stripe stand-in), started a week ago: every business is in its free period.
const billing = useBilling(() => t.deps, t.clock.now, {
  startsAt: new Date('2026-11-14T10:00:00Z'),
  launchTrialDays: 30,
  trialDays: 14,
  graceDays: 7,
});
const deps = (): AppDeps => ({ ...billing.deps, billingPortal: fakePortal });
const uniq = () => randomBytes(4).toString('hex');

/**
 * Seven identities and X's data: a free slot, a spare slot, a slot with A's pending request
 * (notes A_NOTES) and one booked by A (confirmed); Y has a free slot. Businesses have a billing
 * customer so billing can open.
 */
async function makeWorld() {
  const db = t.deps.db;
  const x = await createBusiness(db, { name: 'Xavier Cuts' });
  const y = await createBusiness(db, { name: 'Yolanda Nails' });
  const ub = await createBusiness(db, { verified: false, name: 'Unverified Studio' });
  for (const b of [x, y, ub]) {
    await db
      .update(businessProfiles)
      .set({ stripeCustomerId: `cus_${b.profile.slug}` })
      .where(sql`${businessProfiles.id} = ${b.user.id}`);
    billing.standIn.customers.set(`cus_${b.profile.slug}`, { id: `cus_${b.profile.slug}`, object: 'customer' });
  }
  const a = await createUser(db, { role: 'customer', name: A_NAME });
  const b = await createUser(db, { role: 'customer', name: 'Bob Other' });
  const uc = await createUser(db, { role: 'customer', verified: false, name: 'Una Unverified' });
  const day = '2026-11-22';
  const free = await createSlot(db, x.user.id, { date: day, startTime: '10:00', endTime: '10:30' });
  const spare = await createSlot(db, x.user.id, { date: day, startTime: '11:00', endTime: '11:30' });
  const requested = await createSlot(db, x.user.id, { date: day, startTime: '12:00', endTime: '12:30' });
  const booked = await createSlot(db, x.user.id, { date: day, startTime: '14:00', endTime: '14:30' });
  const ySlot = await createSlot(db, y.user.id, { date: day, startTime: '10:00', endTime: '10:30' });
  const [pending] = await db
    .insert(bookings)
    .values({ slotId: requested.id, businessId: x.user.id, customerId: a.id, status: 'pending', notes: A_NOTES })
    .returning();
  const [confirmed] = await db
    .insert(bookings)
    .values({ slotId: booked.id, businessId: x.user.id, customerId: a.id, status: 'confirmed' })
    .returning();
  await db
    .update(slots)
    .set({ isBooked: true, customerId: a.id, customerName: A_NAME, customerEmail: a.email })
    .where(sql`${slots.id} = ${booked.id}`);
  const ids: Record<Who, string | null> = {
    anonymous: null,
    unverifiedCustomer: uc.id,
    unverifiedBusiness: ub.user.id,
    customerA: a.id,
    customerB: b.id,
    businessX: x.user.id,
    businessY: y.user.id,
  };
  return { x, y, ub, a, b, uc, free, spare, requested, booked, ySlot, pending: pending!, confirmed: confirmed!, ids };
}
type World = Awaited<ReturnType<typeof makeWorld>>;

interface Entry {
  /** Outcome per identity, in WHO order: anonymous, unverified customer, unverified business, A, B, X, Y. */
  expect: readonly [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome];
  /** A valid input for `who` (the same target for everyone unless the call is about one's own data). */
  input?: (w: World, who: Who) => unknown;
  /** Answers may carry A's private data for anyone (only true of the development mailbox). */
  public?: boolean;
}

const U = 'UNAUTHORIZED';
const F = 'FORBIDDEN';
const NF = 'NOT_FOUND';
const everyone = ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'] as const;
const signedIn = [U, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'] as const;
const businessOwn = [U, F, 'ok', F, F, 'ok', 'ok'] as const;
const customerOwn = [U, 'ok', F, 'ok', 'ok', F, F] as const;
/** A target belonging to business X (its slot or its customer's booking). */
const xTarget = [U, F, NF, F, F, 'ok', NF] as const;

/** A saved alert of customer `customerId` (Leeds, 5 miles, today). */
async function alertOf(customerId: string): Promise<string> {
  const [row] = await t.deps.db
    .insert(alerts)
    .values({
      customerId,
      place: 'Leeds',
      label: 'Leeds',
      latitude: 53.8,
      longitude: -1.55,
      miles: 5,
      window: 'today',
      timezone: 'Europe/London',
    })
    .returning({ id: alerts.id });
  return row!.id;
}

/** Customer `customerId` favourites business `businessId` (idempotent). */
async function favourite(customerId: string, businessId: string): Promise<void> {
  await t.deps.db.insert(customerLikes).values({ customerId, businessId }).onConflictDoNothing();
}

const newPassword = 'another-long-password';
async function tokenFor(purpose: 'email_confirmation' | 'password_reset') {
  const user = await createUser(t.deps.db, { role: 'customer', verified: purpose === 'password_reset' });
  return issueOneTimeToken(t.deps.db, { userId: user.id, purpose, now: t.deps.now() });
}
const businessSignUp = () => ({
  name: 'New Owner',
  email: `new-biz-${uniq()}@example.test`,
  password: TEST_PASSWORD,
  businessName: 'New Studio',
  slug: `new-studio-${uniq()}`,
  category: 'Barber Shop',
  description: 'Walk-ins welcome',
  address: '2 Market Row, Leeds, LS1 6DL',
  phone: '',
  schedule: defaultWeeklySchedule(),
});

const MATRIX: Record<string, Entry> = {
  'auth.me': { expect: everyone },
  'auth.registerCustomer': {
    expect: everyone,
    input: () => ({ name: 'New Person', email: `new-${uniq()}@example.test`, password: TEST_PASSWORD }),
  },
  'auth.registerBusiness': { expect: everyone, input: businessSignUp },
  'auth.checkSlug': { expect: everyone, input: () => ({ slug: `free-${uniq()}` }) },
  'auth.confirmEmail': { expect: everyone, input: async () => ({ token: await tokenFor('email_confirmation') }) },
  'auth.resendConfirmation': { expect: everyone, input: () => ({ email: `nobody-${uniq()}@example.test` }) },
  'auth.signUpEmailStatus': { expect: everyone, input: () => ({ email: `nobody-${uniq()}@example.test` }) },
  'auth.login': {
    expect: everyone,
    input: async () => ({ email: (await createUser(t.deps.db, { role: 'customer' })).email, password: TEST_PASSWORD }),
  },
  'auth.logout': { expect: everyone },
  'auth.requestPasswordReset': { expect: everyone, input: () => ({ email: `nobody-${uniq()}@example.test` }) },
  'auth.checkResetToken': { expect: everyone, input: () => ({ token: 'not-a-token' }) },
  'auth.resetPassword': {
    expect: everyone,
    input: async () => ({ token: await tokenFor('password_reset'), password: newPassword }),
  },
  'auth.changePassword': { expect: signedIn, input: () => ({ currentPassword: TEST_PASSWORD, newPassword }) },
  'auth.requestEmailChange': {
    expect: [U, F, F, 'ok', 'ok', 'ok', 'ok'],
    input: () => ({ newEmail: `moved-${uniq()}@example.test`, currentPassword: TEST_PASSWORD }),
  },
  'businesses.bySlug': { expect: everyone, input: (w) => ({ slug: w.x.profile.slug }) },
  'businesses.mine': { expect: businessOwn },
  // Every business of the world already has a profile: the guard lets them through, the service
  // says the profile is complete.
  'businesses.completeProfile': {
    expect: [U, F, 'CONFLICT', F, F, 'CONFLICT', 'CONFLICT'],
    input: () => ({
      businessName: 'Late Profile',
      description: 'Colour and cuts',
      category: 'Hair Colourist',
      address: '5 High Street, Bath, BA1 1AA',
      phone: '',
      schedule: defaultWeeklySchedule(),
    }),
  },
  'slots.create': {
    expect: [U, F, F, F, F, 'ok', 'ok'],
    input: () => ({ date: '2026-11-23', startTime: '10:00', endTime: '11:00', description: 'Cut' }),
  },
  'slots.update': {
    expect: xTarget,
    input: (w) => ({
      slotId: w.free.id,
      date: '2026-11-23',
      startTime: '15:00',
      endTime: '15:30',
      description: 'Moved',
    }),
  },
  'slots.delete': { expect: xTarget, input: (w) => ({ slotId: w.free.id }) },
  'slots.markAddedToSystem': { expect: xTarget, input: (w) => ({ slotId: w.booked.id }) },
  'slots.listMine': { expect: businessOwn },
  'bookings.request': {
    expect: [U, F, F, 'ok', 'ok', F, F],
    input: (w, who) => ({ slotId: who === 'customerB' ? w.spare.id : w.free.id }),
  },
  'bookings.confirm': { expect: xTarget, input: (w) => ({ bookingId: w.pending.id }) },
  'bookings.decline': { expect: xTarget, input: (w) => ({ bookingId: w.pending.id }) },
  'bookings.approve': { expect: xTarget, input: (w) => ({ bookingId: w.pending.id }) },
  'bookings.reject': { expect: xTarget, input: (w) => ({ bookingId: w.pending.id }) },
  'bookings.cancel': { expect: [U, NF, F, 'ok', NF, F, F], input: (w) => ({ bookingId: w.pending.id }) },
  'bookings.calendarFile': { expect: [U, NF, F, 'ok', NF, F, F], input: (w) => ({ bookingId: w.confirmed.id }) },
  'bookings.requests': { expect: businessOwn },
  'bookings.mine': { expect: customerOwn },
  'bookings.onChange': { expect: signedIn },
  'contact.send': { expect: signedIn, input: () => ({ subject: 'Hello', message: 'A question' }) },
  'favourites.status': { expect: everyone, input: (w) => ({ businessId: w.x.user.id }) },
  'favourites.set': { expect: customerOwn, input: (w) => ({ businessId: w.x.user.id, favourited: true }) },
  'favourites.mine': { expect: customerOwn },
  'favourites.setAlert': {
    expect: customerOwn,
    input: async (w, who) => {
      if (who.includes('ustomer')) await favourite(w.ids[who]!, w.x.user.id);
      return { businessId: w.x.user.id, notify: true };
    },
  },
  'alerts.create': { expect: customerOwn, input: () => ({ window: 'today', place: 'Leeds', miles: 5 }) },
  'alerts.list': { expect: customerOwn },
  // A's alert: another customer's is NOT_FOUND, like a booking.
  'alerts.setPaused': {
    expect: [U, NF, F, 'ok', NF, F, F],
    input: async (w) => ({ alertId: await alertOf(w.a.id), paused: true }),
  },
  'alerts.delete': { expect: [U, NF, F, 'ok', NF, F, F], input: async (w) => ({ alertId: await alertOf(w.a.id) }) },
  'settings.business': { expect: businessOwn },
  'settings.checkSlug': { expect: businessOwn, input: () => ({ slug: `free-${uniq()}` }) },
  'settings.updateBusinessProfile': {
    expect: businessOwn,
    input: () => businessProfileForm(`renamed-${uniq()}`),
  },
  'settings.updateBusinessHours': { expect: businessOwn, input: () => ({ schedule: defaultWeeklySchedule() }) },
  'settings.location': { expect: businessOwn },
  'settings.setLocation': { expect: businessOwn, input: () => ({ latitude: 53.8, longitude: -1.55, source: 'pin' }) },
  'settings.setDiscoverable': { expect: businessOwn, input: () => ({ discoverable: false }) },
  'settings.locateFromAddress': { expect: businessOwn },
  // Discover is public: anyone may search and follow a list live.
  'discovery.search': {
    expect: everyone,
    input: () => ({ window: 'today', latitude: 53.8, longitude: -1.55, miles: 5 }),
  },
  'discovery.onChange': { expect: everyone, input: () => ({ latitude: 53.8, longitude: -1.55, miles: 5 }) },
  'settings.calendarFeed': { expect: businessOwn },
  'settings.regenerateCalendarFeed': { expect: businessOwn },
  'settings.customer': { expect: customerOwn },
  'settings.updateCustomerName': { expect: customerOwn, input: () => ({ fullName: 'Renamed Person' }) },
  'billing.portalSession': { expect: businessOwn },
  'billing.subscription': { expect: businessOwn },
  'billing.offer': { expect: everyone },
  'billing.checkout': { expect: businessOwn },
  'notifications.preferences': { expect: signedIn },
  'notifications.setPreference': {
    expect: signedIn,
    input: (_w, who) => ({ kind: who.includes('usiness') ? 'booking_requested' : 'booking_reminder', enabled: false }),
  },
  // The emailed token is the authority (no session): an unknown token is NOT_FOUND for everyone.
  'notifications.unsubscribeInfo': { expect: [NF, NF, NF, NF, NF, NF, NF], input: () => ({ token: 'a'.repeat(32) }) },
  'notifications.unsubscribe': { expect: [NF, NF, NF, NF, NF, NF, NF], input: () => ({ token: 'a'.repeat(32) }) },
  'account.exportData': { expect: signedIn },
  'account.delete': { expect: signedIn, input: () => ({ confirmation: 'DELETE', currentPassword: TEST_PASSWORD }) },
  // The development tools serve anyone: the mailbox shows every queued email, createAccount makes
  // a new account and signs the caller in as it. Both are NOT_FOUND in production (checked below).
  'dev.mailbox': { expect: everyone, public: true },
  'dev.createAccount': {
    expect: everyone,
    public: true,
    input: () => ({
      role: 'customer',
      name: 'New Person',
      email: `new-${uniq()}@example.test`,
      password: TEST_PASSWORD,
    }),
  },
};

/** The flat record 'router.procedure' → procedure (typed as the nested router shape). */
const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;

type Caller = Awaited<ReturnType<typeof callerFor>>;
/** Calls `path` on `caller`; a subscription is opened, its first event read and closed. */
async function call(caller: Caller, path: string, input: unknown): Promise<unknown> {
  let fn: unknown = caller;
  for (const part of path.split('.')) fn = (fn as Record<string, unknown>)[part];
  const out = await (fn as (i: unknown) => Promise<unknown>)(input);
  if (procedures[path]!._def.type !== 'subscription') return out;
  const it = (out as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  try {
    const first = await it.next();
    return first.value;
  } finally {
    await it.return?.();
  }
}

/** Every row of the tables a refused call must not touch, in a stable order. */
async function snapshot(): Promise<string> {
  const tables = [
    'users',
    'business_profiles',
    'customer_profiles',
    'slots',
    'bookings',
    'customer_likes',
    'contact_messages',
    'email_outbox',
    'one_time_tokens',
    'idempotency_keys',
    'geocode_requests',
    'alerts',
    'alert_matches',
  ];
  const out: Record<string, unknown> = {};
  for (const table of tables) {
    const rows: unknown = await t.deps.db.execute(sql.raw(`select * from ${table} order by 1`));
    out[table] = Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows;
  }
  return JSON.stringify(out);
}

describe('authorization matrix', () => {
  it('names only procedures that exist', () => {
    expect(Object.keys(MATRIX).filter((p) => !(p in procedures))).toEqual([]);
  });

  for (const path of Object.keys(procedures)) {
    it(`${path} (${procedures[path]!._def.type})`, async () => {
      const entry = MATRIX[path];
      if (!entry) {
        throw new Error(
          `no authorization entry for ${path}: add one to MATRIX in tests/integration/authz-matrix.test.ts`,
        );
      }
      const w = await makeWorld();
      const callers = new Map<Who, Caller>();
      for (const who of WHO) callers.set(who, await callerFor(deps(), w.ids[who]));
      const outcomes = WHO.map((who, i) => ({ who, expected: entry.expect[i]! }));
      // Refusals first, so no allowed change comes between a refused call and its check.
      for (const { who, expected } of outcomes.filter((o) => o.expected !== 'ok')) {
        const input = await entry.input?.(w, who);
        const before = await snapshot();
        const result = await call(callers.get(who)!, path, input).then(
          (out) => ({ out }),
          (err: unknown) => ({ err }),
        );
        if ('out' in result) {
          throw new Error(
            `${who} was let through ${path} (expected ${expected}); answer: ${JSON.stringify(result.out)}`,
          );
        }
        expect(result.err).toBeInstanceOf(TRPCError);
        expect({ who, code: (result.err as TRPCError).code }).toEqual({ who, code: expected });
        expect(await snapshot(), `${who}'s refused ${path} changed the database`).toBe(before);
      }
      for (const { who } of outcomes.filter((o) => o.expected === 'ok')) {
        const input = await entry.input?.(w, who);
        const out = await call(callers.get(who)!, path, input).catch((err: unknown) => {
          throw new Error(`${who} should be allowed ${path}, got ${String(err)}`);
        });
        if (!entry.public && who !== 'customerA' && who !== 'businessX') {
          const text = JSON.stringify(out ?? null);
          for (const secret of [A_NAME, A_NOTES, w.a.email, w.pending.id, w.confirmed.id]) {
            expect(text.includes(secret), `${path} gave ${who} customer A's ${secret}`).toBe(false);
          }
        }
      }
    });
  }

  it('every dev procedure is NOT_FOUND in production, whoever asks, and changes nothing', async () => {
    const w = await makeWorld();
    const devPaths = Object.keys(procedures).filter((p) => p.startsWith('dev.'));
    expect(devPaths).toEqual(['dev.mailbox', 'dev.createAccount']);
    for (const who of WHO) {
      const caller = await callerFor({ ...deps(), isProduction: true }, w.ids[who]);
      for (const path of devPaths) {
        const before = await snapshot();
        expect((await errorOf(call(caller, path, await MATRIX[path]!.input?.(w, who)))).code).toBe('NOT_FOUND');
        expect(await snapshot(), `${who}'s ${path} in production changed the database`).toBe(before);
      }
    }
  });
});

describe('bookings.onChange isolation', () => {
  it("each signed-in identity hears of its own bookings only, never of another tenant's", async () => {
    const w = await makeWorld();
    const streams = new Map<Exclude<Who, 'anonymous'>, Awaited<ReturnType<typeof liveEvents>>>();
    for (const who of WHO) {
      if (who === 'anonymous') continue;
      const caller = await callerFor(deps(), w.ids[who]);
      streams.set(who, await liveEvents(caller));
    }
    try {
      for (const s of streams.values()) expect(await s.next()).toEqual({ kind: 'resync' });
      // A change in X's data: A requests X's free slot.
      const a = await callerFor(deps(), w.a.id);
      const { id: change } = await a.bookings.request({ slotId: w.free.id });
      expect(await streams.get('businessX')!.next()).toMatchObject({ bookingId: change });
      expect(await streams.get('customerA')!.next()).toMatchObject({ bookingId: change });
      // A sentinel for everyone else, published after it: the first thing each of them hears
      // must be the sentinel (events arrive in order, so a leak would come first).
      const sentinel = (businessId: string, customerId: string): Extract<BookingEvent, { kind: 'booking' }> => ({
        kind: 'booking',
        change: 'requested',
        bookingId: `sentinel-${uniq()}`,
        slotId: null,
        businessId,
        customerId,
      });
      const sentinels = [sentinel(w.y.user.id, w.b.id), sentinel(w.ub.user.id, w.uc.id)] as const;
      for (const s of sentinels) await t.deps.hub.publish(s);
      expect(await streams.get('businessY')!.next()).toMatchObject({ bookingId: sentinels[0]!.bookingId });
      expect(await streams.get('customerB')!.next()).toMatchObject({ bookingId: sentinels[0]!.bookingId });
      expect(await streams.get('unverifiedBusiness')!.next()).toMatchObject({ bookingId: sentinels[1]!.bookingId });
      expect(await streams.get('unverifiedCustomer')!.next()).toMatchObject({ bookingId: sentinels[1]!.bookingId });
    } finally {
      for (const s of streams.values()) await s.close();
    }
  });
});
