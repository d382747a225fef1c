/** Calendars (docs/decisions/0052): the business's private feed, its token stored hashed, and 'Add to calendar'. */
import { and, eq, inArray, isNotNull, or } from 'drizzle-orm';
import { addDaysToDate, localNow } from '../../../shared/zoned-time';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { bookings, businessProfiles, calendarFeeds } from '../../db/schema/index';
import { generateToken, hashToken } from '../auth/tokens';
import { customerBookingCalendar, loadBookingFacts } from '../bookings/booking-notifications';
import { bookingsCalendar } from './ics';

/** How far back the feed reaches, in days: older appointments are already in the calendar. */
export const FEED_PAST_DAYS = 90;

/** The feed URL for `token`: GET /calendar/{token}.ics. */
export function calendarFeedUrl(deps: Pick<ServiceDeps, 'appOrigin'>, token: string): string {
  return `${deps.appOrigin}/calendar/${token}.ics`;
}

/** { active, createdAt | null } of the business's feed; the URL is shown only when created. */
export async function getCalendarFeed(deps: Pick<ServiceDeps, 'db'>, businessId: string) {
  const [feed] = await deps.db
    .select({ createdAt: calendarFeeds.createdAt })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.businessId, businessId))
    .limit(1);
  return { active: Boolean(feed), createdAt: feed?.createdAt ?? null };
}

/**
 * Creates the business's feed or replaces its token, so the previous URL answers 404. Output: { url,
 * createdAt }, the only time the URL is given out. Throws NOT_FOUND without a profile.
 */
export async function regenerateCalendarFeed(
  deps: Pick<ServiceDeps, 'db' | 'now' | 'appOrigin'>,
  businessId: string,
): Promise<{ url: string; createdAt: Date }> {
  const token = generateToken();
  const createdAt = deps.now();
  const [profile] = await deps.db
    .select({ id: businessProfiles.id })
    .from(businessProfiles)
    .where(eq(businessProfiles.id, businessId))
    .limit(1);
  if (!profile) throw new DomainError('NOT_FOUND', 'Business profile not found');
  await deps.db
    .insert(calendarFeeds)
    .values({ businessId, tokenHash: hashToken(token), createdAt })
    .onConflictDoUpdate({ target: calendarFeeds.businessId, set: { tokenHash: hashToken(token), createdAt } });
  return { url: calendarFeedUrl(deps, token), createdAt };
}

/**
 * The feed of the token's business, or null for an unknown or replaced token: its accepted bookings,
 * and those cancelled after being confirmed, from FEED_PAST_DAYS ago.
 */
export async function calendarFeedByToken(
  deps: Pick<ServiceDeps, 'db' | 'now'>,
  token: string,
): Promise<string | null> {
  const [feed] = await deps.db
    .select({
      businessId: calendarFeeds.businessId,
      name: businessProfiles.businessName,
      timezone: businessProfiles.timezone,
    })
    .from(calendarFeeds)
    .innerJoin(businessProfiles, eq(businessProfiles.id, calendarFeeds.businessId))
    .where(eq(calendarFeeds.tokenHash, hashToken(token)))
    .limit(1);
  if (!feed) return null;
  const ids = await deps.db
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.businessId, feed.businessId),
        or(
          inArray(bookings.status, ['confirmed', 'completed']),
          and(eq(bookings.status, 'cancelled'), isNotNull(bookings.confirmedAt)),
        ),
      ),
    );
  const from = addDaysToDate(localNow(feed.timezone, deps.now()).date, -FEED_PAST_DAYS);
  const facts = await loadBookingFacts(
    deps.db,
    ids.map((r) => r.id),
  );
  const events = facts
    .filter((f) => f.businessId === feed.businessId && f.appointment.date >= from)
    .sort((a, b) =>
      `${a.appointment.date} ${a.appointment.startTime}`.localeCompare(
        `${b.appointment.date} ${b.appointment.startTime}`,
      ),
    )
    .map((f) => ({
      bookingId: f.bookingId,
      status: f.status,
      updatedAt: f.updatedAt,
      revision: f.calendarRevision,
      ...f.appointment,
      customerName: f.customerId ? f.customerName : null,
    }));
  return bookingsCalendar({
    name: `${feed.name} bookings (LastSlot)`,
    timezone: feed.timezone,
    view: 'business',
    bookings: events,
  });
}

/** 'Add to calendar': { filename, content } of the customer's accepted booking. Throws NOT_FOUND otherwise. */
export async function customerCalendarFile(
  deps: Pick<ServiceDeps, 'db'>,
  customerId: string,
  bookingId: string,
): Promise<{ filename: string; content: string }> {
  const [own] = await deps.db
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.id, bookingId),
        eq(bookings.customerId, customerId),
        inArray(bookings.status, ['confirmed', 'completed']),
      ),
    )
    .limit(1);
  if (!own) throw new DomainError('NOT_FOUND', 'Booking not found');
  const [facts] = await loadBookingFacts(deps.db, [bookingId]);
  return { filename: `appointment-${facts!.appointment.date}.ics`, content: customerBookingCalendar(facts!) };
}
