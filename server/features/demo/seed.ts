/** Demo data for a first development start on an empty database (SEED_DEMO), so Discover has content. */
import { count } from 'drizzle-orm';
import { businessTypeLabel } from '../../../shared/categories';
import type { LatLng } from '../../../shared/geo';
import { WEEKDAYS, type OpeningHours } from '../../../shared/opening-hours';
import { fromMinutes, toMinutes } from '../../../shared/time-of-day';
import { addDaysToDate, isPast, localNow } from '../../../shared/zoned-time';
import type { Db, Tx } from '../../db/client';
import { businessProfiles, customerProfiles, slots, users } from '../../db/schema/index';
import { hashPassword } from '../auth/password';
import { slotDiscoveryColumns } from '../discovery/listing.service';

export const DEMO = {
  businessEmail: 'business@demo.lastslot.local',
  customerEmail: 'customer@demo.lastslot.local',
  password: 'demo-password',
  slug: 'demo-salon',
} as const;

/** Opening hours from `open` to `close` o'clock every day. */
const everyDay = (open: number, close: number): OpeningHours =>
  Object.fromEntries(WEEKDAYS.map((d) => [d, { open: fromMinutes(open * 60), close: fromMinutes(close * 60) }]));

const DEMO_TIMES: ReadonlyArray<[string, string, string]> = [
  ['10:00', '10:30', 'Fringe trim (cancelled slot, 20% off)'],
  ['11:30', '12:30', 'Cut and blow-dry'],
  ['14:00', '15:00', 'Colour refresh'],
  ['16:30', '17:00', 'Beard tidy'],
];

/** Where the demo salon is (Camden Town, London). */
const DEMO_SALON_AT: LatLng = { latitude: 51.539, longitude: -0.1426 };

/** The Discover demo around Manchester; accounts are `<slug>@demo.lastslot.local` with the demo password. */
const DISCOVER_DEMO: ReadonlyArray<[string, string, string, number, number, string, string]> = [
  [
    'Northern Quarter Barbers',
    'nq-barbers',
    'Barber Shop',
    53.4839,
    -2.2363,
    'Oldham Street, Manchester, M1 1JQ',
    'Skin fade',
  ],
  [
    'Deansgate Hair Studio',
    'deansgate-hair',
    'Hair Salon',
    53.4794,
    -2.2493,
    'Deansgate, Manchester, M3 2BW',
    'Cut and blow-dry',
  ],
  [
    'Ancoats Nail Bar',
    'ancoats-nails',
    'Nail Salon',
    53.4845,
    -2.2265,
    'Blossom Street, Manchester, M4 6AJ',
    'Gel manicure',
  ],
  [
    'Spinningfields Skin Clinic',
    'spinningfields-skin',
    'Facialist',
    53.4807,
    -2.253,
    'Hardman Street, Manchester, M3 3EB',
    'Hydrating facial',
  ],
  [
    'Didsbury Massage Rooms',
    'didsbury-massage',
    'Massage Therapist',
    53.4166,
    -2.2315,
    'Wilmslow Road, Manchester, M20 6RT',
    'Full body massage',
  ],
  [
    'Chorlton Yoga Loft',
    'chorlton-yoga',
    'Yoga Instructor',
    53.442,
    -2.277,
    'Beech Road, Manchester, M21 9EG',
    'Private yoga session',
  ],
  [
    'Salford Quays Physio',
    'quays-physio',
    'Physiotherapist',
    53.4714,
    -2.2967,
    'The Quays, Salford, M50 3AG',
    'Physio assessment',
  ],
  [
    'Stockport Lash Studio',
    'stockport-lashes',
    'Eyelash & Eyebrow Specialist',
    53.4083,
    -2.1494,
    'Little Underbank, Stockport, SK1 1JT',
    'Lash lift',
  ],
  [
    'Levenshulme Sports Massage',
    'levenshulme-sports',
    'Sports Massage Therapist',
    53.444,
    -2.193,
    'Stockport Road, Manchester, M19 3AB',
    'Sports massage',
  ],
  [
    'Prestwich Pilates',
    'prestwich-pilates',
    'Pilates Instructor',
    53.533,
    -2.287,
    'Bury New Road, Manchester, M25 1AJ',
    'Reformer pilates',
  ],
  [
    'Altrincham Aesthetics',
    'altrincham-aesthetics',
    'Medical Aesthetics Clinic',
    53.3872,
    -2.349,
    'Stamford New Road, Altrincham, WA14 1EJ',
    'Skin consultation',
  ],
  [
    'Castlefield Tattoo',
    'castlefield-tattoo',
    'Tattoo Artist',
    53.4746,
    -2.256,
    'Liverpool Road, Manchester, M3 4JR',
    'Small tattoo',
  ],
];

/** Business `k`'s slot times today: every 90 minutes to 21:00, from a half hour 20+ minutes away, staggered by `k`. */
function demoTimesToday(nowTime: string, k: number): string[] {
  const first = Math.ceil((toMinutes(nowTime) + 20) / 30) * 30 + (k % 3) * 30;
  const times: string[] = [];
  for (let m = first; m <= 21 * 60; m += 90) times.push(fromMinutes(m));
  return times;
}

/** Inserts the Discover demo businesses with slots today and tomorrow. */
async function seedDiscoverDemo(tx: Tx, passwordHash: string, hours: OpeningHours, timezone: string, now: Date) {
  const { date: today, time } = localNow(timezone, now);
  for (const [k, [businessName, slug, businessType, latitude, longitude, address, offer]] of DISCOVER_DEMO.entries()) {
    const email = `${slug}@demo.lastslot.local`;
    const [owner] = await tx
      .insert(users)
      .values({ email, passwordHash, role: 'business', name: businessName, emailVerifiedAt: now })
      .returning({ id: users.id });
    await tx.insert(businessProfiles).values({
      id: owner!.id,
      businessName,
      slug,
      description: `${businessName}: short-notice appointments posted as they free up.`,
      businessType,
      address,
      emailAddress: email,
      openingHours: hours,
      timezone,
      latitude,
      longitude,
      locationPrecision: 'exact',
      locationSource: 'pin',
    });
    const placement = { timezone, listedAt: { latitude, longitude }, category: businessTypeLabel(businessType) };
    const times = [
      ...demoTimesToday(time, k).map((t) => [today, t] as const),
      ...['10:00', '13:00', '16:30'].map((t) => [addDaysToDate(today, 1), t] as const),
    ];
    const rows = times
      .filter(([date, start]) => toMinutes(start) + 60 <= 24 * 60 && !isPast(date, start, timezone, now))
      .map(([date, startTime]) => ({
        businessId: owner!.id,
        date,
        startTime,
        endTime: fromMinutes(toMinutes(startTime) + (k % 2 === 0 ? 30 : 60)),
        description: offer,
        ...slotDiscoveryColumns(placement, date, startTime),
      }));
    if (rows.length > 0) await tx.insert(slots).values(rows);
  }
}

/** Seeds the demo when the users table is empty, the salon's slots today and the next two days. True when it did. */
export async function seedDemoIfEmpty(db: Db, now: Date = new Date()): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  if ((row?.n ?? 0) > 0) return false;
  const passwordHash = await hashPassword(DEMO.password);
  const hours = everyDay(9, 18);
  const timezone = 'Europe/London';
  await db.transaction(async (tx) => {
    const [business] = await tx
      .insert(users)
      .values({ email: DEMO.businessEmail, passwordHash, role: 'business', name: 'Bea Barber', emailVerifiedAt: now })
      .returning({ id: users.id });
    const [customer] = await tx
      .insert(users)
      .values({ email: DEMO.customerEmail, passwordHash, role: 'customer', name: 'Dana Demo', emailVerifiedAt: now })
      .returning({ id: users.id });
    await tx.insert(businessProfiles).values({
      id: business!.id,
      businessName: 'Demo Hair Studio',
      slug: DEMO.slug,
      description: 'A friendly neighbourhood salon. We post cancelled and short-notice appointments here first.',
      businessType: 'Hair Salon',
      address: '12 High Street, Camden, London, NW1 7JR',
      phoneNumber: '020 7946 0000',
      emailAddress: DEMO.businessEmail,
      openingHours: hours,
      timezone,
      ...DEMO_SALON_AT,
      locationPrecision: 'exact',
      locationSource: 'pin',
    });
    await tx.insert(customerProfiles).values({ id: customer!.id, fullName: 'Dana Demo', email: DEMO.customerEmail });
    const today = localNow(timezone, now).date;
    const rows = [0, 1, 2].flatMap((offset) =>
      DEMO_TIMES.map(([startTime, endTime, description]) => ({
        businessId: business!.id,
        date: addDaysToDate(today, offset),
        startTime,
        endTime,
        description,
        ...slotDiscoveryColumns(
          { timezone, listedAt: DEMO_SALON_AT, category: 'Hair Salon' },
          addDaysToDate(today, offset),
          startTime,
        ),
      })),
    );
    await tx.insert(slots).values(rows.filter((s) => !isPast(s.date, s.startTime, timezone, now)));
    await seedDiscoverDemo(tx, passwordHash, everyDay(8, 21), timezone, now);
  });
  return true;
}
