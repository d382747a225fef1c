/** The emails each booking transition queues, in its transaction (docs/decisions/0050). */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { REMINDER_LEAD_MINUTES, type NotificationKind } from '../../../shared/notifications';
import { zonedInstant } from '../../../shared/zoned-time';
import type { ServiceDeps } from '../../core/deps';
import type { DbOrTx, Tx } from '../../db/client';
import { preparedStatement } from '../../db/prepared';
import { bookings, businessProfiles, customerProfiles, emailOutbox, slots, users } from '../../db/schema/index';
import type { NotificationFooter } from '../../email/layout';
import {
  bookingCancelledEmail,
  bookingConfirmedEmail,
  bookingDeclinedEmail,
  bookingReminderEmail,
  bookingRequestedEmail,
  bookingTimeZoneChangedEmail,
  customerDeletedEmail,
  requestReceivedEmail,
  requestWithdrawnEmail,
  type Appointment,
  type AppointmentTimes,
  type EmailMessage,
} from '../../email/templates';
import { publicPageUrl } from '../businesses/businesses.service';
import { bookingsCalendar, CALENDAR_ALARM_MINUTES } from '../calendar/ics';
import { queueNotification } from '../notifications/notifications.service';

type Deps = Pick<ServiceDeps, 'appOrigin'>;

const businessUser = alias(users, 'business_user');
const customerUser = alias(users, 'customer_user');

/** What the notifications of one booking need, from the live rows or their archived copies. */
export type BookingFacts = Awaited<ReturnType<typeof loadBookingFacts>>[number];

function factsQuery(db: DbOrTx) {
  return db
    .select({
      bookingId: bookings.id,
      status: bookings.status,
      updatedAt: bookings.updatedAt,
      calendarRevision: bookings.calendarRevision,
      businessId: bookings.businessId,
      customerId: bookings.customerId,
      description: sql<string>`coalesce(${slots.description}, ${bookings.archivedSlotDescription}, '')`,
      date: sql<string>`coalesce(${slots.date}::text, ${bookings.archivedSlotDate}::text)`,
      startTime: sql<string>`coalesce(${slots.startTime}, ${bookings.archivedSlotStartTime})`,
      endTime: sql<string>`coalesce(${slots.endTime}, ${bookings.archivedSlotEndTime})`,
      businessName: sql<string>`coalesce(${businessProfiles.businessName}, ${bookings.archivedBusinessName}, 'the business')`,
      address: sql<string | null>`coalesce(${businessProfiles.address}, ${bookings.archivedBusinessAddress})`,
      slug: businessProfiles.slug,
      timezone: sql<string>`coalesce(${businessProfiles.timezone}, ${bookings.archivedBusinessTimezone}, 'Europe/London')`,
      businessEmail: businessUser.email,
      businessContact: sql<
        string | null
      >`nullif(concat_ws(', ', ${businessProfiles.emailAddress}, ${businessProfiles.phoneNumber}), '')`,
      customerEmail: customerUser.email,
      customerName: sql<string>`coalesce(${customerProfiles.fullName}, ${customerUser.name}, 'Customer')`,
    })
    .from(bookings)
    .leftJoin(slots, eq(slots.id, bookings.slotId))
    .leftJoin(businessProfiles, eq(businessProfiles.id, bookings.businessId))
    .leftJoin(businessUser, eq(businessUser.id, bookings.businessId))
    .leftJoin(customerUser, eq(customerUser.id, bookings.customerId))
    .leftJoin(customerProfiles, eq(customerProfiles.id, bookings.customerId));
}

/** Prepared, as every booking transition reads one booking's facts. */
const oneBookingFacts = preparedStatement<{ id: string }>()('booking_facts_one', (db, p) =>
  factsQuery(db).where(inArray(bookings.id, [p.id])),
);

/** The facts of bookings `ids`, in any order; the appointment is in the business's zone. */
export async function loadBookingFacts(tx: DbOrTx, ids: string[]) {
  if (ids.length === 0) return [];
  const rows =
    ids.length === 1
      ? await oneBookingFacts(tx, { id: ids[0]! })
      : await factsQuery(tx).where(inArray(bookings.id, ids));
  return rows.map((r) => ({
    ...r,
    appointment: {
      businessName: r.businessName,
      description: r.description,
      date: r.date,
      startTime: r.startTime,
      endTime: r.endTime,
      address: r.address,
    } satisfies Appointment,
  }));
}

const dashboardUrl = (deps: Deps) => `${deps.appOrigin}/dashboard`;

/** Queues `kind` for one side of booking `f`, when that side still has an account. */
async function notifySide(
  tx: Tx,
  deps: Deps,
  f: BookingFacts,
  side: 'business' | 'customer',
  kind: NotificationKind,
  now: Date,
  build: (to: string, footer: NotificationFooter) => EmailMessage,
  when: { sendAfter?: Date; occurrence?: number } = {},
): Promise<void> {
  const userId = side === 'business' ? f.businessId : f.customerId;
  const to = side === 'business' ? f.businessEmail : f.customerEmail;
  if (!userId || !to) return;
  await queueNotification(tx, deps, {
    kind,
    role: side,
    userId,
    to,
    bookingId: f.bookingId,
    now,
    ...when,
    build: (footer) => build(to, footer),
  });
}

/** A new request: an email to each side. */
export async function notifyRequested(tx: Tx, deps: Deps, f: BookingFacts, now: Date): Promise<void> {
  const { appointment, customerName } = f;
  await notifySide(tx, deps, f, 'business', 'booking_requested', now, (to, footer) =>
    bookingRequestedEmail(to, { appointment, footer, customerName, dashboardUrl: dashboardUrl(deps) }),
  );
  await notifySide(tx, deps, f, 'customer', 'request_received', now, (to, footer) =>
    requestReceivedEmail(to, { appointment, footer, dashboardUrl: dashboardUrl(deps) }),
  );
}

/** The .ics of one confirmed booking, as the customer sees it, with the reminder alarm. */
export function customerBookingCalendar(
  f: Pick<BookingFacts, 'bookingId' | 'status' | 'updatedAt' | 'calendarRevision' | 'timezone' | 'appointment'>,
): string {
  return bookingsCalendar({
    name: f.appointment.businessName,
    timezone: f.timezone,
    view: 'customer',
    alarmMinutes: CALENDAR_ALARM_MINUTES,
    bookings: [
      {
        bookingId: f.bookingId,
        status: f.status,
        updatedAt: f.updatedAt,
        revision: f.calendarRevision,
        ...f.appointment,
      },
    ],
  });
}

/**
 * The business's answer, to the customer. Accepted: the .ics attached, `withdrawn` listed, and a
 * reminder REMINDER_LEAD_MINUTES before the start unless that time has come.
 */
export async function notifyDecided(
  tx: Tx,
  deps: Deps,
  f: BookingFacts,
  accepted: boolean,
  now: Date,
  withdrawn: Appointment[] = [],
): Promise<void> {
  const { appointment } = f;
  if (!accepted) {
    const pageUrl = f.slug ? publicPageUrl(deps, f.slug) : deps.appOrigin;
    await notifySide(tx, deps, f, 'customer', 'booking_declined', now, (to, footer) =>
      bookingDeclinedEmail(to, { appointment, footer, pageUrl }),
    );
    return;
  }
  const ics = customerBookingCalendar(f);
  await notifySide(tx, deps, f, 'customer', 'booking_confirmed', now, (to, footer) =>
    bookingConfirmedEmail(
      to,
      { appointment, footer, dashboardUrl: dashboardUrl(deps), ...(withdrawn.length > 0 ? { withdrawn } : {}) },
      ics,
    ),
  );
  const startsAt = zonedInstant(appointment.date, appointment.startTime, f.timezone).getTime();
  const remindAt = new Date(startsAt - REMINDER_LEAD_MINUTES * 60_000);
  if (remindAt.getTime() <= now.getTime()) return;
  await notifySide(
    tx,
    deps,
    f,
    'customer',
    'booking_reminder',
    now,
    (to, footer) => bookingReminderEmail(to, { appointment, footer, dashboardUrl: dashboardUrl(deps) }),
    { sendAfter: remindAt },
  );
}

/**
 * The business changed its time zone and booking `f` kept its instant (docs/decisions/0078): one email
 * per calendar revision to the customer. A queued reminder keeps its send time but shows the new zone.
 */
export async function notifyTimeZoneChanged(
  tx: Tx,
  deps: Deps,
  f: BookingFacts,
  previous: AppointmentTimes,
  now: Date,
): Promise<void> {
  const appointment = { ...f.appointment, timeZone: f.timezone };
  const confirmed = f.status === 'confirmed' || f.status === 'completed';
  const ics = confirmed ? customerBookingCalendar(f) : null;
  await notifySide(
    tx,
    deps,
    f,
    'customer',
    'booking_updated',
    now,
    (to, footer) =>
      bookingTimeZoneChangedEmail(
        to,
        { appointment, previous, confirmed, footer, dashboardUrl: dashboardUrl(deps) },
        ics,
      ),
    { occurrence: f.calendarRevision },
  );
  await tx
    .update(emailOutbox)
    .set({ props: sql`jsonb_set(${emailOutbox.props}, '{appointment}', ${JSON.stringify(appointment)}::text::jsonb)` })
    .where(
      and(
        eq(emailOutbox.bookingId, f.bookingId),
        eq(emailOutbox.kind, 'booking_reminder'),
        eq(emailOutbox.status, 'pending'),
      ),
    );
}

/** To the business: the customer withdrew a request, or it was withdrawn for an overlap (`reason`). */
export async function notifyWithdrawn(
  tx: Tx,
  deps: Deps,
  f: BookingFacts,
  now: Date,
  reason?: 'overlap',
): Promise<void> {
  const { appointment, customerName } = f;
  await notifySide(tx, deps, f, 'business', 'request_withdrawn', now, (to, footer) =>
    requestWithdrawnEmail(to, {
      appointment,
      footer,
      customerName,
      dashboardUrl: dashboardUrl(deps),
      ...(reason ? { reason } : {}),
    }),
  );
}

/** To the business: a customer with this upcoming accepted booking deleted their account. */
export async function notifyCustomerDeleted(tx: Tx, deps: Deps, f: BookingFacts, now: Date): Promise<void> {
  const { appointment, customerName } = f;
  await notifySide(tx, deps, f, 'business', 'customer_deleted', now, (to, footer) =>
    customerDeletedEmail(to, { appointment, footer, customerName, dashboardUrl: dashboardUrl(deps) }),
  );
}

/** To the customer: the business closed its account; `wasConfirmed` picks the wording. */
export async function notifyBusinessClosed(
  tx: Tx,
  deps: Deps,
  f: BookingFacts,
  wasConfirmed: boolean,
  now: Date,
): Promise<void> {
  await notifySide(tx, deps, f, 'customer', 'booking_cancelled', now, (to, footer) =>
    bookingCancelledEmail(to, {
      appointment: f.appointment,
      footer,
      reason: 'business_closed',
      wasConfirmed,
      contact: f.businessContact,
    }),
  );
}

/** True when the booking's slot has not started at `now`. */
export function isUpcoming(f: Pick<BookingFacts, 'appointment' | 'timezone'>, now: Date): boolean {
  if (!f.appointment.date || !f.appointment.startTime) return false;
  return zonedInstant(f.appointment.date, f.appointment.startTime, f.timezone).getTime() > now.getTime();
}
