/**
 * Distances on the Earth, as the Discover search measures them: great-circle (haversine) distance
 * on a sphere of radius EARTH_RADIUS_METRES, in miles. The search's SQL (server/features/discovery)
 * uses the same radius and formula, so the code's distances and the database's agree.
 */

/** The Earth's mean radius (IUGG), metres: the one radius used in code and in SQL. */
export const EARTH_RADIUS_METRES = 6_371_008.8;
/** Metres in one statute mile. */
export const METRES_PER_MILE = 1609.344;
/** EARTH_RADIUS_METRES in miles (about 3,958.76). */
export const EARTH_RADIUS_MILES = EARTH_RADIUS_METRES / METRES_PER_MILE;

/** A point in degrees: latitude -90..90 (north positive), longitude -180..180 (east positive). */
export interface LatLng {
  latitude: number;
  longitude: number;
}

/** Degrees → radians. */
export const toRadians = (degrees: number) => degrees * (Math.PI / 180);
/** Radians → degrees. */
const toDegrees = (radians: number) => radians * (180 / Math.PI);

/** True when `v` is a finite latitude in degrees (-90..90). */
export function isLatitude(v: number): boolean {
  return Number.isFinite(v) && v >= -90 && v <= 90;
}

/** True when `v` is a finite longitude in degrees (-180..180). */
export function isLongitude(v: number): boolean {
  return Number.isFinite(v) && v >= -180 && v <= 180;
}

/**
 * Great-circle distance in MILES between `a` and `b` (degrees), by the haversine formula on a
 * sphere of EARTH_RADIUS_METRES: 2R·asin(√(sin²(Δφ/2) + cos φa·cos φb·sin²(Δλ/2))). The search's
 * SQL (`distanceMilesSql`) is the same expression term for term.
 */
export function distanceMiles(a: LatLng, b: LatLng): number {
  const dLat = toRadians(b.latitude - a.latitude);
  const dLng = toRadians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(a.latitude)) * Math.cos(toRadians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return EARTH_RADIUS_MILES * 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A latitude/longitude rectangle in degrees, bounds included. */
export interface BoundingBox {
  minLatitude: number;
  maxLatitude: number;
  minLongitude: number;
  maxLongitude: number;
}

/** Slack added to every side of a bounding box (degrees, about 0.1 mm): float rounding never cuts a point off. */
const BOX_SLACK_DEGREES = 1e-9;

/**
 * The smallest latitude/longitude rectangle holding every point within `miles` of `centre` (great
 * circle, EARTH_RADIUS_METRES), widened by a hair so rounding never leaves a point out. The
 * longitude half-width is asin(sin δ / cos φ) (δ the angular radius), the exact widest point of the
 * circle, not δ / cos φ, which is narrower at high latitudes. Near a pole, or when the box would
 * cross the 180° meridian, it spans every longitude (-180..180): still holding every point, only
 * less selective. `miles` must be >= 0.
 */
export function boundingBox(centre: LatLng, miles: number): BoundingBox {
  const delta = miles / EARTH_RADIUS_MILES;
  const lat = toRadians(centre.latitude);
  const minLatitude = Math.max(-90, toDegrees(lat - delta) - BOX_SLACK_DEGREES);
  const maxLatitude = Math.min(90, toDegrees(lat + delta) + BOX_SLACK_DEGREES);
  const whole = { minLatitude, maxLatitude, minLongitude: -180, maxLongitude: 180 };
  if (minLatitude <= -90 || maxLatitude >= 90) return whole;
  const ratio = Math.sin(delta) / Math.cos(lat);
  if (ratio >= 1) return whole;
  const dLng = toDegrees(Math.asin(ratio)) + BOX_SLACK_DEGREES;
  const minLongitude = centre.longitude - dLng;
  const maxLongitude = centre.longitude + dLng;
  if (minLongitude < -180 || maxLongitude > 180) return whole;
  return { minLatitude, maxLatitude, minLongitude, maxLongitude };
}

/** The part of box `a` inside box `b` (degrees): what a search of both reads. Boxes that do not meet give an empty one (min above max). */
export function boxWithin(a: BoundingBox, b: BoundingBox): BoundingBox {
  return {
    minLatitude: Math.max(a.minLatitude, b.minLatitude),
    maxLatitude: Math.min(a.maxLatitude, b.maxLatitude),
    minLongitude: Math.max(a.minLongitude, b.minLongitude),
    maxLongitude: Math.min(a.maxLongitude, b.maxLongitude),
  };
}

/**
 * The smallest latitude/longitude rectangle holding every one of `points` (degrees; a single point
 * gives a rectangle of no size); null when there are none. It never wraps across the 180° meridian:
 * points on both sides of it give a rectangle spanning the longitudes between.
 */
export function pointsBounds(points: readonly LatLng[]): BoundingBox | null {
  if (points.length === 0) return null;
  const box = { minLatitude: 90, maxLatitude: -90, minLongitude: 180, maxLongitude: -180 };
  for (const p of points) {
    box.minLatitude = Math.min(box.minLatitude, p.latitude);
    box.maxLatitude = Math.max(box.maxLatitude, p.latitude);
    box.minLongitude = Math.min(box.minLongitude, p.longitude);
    box.maxLongitude = Math.max(box.maxLongitude, p.longitude);
  }
  return box;
}

/** True when `p` lies in `box` (bounds included). */
export function inBox(box: BoundingBox, p: LatLng): boolean {
  return (
    p.latitude >= box.minLatitude &&
    p.latitude <= box.maxLatitude &&
    p.longitude >= box.minLongitude &&
    p.longitude <= box.maxLongitude
  );
}

/** `v` rounded to `places` decimal places (3 places of a degree: about 110 m of latitude). */
export function roundDegrees(v: number, places = 3): number {
  const f = 10 ** places;
  return Math.round(v * f) / f;
}
