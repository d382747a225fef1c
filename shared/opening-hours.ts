/** Weekday keys, Monday first (the order forms and stored hours use). */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Display names of the weekdays (UK English). */
export const WEEKDAY_LABEL: Readonly<Record<Weekday, string>> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

/**
 * Stored opening hours (business_profiles.opening_hours): keyed by lowercase weekday, each with
 * open and close as 'HH:MM' local time. An absent day is closed.
 */
export type OpeningHours = Partial<Record<Weekday, { open: string; close: string }>>;

/** One row of the weekly schedule form. */
export interface ScheduleDay {
  isActive: boolean;
  start: string;
  end: string;
}
export type WeeklySchedule = Record<Weekday, ScheduleDay>;

/** Default schedule: Mon-Fri active 09:00-17:00; Saturday and Sunday inactive with 10:00-15:00. */
export function defaultWeeklySchedule(): WeeklySchedule {
  const weekday: ScheduleDay = { isActive: true, start: '09:00', end: '17:00' };
  const weekend: ScheduleDay = { isActive: false, start: '10:00', end: '15:00' };
  return {
    monday: { ...weekday },
    tuesday: { ...weekday },
    wednesday: { ...weekday },
    thursday: { ...weekday },
    friday: { ...weekday },
    saturday: { ...weekend },
    sunday: { ...weekend },
  };
}

/** Only active days are stored, as { open, close }. */
export function scheduleToOpeningHours(schedule: WeeklySchedule): OpeningHours {
  const hours: OpeningHours = {};
  for (const day of WEEKDAYS) {
    const row = schedule[day];
    if (row.isActive) hours[day] = { open: row.start, close: row.end };
  }
  return hours;
}
