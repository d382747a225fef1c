/**
 * Moving the business's map pin with the keyboard: each arrow key moves it a fixed distance on the
 * screen (so a step is small when zoomed in and large when zoomed out), Shift a longer one.
 */
import { toRadians, type LatLng } from '../../../shared/geo';

/** Screen pixels one arrow key moves the pin; with Shift, PIN_STEP_LARGE_PX. */
export const PIN_STEP_PX = 10;
export const PIN_STEP_LARGE_PX = 50;
/** The farthest north or south a Web Mercator map shows (degrees). */
const MERCATOR_MAX_LATITUDE = 85.0511;
/** Width of the whole world in pixels at zoom 0 (one 256-pixel tile). */
const WORLD_PX_AT_ZOOM_0 = 256;

const DIRECTIONS: Record<string, readonly [east: number, north: number]> = {
  ArrowUp: [0, 1],
  ArrowDown: [0, -1],
  ArrowRight: [1, 0],
  ArrowLeft: [-1, 0],
};

/**
 * Where the pin at `position` (degrees) goes when `key` is pressed on a Web Mercator map at `zoom`:
 * 'ArrowUp' north, 'ArrowDown' south, 'ArrowRight' east, 'ArrowLeft' west, by PIN_STEP_PX screen
 * pixels (PIN_STEP_LARGE_PX when `large`). Latitude stays within the map (±85.0511°), longitude
 * wraps into -180..180. Returns null for any other key.
 */
export function pinStep(position: LatLng, key: string, zoom: number, large = false): LatLng | null {
  const direction = DIRECTIONS[key];
  if (!direction) return null;
  const px = large ? PIN_STEP_LARGE_PX : PIN_STEP_PX;
  // On a Mercator map a pixel spans a fixed number of degrees of longitude at a given zoom, and
  // that times cos(latitude) degrees of latitude.
  const lngPerPx = 360 / (WORLD_PX_AT_ZOOM_0 * 2 ** zoom);
  const latPerPx = lngPerPx * Math.cos(toRadians(position.latitude));
  const latitude = Math.max(
    -MERCATOR_MAX_LATITUDE,
    Math.min(MERCATOR_MAX_LATITUDE, position.latitude + direction[1] * px * latPerPx),
  );
  let longitude = position.longitude + direction[0] * px * lngPerPx;
  if (longitude > 180) longitude -= 360;
  if (longitude < -180) longitude += 360;
  return { latitude, longitude };
}
