/**
 * iCalendar files of bookings (docs/decisions/0052). Times are local to the business's zone with its
 * VTIMEZONE, so they stay right across DST (UTC where the zone has none); DTSTAMP and LAST-MODIFIED
 * are UTC, as RFC 5545 requires. One booking is one event everywhere, by its UID.
 */
import { TZDate } from '@date-fns/tz';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ical, { ICalAlarmType, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { oneLine } from '../../../shared/display-text';

/** One booking as a calendar event. `date` 'YYYY-MM-DD', times 'HH:MM' local to `timezone`. */
export interface CalendarBooking {
  bookingId: string;
  status: 'pending' | 'confirmed' | 'completed' | 'cancelled';
  description: string;
  date: string;
  startTime: string;
  endTime: string;
  businessName: string;
  address: string | null;
  /** Shown to the business only (feed). */
  customerName?: string | null;
  /** The booking's last change: DTSTAMP and LAST-MODIFIED. */
  updatedAt: Date;
  /** `bookings.calendar_revision` (docs/decisions/0078). */
  revision: number;
}

/** The stable UID of a booking's event. */
export function bookingUid(bookingId: string): string {
  return `booking-${bookingId}@lastslot`;
}

/** A local wall-clock value in `tz` as a TZDate, which ical-generator writes as TZID local time. */
function zoned(date: string, time: string, tz: string): TZDate {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return new TZDate(y, m - 1, d, hh, mm, tz);
}

/**
 * A VCALENDAR with one VEVENT per booking; the customer's `view` gets an alarm `alarmMinutes` before
 * the start. Texts are made one line, as calendar apps list them. Times are local to `timezone` with
 * its VTIMEZONE, or UTC instants for a zone the time zone database has no VTIMEZONE for (an alias
 * such as Asia/Saigon, another spelling the runtime accepts): a TZID without its VTIMEZONE would
 * leave calendar apps to guess.
 */
export function bookingsCalendar(params: {
  name: string;
  timezone: string;
  view: 'customer' | 'business';
  bookings: CalendarBooking[];
  alarmMinutes?: number;
}): string {
  const calendar = ical({
    name: oneLine(params.name),
    prodId: { company: 'LastSlot', product: 'LastSlot', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    // No calendar-wide zone name, or ical-generator would write DTSTAMP and LAST-MODIFIED as local
    // times in it; each event names its zone instead.
    timezone: { name: null, generator: getVtimezoneComponent },
    x: [{ key: 'X-WR-TIMEZONE', value: params.timezone }],
  });
  const zone = getVtimezoneComponent(params.timezone) ? params.timezone : null;
  const at = (date: string, time: string) => {
    const local = zoned(date, time, params.timezone);
    return zone ? local : new Date(local.getTime());
  };
  for (const b of params.bookings) {
    const cancelled = b.status === 'cancelled';
    const summary = oneLine(
      params.view === 'customer'
        ? `${b.description} at ${b.businessName}`
        : `${b.description}: ${b.customerName ?? 'Deleted customer'}`,
    );
    const event = calendar.createEvent({
      id: bookingUid(b.bookingId),
      // Each reissue outranks the versions before it, and a cancellation outranks them all.
      sequence: b.revision + (cancelled ? 1 : 0),
      start: at(b.date, b.startTime),
      end: at(b.date, b.endTime),
      timezone: zone,
      stamp: b.updatedAt,
      lastModified: b.updatedAt,
      summary,
      location: oneLine(b.address ? `${b.businessName}, ${b.address}` : b.businessName),
      description: oneLine(`${b.description} at ${b.businessName}. Booked with LastSlot.`),
      status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
    if (params.view === 'customer' && params.alarmMinutes && !cancelled) {
      event.createAlarm({
        type: ICalAlarmType.display,
        trigger: params.alarmMinutes * 60,
        description: summary,
      });
    }
  }
  return calendar.toString();
}

/** Minutes before the start at which the customer's calendar alarm fires. */
export const CALENDAR_ALARM_MINUTES = 60;
