/**
 * What the Discover page keeps on or asks of the visitor's device: the last place searched (local
 * storage, read only after hydration so the server's markup and the first render agree), the
 * device's time zone, and its position (the Geolocation API, only when asked).
 */
import { MSG } from '../../../shared/messages';
import { DEFAULT_TIMEZONE, isValidTimezone } from '../../../shared/zoned-time';
import { locateDevice } from '../../lib/device-position';
import { roundedPosition } from './search-params';

const PLACE_KEY = 'lastslot.discover.place';

/** The place last searched on this device, or null (none, or storage unavailable). */
export function rememberedPlace(): string | null {
  try {
    return window.localStorage.getItem(PLACE_KEY)?.trim() || null;
  } catch {
    return null;
  }
}

/** Remembers `place` as the place last searched on this device (ignored when storage is unavailable). */
export function rememberPlace(place: string): void {
  try {
    window.localStorage.setItem(PLACE_KEY, place);
  } catch {
    // Private mode or storage full: the page works without it.
  }
}

/** The device's IANA time zone, or Europe/London when the browser names none the server knows. */
export function deviceTimezone(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone && isValidTimezone(zone) ? zone : DEFAULT_TIMEZONE;
  } catch {
    return DEFAULT_TIMEZONE;
  }
}

/**
 * The device's position, rounded to 3 decimal places (about 100 m) before it goes anywhere. Asks
 * the browser (which may ask the visitor) each time it is called. Rejects with an Error whose
 * message is what to show: MSG.locationDenied when permission was refused, MSG.locationUnavailable
 * when there is no Geolocation API, no fix or no answer in time.
 */
export async function devicePosition(): Promise<{ lat: number; lng: number }> {
  const { lat, lng } = await locateDevice({ denied: MSG.locationDenied, unavailable: MSG.locationUnavailable });
  return roundedPosition(lat, lng);
}
