/** Display helpers for dates, times, prices and addresses. UK English. */
import { oneLine } from './display-text';
import { MSG } from './messages';
import { TIME_PATTERN, END_TIME_PATTERN } from './time-of-day';

function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'}`;
}

// en-GB names, as toLocaleDateString('en-GB') gives them (a table: building a formatter per call is slow).
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** 'YYYY-MM-DD' to e.g. 'Saturday, 21st November 2026'; empty or bad input gives 'Invalid date'. */
export function formatDate(date: string | null | undefined): string {
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return 'Invalid date';
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const js = new Date(Date.UTC(y, m - 1, d));
  if (js.getUTCMonth() !== m - 1 || js.getUTCDate() !== d) return 'Invalid date';
  return `${WEEKDAYS[js.getUTCDay()]}, ${ordinal(d)} ${MONTHS[m - 1]} ${y}`;
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

/**
 * A UK postcode (outward code, optional space, inward code), e.g. 'E1 6AN', 'SW1A 1AA', 'm14 5ra'.
 * Matched as a whole word anywhere in an address part; the last match in the part wins.
 */
const UK_POSTCODE = /\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b/gi;

/** A part that names only a flat, unit, suite, apartment, floor or room ('Flat 2', 'Unit 4B', '3rd Floor'). */
const SUB_PREMISE = /^(?:(?:flat|apartment|apt\.?|unit|suite|room|floor|studio)\s+[\w-]+|\w+\s+floor)$/i;

/** The UK postcode in `text` (the last one, normalised to 'E1 6AN'), or null. */
export function findUkPostcode(text: string): string | null {
  const matches = [...text.matchAll(UK_POSTCODE)];
  const last = matches.at(-1);
  return last ? `${last[1]!.toUpperCase()} ${last[2]!.toUpperCase()}` : null;
}

/**
 * Shortens an address to at most 3 comma-separated parts for display, keeping a UK postcode when
 * found. The full
 * address stays available elsewhere (e.g. the 'Open in Maps' search).
 *
 * Rule: parts are trimmed and empty ones dropped; an address of 3 parts or fewer is kept as it is
 * (whitespace tidied). Longer addresses keep:
 * - the street line: the first part, or the first part after leading flat/unit/suite/apartment/
 *   floor/room parts ('Flat 2, 12 High Street, …' keeps '12 High Street');
 * - with a UK postcode (the last part containing one): the part just before that part (the town)
 *   and that part itself, postcode upper-cased ('e1 6an' → 'E1 6AN'); parts after the postcode
 *   (a country) are dropped;
 * - without a UK postcode: the last two parts (typically city or postal code, and country).
 *
 * '12 High Street, Flat 2, Shoreditch, London, E1 6AN' → '12 High Street, London, E1 6AN'.
 * Empty, blank or missing input gives ''.
 */
export function shortAddress(address: string | null | undefined): string {
  if (!address) return '';
  const parts = address
    .split(',')
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 0);
  if (parts.length <= 3) return parts.join(', ');

  let street = 0;
  while (street < parts.length - 1 && SUB_PREMISE.test(parts[street]!)) street++;

  let postcodeAt = -1;
  for (let i = parts.length - 1; i > street; i--) {
    if (findUkPostcode(parts[i]!)) {
      postcodeAt = i;
      break;
    }
  }
  let kept: string[];
  if (postcodeAt !== -1) {
    const withPostcode = parts[postcodeAt]!.replace(UK_POSTCODE, (_, out: string, inw: string) =>
      `${out} ${inw}`.toUpperCase(),
    );
    kept =
      postcodeAt - 1 > street ? [parts[street]!, parts[postcodeAt - 1]!, withPostcode] : [parts[street]!, withPostcode];
  } else {
    const tail = parts.slice(Math.max(street + 1, parts.length - 2));
    kept = [parts[street]!, ...tail];
  }
  return kept.join(', ');
}

/**
 * The browser tab's title for a page named `title`: '{title} | LastSlot', or 'LastSlot' when
 * nothing names the page. The name is made one line first (`oneLine`: no line breaks, control or
 * bidirectional characters), since it may be a business's name. The client titles its screens
 * with it and the server the business page's HTML (`<title>` and og:title), so both say the same.
 */
export function pageTitle(title: string | null): string {
  const name = title === null ? '' : oneLine(title);
  return name ? `${name} | LastSlot` : 'LastSlot';
}

/** The landing page's name in its title (client and server, as `pageTitle`). */
export const LANDING_PAGE_NAME = 'Last-minute appointment booking';

/**
 * True when a loaded business can be shown: it has a non-blank id and business name (else the
 * public page shows 'Invalid Business Data').
 */
export function hasBusinessIdentity(business: { id?: unknown; businessName?: unknown } | null | undefined): boolean {
  if (!business) return false;
  const filled = (v: unknown) => typeof v === 'string' && v.trim().length > 0;
  return filled(business.id) && filled(business.businessName);
}

/** What a failed booking request carries (the client's ErrorInfo: tRPC code, HTTP status, message). */
export interface BookingFailure {
  code?: string;
  httpStatus?: number;
  message?: string;
}

/**
 * The toast of a failed booking request: title 'Booking failed'. The refusals written for the
 * booking form keep their text: not logged in
 * ('Please log in to book an appointment'), email not verified, the slot just taken or removed,
 * a business account. Anything else (server failure, network, time-out, input errors, whose
 * server texts are never shown) reads 'Could not submit your booking request. Please try again.'
 */
export function bookingFailureNotice(err: BookingFailure): { title: string; message: string } {
  const title = MSG.bookingFailedTitle;
  const status = err.httpStatus ?? 0;
  const message = err.message?.trim() ?? '';
  if (err.code === 'UNAUTHORIZED') return { title, message: MSG.loginToBook };
  const refusal = status >= 400 && status < 500 && ['FORBIDDEN', 'CONFLICT', 'NOT_FOUND'].includes(err.code ?? '');
  if (refusal && message) return { title, message };
  return { title, message: MSG.bookingFailed };
}
