/** Display helpers (dashboards spec §5 "Display helpers"). UK English. */
import { TIME_PATTERN, END_TIME_PATTERN } from './time-of-day';

function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'}`;
}

/** 'YYYY-MM-DD' to e.g. 'Saturday, 21st November 2026'; empty or bad input gives 'Invalid date'. */
export function formatDate(date: string | null | undefined): string {
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return 'Invalid date';
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const js = new Date(Date.UTC(y, m - 1, d));
  if (js.getUTCMonth() !== m - 1 || js.getUTCDate() !== d) return 'Invalid date';
  const weekday = js.toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' });
  const month = js.toLocaleDateString('en-GB', { month: 'long', timeZone: 'UTC' });
  return `${weekday}, ${ordinal(d)} ${month} ${y}`;
}

/** 'HH:MM' (24 h) to '9:30 am'; missing gives 'Time not available', bad gives 'Invalid time'. */
export function formatTime(time: string | null | undefined): string {
  if (!time) return 'Time not available';
  if (!TIME_PATTERN.test(time) && !END_TIME_PATTERN.test(time)) return 'Invalid time';
  const [h, m] = time.split(':').map(Number) as [number, number];
  const suffix = h % 24 < 12 ? 'am' : 'pm';
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}:${String(m).padStart(2, '0')} ${suffix}`;
}

/** '9:00 am - 10:30 am'. */
export function formatTimeRange(start: string | null | undefined, end: string | null | undefined): string {
  return `${formatTime(start)} - ${formatTime(end)}`;
}
