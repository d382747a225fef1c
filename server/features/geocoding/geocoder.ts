/**
 * The geocoder port (docs/decisions/0082): one business address in, its position out. Chosen by
 * env GEOCODER: 'offline' (default: the gazetteer, no network), 'postcodes-io' (a
 * postcodes.io-compatible API at GEOCODER_POSTCODES_URL, which can be self-hosted) or 'nominatim'
 * (GEOCODER_NOMINATIM_URL, at most one request a second, GEOCODER_USER_AGENT identifying the app,
 * answers cached). Only the background geocoder (geocode-requests.ts) calls it, never a search.
 */
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
  /**
   * The position of UK address `address`, or null when the provider does not know it. Rejects
   * when the provider could not be asked or answered badly (the look-up is tried again later).
   */
  locate(address: string): Promise<Located | null>;
}

/** How long a provider call may take before it counts as failed (ms). */
const TIMEOUT_MS = 10_000;

/** The offline geocoder: `locateAddressOffline`, at town precision. */
export const offlineGeocoder: Geocoder = {
  name: 'offline',
  async locate(address) {
    const place = locateAddressOffline(address);
    return place && { latitude: place.latitude, longitude: place.longitude, precision: place.precision };
  },
};

type Fetch = typeof fetch;

/** The JSON of a GET to `url`, or null for a 404; rejects on any other non-2xx status, a timeout or a network error. */
async function getJson(fetchImpl: Fetch, url: string, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await fetchImpl(url, {
    headers: { accept: 'application/json', ...headers },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`geocoder answered ${res.status}`);
  return res.json();
}

/** `v` as a position when it holds finite in-range `latitude` and `longitude` numbers (or numeric strings). */
function position(lat: unknown, lng: unknown): LatLng | null {
  const latitude = Number(lat);
  const longitude = Number(lng);
  if (lat === null || lng === null || !isLatitude(latitude) || !isLongitude(longitude)) return null;
  return { latitude, longitude };
}

/**
 * A postcodes.io-compatible geocoder at `baseUrl`: the address's full postcode
 * (`GET /postcodes/{postcode}`, precision 'postcode'), else its district (`GET /outcodes/{district}`,
 * 'district'). An address without a UK postcode, or one the API does not know, is not found.
 */
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

/** Nominatim's place rank → how precise its answer is (30 a building, 26 a street, 16-25 a suburb, lower a town). */
function nominatimPrecision(rank: number, type: string): LocationPrecision {
  if (type === 'postcode') return 'postcode';
  if (rank >= 26) return 'exact';
  if (rank >= 17) return 'district';
  return 'town';
}

/** The shortest gap between two Nominatim requests of one process (ms): its usage policy's one a second. */
export const NOMINATIM_GAP_MS = 1_000;

/**
 * A Nominatim geocoder at `baseUrl` (`GET /search?q=…&format=jsonv2&limit=1&countrycodes=gb`) sending
 * `userAgent`, its requests at least NOMINATIM_GAP_MS apart (queued in order), its answers (found
 * or not) cached per address for a day, up to 5,000 addresses. The one process that runs
 * look-ups (the background geocoder) is the only caller, so the gap holds for the deployment.
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

/** The geocoder env GEOCODER names, with its settings (server/core/env.ts checks them). */
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
