/** The geocoder port (docs/decisions/0082); only the background geocoder calls it, never a search. */
import { LRUCache } from 'lru-cache';
import type { LocationPrecision } from '../../../shared/discovery';
import type { LatLng } from '../../../shared/geo';
import { isLatitude, isLongitude } from '../../../shared/geo';
import type { Env } from '../../core/env';
import { locateAddressOffline } from './gazetteer';
import { postcodeInText } from './postcodes';

/** Where an address is, and how precise that is. */
export interface Located extends LatLng {
  precision: LocationPrecision;
}

export interface Geocoder {
  /** 'offline', 'postcodes-io' or 'nominatim'. */
  readonly name: string;
  /** The position of a UK address, or null when unknown. Rejects when the provider failed, to be retried. */
  locate(address: string): Promise<Located | null>;
}

/** How long a provider call may take before it counts as failed (ms). */
const TIMEOUT_MS = 10_000;

/** `locateAddressOffline`, at town precision. */
export const offlineGeocoder: Geocoder = {
  name: 'offline',
  async locate(address) {
    const place = locateAddressOffline(address);
    return place && { latitude: place.latitude, longitude: place.longitude, precision: place.precision };
  },
};

type Fetch = typeof fetch;

/** The JSON of a GET, or null for a 404; rejects on another non-2xx status, a timeout or a network error. */
async function getJson(fetchImpl: Fetch, url: string, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await fetchImpl(url, {
    headers: { accept: 'application/json', ...headers },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`geocoder answered ${res.status}`);
  return res.json();
}

/** A position from in-range latitude and longitude numbers or numeric strings, else null. */
function position(lat: unknown, lng: unknown): LatLng | null {
  const latitude = Number(lat);
  const longitude = Number(lng);
  if (lat === null || lng === null || !isLatitude(latitude) || !isLongitude(longitude)) return null;
  return { latitude, longitude };
}

/** A postcodes.io-compatible geocoder: the address's full postcode, else its district; none without a postcode. */
export function postcodesIoGeocoder(baseUrl: string, fetchImpl: Fetch = fetch): Geocoder {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    name: 'postcodes-io',
    async locate(address) {
      const postcode = postcodeInText(address);
      if (!postcode?.full) return null;
      const full = (await getJson(fetchImpl, `${base}/postcodes/${encodeURIComponent(postcode.full)}`)) as {
        result?: { latitude?: unknown; longitude?: unknown };
      } | null;
      const exact = full && position(full.result?.latitude, full.result?.longitude);
      if (exact) return { ...exact, precision: 'postcode' };
      const district = (await getJson(fetchImpl, `${base}/outcodes/${encodeURIComponent(postcode.district)}`)) as {
        result?: { latitude?: unknown; longitude?: unknown };
      } | null;
      const centre = district && position(district.result?.latitude, district.result?.longitude);
      return centre ? { ...centre, precision: 'district' } : null;
    },
  };
}

/** Nominatim's place rank → precision: 26 and up a street or building, 17-25 a district, lower a town. */
function nominatimPrecision(rank: number, type: string): LocationPrecision {
  if (type === 'postcode') return 'postcode';
  if (rank >= 26) return 'exact';
  if (rank >= 17) return 'district';
  return 'town';
}

/** The shortest gap between two Nominatim requests (ms), per its usage policy. */
export const NOMINATIM_GAP_MS = 1_000;

/**
 * A Nominatim geocoder: requests queued `gapMs` apart, answers cached a day. The gap holds for the
 * deployment because only the one process running look-ups calls it.
 */
export function nominatimGeocoder(
  baseUrl: string,
  userAgent: string,
  options: { fetchImpl?: Fetch; gapMs?: number; now?: () => number } = {},
): Geocoder {
  const base = baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetchImpl ?? fetch;
  const gapMs = options.gapMs ?? NOMINATIM_GAP_MS;
  const now = options.now ?? Date.now;
  const cache = new LRUCache<string, { answer: Located | null }>({ max: 5_000, ttl: 24 * 3600_000 });
  let queue: Promise<unknown> = Promise.resolve();
  let last = -Infinity;
  const spaced = <T>(call: () => Promise<T>): Promise<T> => {
    const turn = queue.then(async () => {
      const wait = last + gapMs - now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      last = now();
      return call();
    });
    queue = turn.catch(() => {});
    return turn;
  };
  return {
    name: 'nominatim',
    async locate(address) {
      const key = address.trim().toLowerCase().replace(/\s+/g, ' ');
      const cached = cache.get(key);
      if (cached) return cached.answer;
      const url = `${base}/search?${new URLSearchParams({ q: address, format: 'jsonv2', limit: '1', countrycodes: 'gb' })}`;
      const rows = (await spaced(() => getJson(fetchImpl, url, { 'user-agent': userAgent }))) as
        { lat?: unknown; lon?: unknown; place_rank?: unknown; addresstype?: unknown }[] | null;
      const first = Array.isArray(rows) ? rows[0] : undefined;
      const at = first ? position(first.lat, first.lon) : null;
      const answer: Located | null = at
        ? { ...at, precision: nominatimPrecision(Number(first!.place_rank ?? 0), String(first!.addresstype ?? '')) }
        : null;
      cache.set(key, { answer });
      return answer;
    },
  };
}

/** The geocoder env GEOCODER names. */
export function geocoderFromEnv(
  env: Pick<Env, 'GEOCODER' | 'GEOCODER_POSTCODES_URL' | 'GEOCODER_NOMINATIM_URL' | 'GEOCODER_USER_AGENT'>,
): Geocoder {
  switch (env.GEOCODER) {
    case 'postcodes-io':
      return postcodesIoGeocoder(env.GEOCODER_POSTCODES_URL);
    case 'nominatim':
      return nominatimGeocoder(env.GEOCODER_NOMINATIM_URL, env.GEOCODER_USER_AGENT ?? '');
    default:
      return offlineGeocoder;
  }
}
