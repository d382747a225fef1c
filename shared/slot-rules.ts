/**
 * Slot form choices (ADR 0006): dates, half-hour start times and end times,
 * all in the business's local time zone.
 */
import type { OpeningHours } from './opening-hours';
import { fromMinutes, toMinutes } from './time-of-day';
import { addDaysToDate, localNow, weekdayOf } from './zoned-time';

export const SLOT_STEP_MINUTES = 30;
export const MIN_SLOT_MINUTES = 30;
export const DATE_CHOICE_COUNT = 4;
const FALLBACK_HOURS = { open: '09:00', close: '17:00' };

/**
 * Hours for `date` ('YYYY-MM-DD'): the stored day, or null (closed) when the day is not stored.
 * An empty object is a week with every day switched off (closed all week, ADR 0025); only when
 * no hours are known at all (null/undefined) does 09:00-17:00 apply.
 */
export function hoursFor(
  date: string,
  openingHours: OpeningHours | null | undefined,
): { open: string; close: string } | null {
  if (!openingHours) return FALLBACK_HOURS;
  return openingHours[weekdayOf(date)] ?? null;
}

/** Start of the next half hour after local `time` ('HH:MM'), in minutes (may reach 1440). */
export function nextHalfHour(time: string): number {
  const m = toMinutes(time);
  return (Math.floor(m / SLOT_STEP_MINUTES) + 1) * SLOT_STEP_MINUTES;
}

/**
 * Start times for `date` ('HH:MM', every 30 minutes): from the next half hour when `date` is
 * today (else from opening), up to the last start that leaves 30 minutes before closing.
 */
export function startTimeChoices(
  date: string,
  openingHours: OpeningHours | null | undefined,
  tz: string,
  now: Date = new Date(),
): string[] {
  const hours = hoursFor(date, openingHours);
  if (!hours) return [];
  const local = localNow(tz, now);
  let first = Math.ceil(toMinutes(hours.open) / SLOT_STEP_MINUTES) * SLOT_STEP_MINUTES;
  if (date < local.date) return [];
  if (date === local.date) first = Math.max(first, nextHalfHour(local.time));
  const lastStart = toMinutes(hours.close) - MIN_SLOT_MINUTES;
  const out: string[] = [];
  for (let m = first; m <= lastStart && m < 24 * 60; m += SLOT_STEP_MINUTES) out.push(fromMinutes(m));
  return out;
}

/** End times for `startTime` on `date`: from start + 30 minutes up to closing (17:00 if unknown). */
export function endTimeChoices(
  date: string,
  startTime: string,
  openingHours: OpeningHours | null | undefined,
): string[] {
  const close = toMinutes(hoursFor(date, openingHours)?.close ?? FALLBACK_HOURS.close);
  const out: string[] = [];
  for (let m = toMinutes(startTime) + MIN_SLOT_MINUTES; m <= close; m += SLOT_STEP_MINUTES) {
    out.push(fromMinutes(m));
  }
  return out;
}

/**
 * The 4 consecutive dates offered ('YYYY-MM-DD'), starting today, or tomorrow when no start time
 * is left today (closed, closing or past closing). Closed days inside the window are left out;
 * an empty list means 'No available dates...'.
 */
export function dateChoices(
  openingHours: OpeningHours | null | undefined,
  tz: string,
  now: Date = new Date(),
): string[] {
  const today = localNow(tz, now).date;
  const first = startTimeChoices(today, openingHours, tz, now).length > 0 ? today : addDaysToDate(today, 1);
  const out: string[] = [];
  for (let i = 0; i < DATE_CHOICE_COUNT; i++) {
    const date = addDaysToDate(first, i);
    if (startTimeChoices(date, openingHours, tz, now).length > 0) out.push(date);
  }
  return out;
}
