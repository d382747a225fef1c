/**
 * The Location card's words for where a business's location came from and how precise it is.
 */
import type { LocationPrecision, LocationSource } from '../../../shared/discovery';

const SOURCE_WORDS: Record<LocationSource, string> = {
  address: 'Placed from your address',
  device: 'Placed at your current location',
  pin: 'Placed with the map pin',
};

const PRECISION_WORDS: Record<LocationPrecision, string> = {
  exact: 'exact',
  postcode: 'postcode, within about 100 metres',
  district: 'postcode district, about 2 miles',
  town: 'town centre, a few miles',
};

/**
 * One sentence naming where a location came from and how precise it is, e.g. 'Placed from your
 * address (postcode district, about 2 miles)' or 'Placed with the map pin (exact)'.
 */
export function locationSummary(source: LocationSource, precision: LocationPrecision): string {
  return `${SOURCE_WORDS[source]} (${PRECISION_WORDS[precision]})`;
}
