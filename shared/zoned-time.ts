/**
 * Wall-clock time in a business's IANA time zone: "past", "today" and closing times are computed
 * in the business's zone, DST-safe. Built on @date-fns/tz; no arithmetic on offsets here, except
 * the shortcut of `isPast` and `localNow` where the zone's offset is known to be steady.
 */
import { TZDate, tzOffset } from '@date-fns/tz';
import { addDays, format } from 'date-fns';

export const DEFAULT_TIMEZONE = 'Europe/London';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MINUTES = 24 * 60;
/** Hours either side of an instant over which `steadyOffset` checks that a zone's offset holds. */
const STEADY_HOURS = 4 * 24;
/** Zones remembered by the caches below (a bound, not a limit on zones: past it they start over). */
const MAX_ZONES = 1000;

/**
 * A zone at one instant, as `isPast` and `localNow` use it: the instant (ms), the zone's UTC offset
 * then (minutes), the local wall-clock time then (minutes since 1970-01-01 00:00 local), and
 * whether the offset holds from 4 days before to 4 days after.
 */
interface ZoneAt {
  time: number;
  offset: number;
  localMinutes: number;
  steady: boolean;
}

/** Per zone, the last instant looked at: a list computed at one `now` asks the zone once. */
const lastZoneAt = new Map<string, ZoneAt>();
/** Per zone, the hour (ms) whose neighbourhood `steadyOffset` sampled, and its verdict. */
const steadyHours = new Map<string, { hour: number; offset: number | null }>();

function remember<V>(cache: Map<string, V>, tz: string, value: V): V {
  if (cache.size >= MAX_ZONES && !cache.has(tz)) cache.clear();
  cache.set(tz, value);
  return value;
}

/**
 * The offset (minutes) zone `tz` keeps over every hour from STEADY_HOURS + 1 before the hour of
 * `time` to STEADY_HOURS + 1 after it, or null when it changes in that window (a DST change or
 * another rule change) or is not a whole number of minutes. Sampled hourly, once per zone per hour.
 */
function steadyOffset(tz: string, time: number): number | null {
  const hour = Math.floor(time / HOUR_MS) * HOUR_MS;
  const known = steadyHours.get(tz);
  if (known && known.hour === hour) return known.offset;
  let offset: number | null = tzOffset(tz, new Date(hour));
  if (!Number.isInteger(offset)) offset = null;
  for (let h = -STEADY_HOURS - 1; offset !== null && h <= STEADY_HOURS + 1; h++) {
    if (tzOffset(tz, new Date(hour + h * HOUR_MS)) !== offset) offset = null;
  }
  return remember(steadyHours, tz, { hour, offset }).offset;
}

/** Zone `tz` at instant `now`, or null for a zone the runtime does not know. */
function zoneAt(tz: string, now: Date): ZoneAt | null {
  const time = now.getTime();
  const last = lastZoneAt.get(tz);
  if (last && last.time === time) return last;
  // Within a steady neighbourhood (sampled once per zone and hour) the offset at `now` is known
  // without asking the zone again: every request has its own `now`.
  const steadyNear = steadyOffset(tz, time);
  const offset = steadyNear ?? tzOffset(tz, now);
  if (!Number.isFinite(offset)) return null;
  const steady = steadyNear !== null;
  return remember(lastZoneAt, tz, { time, offset, localMinutes: time / MINUTE_MS + offset, steady });
}

const DATE_FORMAT = /^\d{4}-\d{2}-\d{2}$/;
const TIME_FORMAT = /^\d{2}:\d{2}$/;

/** The number written with the decimal digits of `s` from `from` to `to` (exclusive). */
function digits(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + s.charCodeAt(i) - 48;
  return n;
}

/**
 * The numbers of local `date` ('YYYY-MM-DD') and `time` ('HH:MM'): year, month (0-11), day, hours,
 * minutes; anything else is read as Number() reads each part (NaN when unreadable).
 */
function wallClock(date: string, time: string): [number, number, number, number, number] {
  if (DATE_FORMAT.test(date) && TIME_FORMAT.test(time)) {
    return [digits(date, 0, 4), digits(date, 5, 7) - 1, digits(date, 8, 10), digits(time, 0, 2), digits(time, 3, 5)];
  }
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return [y, m - 1, d, hh, mm];
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Local date ('YYYY-MM-DD') and time ('HH:MM') of instant `now` in zone `tz`. */
export function localNow(tz: string, now: Date = new Date()): { date: string; time: string } {
  const zone = zoneAt(tz, now);
  if (zone) {
    // The zone's wall clock, read through UTC getters (as TZDate keeps it: offset rounded to seconds).
    const wall = new Date(zone.time + Math.round(zone.offset * 60) * 1000);
    const y = wall.getUTCFullYear();
    if (y >= 1000 && y <= 9999) {
      return {
        date: `${y}-${pad2(wall.getUTCMonth() + 1)}-${pad2(wall.getUTCDate())}`,
        time: `${pad2(wall.getUTCHours())}:${pad2(wall.getUTCMinutes())}`,
      };
    }
  }
  const zoned = new TZDate(now.getTime(), tz);
  return { date: format(zoned, 'yyyy-MM-dd'), time: format(zoned, 'HH:mm') };
}

/**
 * Instants `zonedInstant` worked out, by zone, date and time: a zoned date costs some 20 us, and the
 * same few wall-clock times come back again and again (a page's slots, every page of a zone, the
 * same days). A pure function of its key; past MAX_INSTANTS it starts over.
 */
const knownInstants = new Map<string, number>();
const MAX_INSTANTS = 10_000;

/**
 * The instant at which local wall-clock `date` + `time` ('HH:MM', '24:00' allowed) happens in `tz`.
 * A time that does not exist (inside a spring-forward gap) resolves to the first instant after it.
 */
export function zonedInstant(date: string, time: string, tz: string): Date {
  const key = `${tz} ${date} ${time}`;
  let instant = knownInstants.get(key);
  if (instant === undefined) {
    const [y, m, d, hh, mm] = wallClock(date, time);
    instant = new TZDate(y, m, d, hh, mm, tz).getTime();
    if (knownInstants.size >= MAX_INSTANTS) knownInstants.clear();
    knownInstants.set(key, instant);
  }
  return new Date(instant);
}

/**
 * True when local `date` + `time` in `tz` is at or before `now` (a slot that has started).
 *
 * The answer is `zonedInstant(date, time, tz) <= now`, worked out without building a zoned date
 * for each call where that is safe, since lists ask it for every row at one `now`: a wall-clock time
 * more than 2 days before or after the zone's current wall-clock time is past or not whatever the
 * offsets (they differ by at most 26 hours); within that, when the zone's offset holds for 4 days
 * either side of `now`, the instant is the wall-clock time minus that offset. Otherwise (a DST
 * change near) it calls `zonedInstant`.
 */
export function isPast(date: string, time: string, tz: string, now: Date = new Date()): boolean {
  const zone = zoneAt(tz, now);
  if (zone) {
    const wall = Date.UTC(...wallClock(date, time)) / MINUTE_MS;
    if (wall < zone.localMinutes - 2 * DAY_MINUTES) return true;
    if (wall > zone.localMinutes + 2 * DAY_MINUTES) return false;
    if (zone.steady && !Number.isNaN(wall)) return (wall - zone.offset) * MINUTE_MS <= zone.time;
  }
  return zonedInstant(date, time, tz).getTime() <= now.getTime();
}

/** A slot's local date ('YYYY-MM-DD') and start and end times ('HH:MM'; the end may be '24:00'). */
export interface LocalTimes {
  date: string;
  startTime: string;
  endTime: string;
}

/**
 * The same start and end instants as local `times` in zone `from`, written in zone `to`'s wall
 * clock (date, start, end; an end at the next midnight is '24:00'). Null when `to` cannot write
 * them as one slot: the end would fall on a later day than the start (the slot would cross
 * midnight there), or a time would read back as another instant (`zonedInstant` resolves the
 * repeated hour of a clock change going back to one of its two instants only).
 */
export function sameInstantsIn(times: LocalTimes, from: string, to: string): LocalTimes | null {
  const start = zonedInstant(times.date, times.startTime, from);
  const end = zonedInstant(times.date, times.endTime, from);
  const localStart = localNow(to, start);
  const localEnd = localNow(to, end);
  let endTime: string | null = null;
  if (localEnd.date === localStart.date) endTime = localEnd.time;
  else if (localEnd.date === addDaysToDate(localStart.date, 1) && localEnd.time === '00:00') endTime = '24:00';
  if (endTime === null || endTime <= localStart.time) return null;
  const moved = { date: localStart.date, startTime: localStart.time, endTime };
  const readsBack =
    zonedInstant(moved.date, moved.startTime, to).getTime() === start.getTime() &&
    zonedInstant(moved.date, moved.endTime, to).getTime() === end.getTime();
  return readsBack ? moved : null;
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
