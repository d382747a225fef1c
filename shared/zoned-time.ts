/**
 * Wall-clock time in a business's IANA time zone: "past", "today" and closing times are computed
 * in the business's zone, DST-safe. Built on @date-fns/tz; no arithmetic on offsets here.
 */
import { TZDate } from '@date-fns/tz';
import { addDays, format } from 'date-fns';

export const DEFAULT_TIMEZONE = 'Europe/London';

/** Local date ('YYYY-MM-DD') and time ('HH:MM') of instant `now` in zone `tz`. */
export function localNow(tz: string, now: Date = new Date()): { date: string; time: string } {
  const zoned = new TZDate(now.getTime(), tz);
  return { date: format(zoned, 'yyyy-MM-dd'), time: format(zoned, 'HH:mm') };
}

/**
 * The instant at which local wall-clock `date` + `time` ('HH:MM', '24:00' allowed) happens in `tz`.
 * A time that does not exist (inside a spring-forward gap) resolves to the first instant after it.
 */
export function zonedInstant(date: string, time: string, tz: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return new Date(new TZDate(y, m - 1, d, hh, mm, tz).getTime());
}

/** True when local `date` + `time` in `tz` is at or before `now` (a slot that has started). */
export function isPast(date: string, time: string, tz: string, now: Date = new Date()): boolean {
  return zonedInstant(date, time, tz).getTime() <= now.getTime();
}

/** 'YYYY-MM-DD' plus `days` calendar days (pure date arithmetic, no zone involved). */
export function addDaysToDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return format(addDays(new Date(y, m - 1, d, 12), days), 'yyyy-MM-dd');
}

/** Lowercase English weekday name of a 'YYYY-MM-DD' date. */
export function weekdayOf(
  date: string,
): 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday' {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const names = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
  return names[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]!;
}

/** True when `tz` is an IANA zone name the runtime knows. */
export function isValidTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
