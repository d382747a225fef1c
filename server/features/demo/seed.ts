/**
 * Demo data for a first start on an empty database (SEED_DEMO): a confirmed demo business with
 * open slots over the next days and a confirmed demo customer. Never run in production or tests.
 */
import { count } from 'drizzle-orm';
import { WEEKDAYS, type OpeningHours } from '../../../shared/opening-hours';
import { addDaysToDate, isPast, localNow } from '../../../shared/zoned-time';
import type { Db } from '../../db/client';
import { businessProfiles, customerProfiles, slots, users } from '../../db/schema/index';
import { hashPassword } from '../auth/password';

export const DEMO = {
  businessEmail: 'business@demo.lastslot.local',
  customerEmail: 'customer@demo.lastslot.local',
  password: 'demo-password',
  slug: 'demo-salon',
} as const;

const DEMO_TIMES: ReadonlyArray<[string, string, string]> = [
  ['10:00', '10:30', 'Fringe trim (cancelled slot, 20% off)'],
  ['11:30', '12:30', 'Cut and blow-dry'],
  ['14:00', '15:00', 'Colour refresh'],
  ['16:30', '17:00', 'Beard tidy'],
];

/**
 * Seeds the demo accounts when the users table is empty. Returns true when it seeded.
 * Slots: the four times above on each of the next 3 days, skipping those already started.
 */
export async function seedDemoIfEmpty(db: Db, now: Date = new Date()): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  if ((row?.n ?? 0) > 0) return false;
  const passwordHash = await hashPassword(DEMO.password);
  const hours: OpeningHours = Object.fromEntries(WEEKDAYS.map((d) => [d, { open: '09:00', close: '18:00' }]));
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
      })),
    );
    await tx.insert(slots).values(rows.filter((s) => !isPast(s.date, s.startTime, timezone, now)));
  });
  return true;
}
