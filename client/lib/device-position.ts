/**
 * The device's position from the browser's Geolocation API, asked only when a person presses a
 * button for it. Shared by Discover (a customer's search, rounded there) and the business's
 * Location card (the shop's own position, kept exact).
 */

/** How long (ms) the device may take to give its position. */
const POSITION_TIMEOUT_MS = 10_000;
/** How old (ms) a cached position may be for an approximate answer. */
const POSITION_MAX_AGE_MS = 5 * 60_000;

/** The words shown when the device gives no position. */
export interface DevicePositionTexts {
  /** Permission refused (now or earlier, in the browser's settings). */
  denied: string;
  /** No Geolocation API, no fix, or no answer within the time limit. */
  unavailable: string;
}

/**
 * The device's position in degrees ({ lat, lng }, WGS 84 as the device reports it). Asks the
 * browser (which may ask the person) each time it is called. `accuracy`: 'approximate' accepts a
 * position cached up to 5 minutes and the device's quick fix; 'precise' asks for a fresh
 * high-accuracy fix (GPS where there is one). Rejects with an Error whose message is what to show:
 * `texts.denied` when permission was refused, `texts.unavailable` otherwise (no API, no fix, or
 * no answer within 10 s).
 */
export function locateDevice(
  texts: DevicePositionTexts,
  accuracy: 'approximate' | 'precise' = 'approximate',
): Promise<{ lat: number; lng: number }> {
  return new Promise((resolve, reject) => {
    if (typeof navigator === 'undefined' || !('geolocation' in navigator)) {
      reject(new Error(texts.unavailable));
      return;
    }
    const precise = accuracy === 'precise';
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ lat: p.coords.latitude, lng: p.coords.longitude }),
      (err) => reject(new Error(err.code === err.PERMISSION_DENIED ? texts.denied : texts.unavailable)),
      { enableHighAccuracy: precise, timeout: POSITION_TIMEOUT_MS, maximumAge: precise ? 0 : POSITION_MAX_AGE_MS },
    );
  });
}
