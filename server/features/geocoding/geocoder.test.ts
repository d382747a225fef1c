import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../core/env';
import { findPlace, locateAddressOffline } from './gazetteer';
import { geocoderFromEnv, nominatimGeocoder, offlineGeocoder, postcodesIoGeocoder } from './geocoder';
import { POSTCODE_AREA_PLACES } from './postcodes';

/** A fetch that answers each URL from `answers` (status and JSON; 404 when absent) and records the requests. */
function stubFetch(answers: Record<string, [number, unknown]>) {
  const requests: { url: string; headers: Headers }[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    requests.push({ url, headers: new Headers(init?.headers) });
    const [status, body] = answers[url] ?? [404, { status: 404 }];
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { fetchImpl, requests };
}

describe('offline gazetteer', () => {
  it('places every postcode area at a known town', () => {
    for (const area of Object.keys(POSTCODE_AREA_PLACES)) {
      expect(findPlace(area), area).not.toBeNull();
    }
  });

  it('reads towns and postcodes as customers type them, and nothing else', () => {
    expect(findPlace('Leeds')).toMatchObject({
      name: 'Leeds',
      latitude: 53.79648,
      longitude: -1.54785,
      precision: 'town',
    });
    expect(findPlace('  stoke-on-trent ')).toMatchObject({ name: 'Stoke-on-Trent' });
    expect(findPlace('St. Albans')).toMatchObject({ name: 'St Albans' });
    expect(findPlace('ls1 4ap')).toMatchObject({ name: 'LS1 4AP', latitude: 53.79648 });
    expect(findPlace('SW1A')).toMatchObject({ name: 'SW1A' });
    for (const nothing of ['Atlantis', 'QQ1 1AA', '', '12345']) expect(findPlace(nothing), nothing).toBeNull();
  });

  it('places an address by its town, else its postcode area', () => {
    expect(locateAddressOffline('2 Market Row, Leeds, LS1 6DL')).toMatchObject({ name: 'Leeds' });
    expect(locateAddressOffline('Brook St, Ilkley LS29 8DE')).toMatchObject({ name: 'Ilkley' });
    // London is large: a London postcode says which part.
    expect(locateAddressOffline('12 High Street, London, NW1 7JR')).toMatchObject({ name: 'Camden Town' });
    expect(locateAddressOffline('Unit 4, Somewhere, M4 6AJ')).toMatchObject({ name: 'Manchester' });
    expect(locateAddressOffline('Nowhere Lane, Atlantis')).toBeNull();
  });
});

describe('postcodes.io geocoder', () => {
  const base = 'http://postcodes.test';

  it("asks for the address's postcode, then its district, and says how precise each is", async () => {
    const { fetchImpl, requests } = stubFetch({
      [`${base}/postcodes/LS1%206DL`]: [200, { status: 200, result: { latitude: 53.7997, longitude: -1.5492 } }],
      [`${base}/outcodes/LS2`]: [200, { status: 200, result: { latitude: 53.8067, longitude: -1.5423 } }],
    });
    const geocoder = postcodesIoGeocoder(`${base}/`, fetchImpl);
    expect(await geocoder.locate('2 Market Row, Leeds, ls1 6dl')).toEqual({
      latitude: 53.7997,
      longitude: -1.5492,
      precision: 'postcode',
    });
    expect(await geocoder.locate('Woodhouse Lane, Leeds, LS2 9JT')).toEqual({
      latitude: 53.8067,
      longitude: -1.5423,
      precision: 'district',
    });
    expect(requests.map((r) => r.url)).toEqual([
      `${base}/postcodes/LS1%206DL`,
      `${base}/postcodes/LS2%209JT`,
      `${base}/outcodes/LS2`,
    ]);
    // No postcode, or one nobody knows: not found (the background geocoder then tries offline).
    expect(await geocoder.locate('Market Row, Leeds')).toBeNull();
    expect(await geocoder.locate('Nowhere, ZE9 9ZZ')).toBeNull();
  });

  it('rejects when the service fails, so the look-up is tried again', async () => {
    const { fetchImpl } = stubFetch({ [`${base}/postcodes/LS1%206DL`]: [503, {}] });
    await expect(postcodesIoGeocoder(base, fetchImpl).locate('Leeds, LS1 6DL')).rejects.toThrow('503');
  });
});

describe('Nominatim geocoder', () => {
  const base = 'http://nominatim.test';
  const url = (q: string) =>
    `${base}/search?${new URLSearchParams({ q, format: 'jsonv2', limit: '1', countrycodes: 'gb' })}`;

  it('identifies itself, keeps a second between requests, and caches its answers', async () => {
    const { fetchImpl, requests } = stubFetch({
      [url('1 Quay St, Manchester')]: [
        200,
        [{ lat: '53.4794', lon: '-2.2530', place_rank: 30, addresstype: 'building' }],
      ],
      [url('Didsbury')]: [200, [{ lat: '53.4166', lon: '-2.2315', place_rank: 20, addresstype: 'suburb' }]],
      [url('Atlantis')]: [200, []],
    });
    let clock = 0;
    const waits: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    // The gap is waited with setTimeout: record it and move the clock instead of sleeping.
    globalThis.setTimeout = ((fn: () => void, ms: number) => {
      waits.push(ms);
      clock += ms;
      return realSetTimeout(fn, 0);
    }) as typeof setTimeout;
    try {
      const geocoder = nominatimGeocoder(base, 'LastSlot-test/1.0 (ops@example.test)', { fetchImpl, now: () => clock });
      const answers = await Promise.all([
        geocoder.locate('1 Quay St, Manchester'),
        geocoder.locate('Didsbury'),
        geocoder.locate('Atlantis'),
      ]);
      expect(answers).toEqual([
        { latitude: 53.4794, longitude: -2.253, precision: 'exact' },
        { latitude: 53.4166, longitude: -2.2315, precision: 'district' },
        null,
      ]);
      expect(requests).toHaveLength(3);
      expect(requests.every((r) => r.headers.get('user-agent') === 'LastSlot-test/1.0 (ops@example.test)')).toBe(true);
      // The second and third requests each waited out the rest of the second since the one before.
      expect(waits).toEqual([1000, 1000]);
      // Answers (found or not) are cached: asking again sends nothing.
      expect(await geocoder.locate('  1 QUAY st,   manchester ')).toMatchObject({ precision: 'exact' });
      expect(await geocoder.locate('Atlantis')).toBeNull();
      expect(requests).toHaveLength(3);
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
  });
});

describe('GEOCODER', () => {
  it('chooses the geocoder, offline by default, and asks Nominatim users to identify themselves', () => {
    expect(geocoderFromEnv(loadEnv({}))).toBe(offlineGeocoder);
    expect(geocoderFromEnv(loadEnv({ GEOCODER: 'postcodes-io' })).name).toBe('postcodes-io');
    expect(() => loadEnv({ GEOCODER: 'nominatim' })).toThrow(/GEOCODER_USER_AGENT/);
    expect(
      geocoderFromEnv(loadEnv({ GEOCODER: 'nominatim', GEOCODER_USER_AGENT: 'LastSlot/1.0 (a@b.test)' })).name,
    ).toBe('nominatim');
    expect(() => loadEnv({ GEOCODER: 'google' })).toThrow(/GEOCODER/);
    expect(loadEnv({}).RATE_LIMIT_SEARCHES_PER_MINUTE).toBe(120);
  });
});
