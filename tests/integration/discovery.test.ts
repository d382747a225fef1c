/**
 * The Discover search (docs/decisions/0081) against a plain in-code filter over random data
 * (fast-check): businesses near and far (some exactly at the edge of the distance, a millimetre
 * or so inside or outside; some exactly on a place cell's edge or a hair either side, around a
 * centre next to a cell corner: docs/decisions/0108), hidden or unlocated, in several time zones, with open, booked,
 * requested, declined and withdrawn slots around DST changes, some of them changing their category,
 * hiding or moving after their slots were written (the slot rows' copies follow: docs/decisions/0114),
 * searched with every window, distance, sort and category, page by page through the cursor. Then every refusal: answered
 * BAD_REQUEST in words, changing nothing.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, businessProfiles, slots } from '../../server/db/schema/index';
import { cellOf, LARGE_GRID, SMALL_GRID, type CellGrid } from '../../server/features/discovery/cells';
import {
  categoryLabels,
  DISCOVERY_MILES,
  DISCOVERY_SORTS,
  DISCOVERY_WINDOWS,
  windowRange,
  type DiscoverySort,
} from '../../shared/discovery';
import { distanceMiles, EARTH_RADIUS_MILES, roundDegrees, type LatLng } from '../../shared/geo';
import { MSG } from '../../shared/messages';
import type { DiscoverySearchForm } from '../../shared/schemas/discovery';
import { fromMinutes, toMinutes } from '../../shared/time-of-day';
import { localNow, zonedInstant } from '../../shared/zoned-time';
import { businessProfileForm, callerFor, createBusiness, createSlot, createUser } from '../factories/index';
import { errorOf } from '../setup/helpers';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

const CENTRE: LatLng = { latitude: 53.8, longitude: -1.55 };
const ZONES = ['Europe/London', 'America/New_York', 'Asia/Tokyo'] as const;
/** Instants near DST changes (London: 29 March and 25 October 2026; New York: 8 March and 1 November). */
const NOWS = [
  '2026-11-21T10:00:00Z',
  '2026-03-28T21:00:00Z',
  '2026-03-29T00:30:00Z',
  '2026-10-24T22:00:00Z',
  '2026-10-25T00:45:00Z',
  '2026-03-08T03:00:00Z',
  '2026-10-31T23:00:00Z',
].map((s) => new Date(s));
const STATES = ['open', 'booked', 'pending', 'declined', 'withdrawn'] as const;
type SlotState = (typeof STATES)[number];

/** The point `miles` from `from` on bearing `bearing` (radians), on the search's sphere. */
function destination(from: LatLng, miles: number, bearing: number): LatLng {
  const d = miles / EARTH_RADIUS_MILES;
  const lat1 = (from.latitude * Math.PI) / 180;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing));
  const dLng = Math.atan2(
    Math.sin(bearing) * Math.sin(d) * Math.cos(lat1),
    Math.cos(d) - Math.sin(lat1) * Math.sin(lat2),
  );
  return { latitude: (lat2 * 180) / Math.PI, longitude: from.longitude + (dLng * 180) / Math.PI };
}

const slotArb = fc.record({
  // Half hours from now (in the business's zone, rounded down to :00 or :30): an hour ago to 18 hours ahead.
  halfHours: fc.integer({ min: -2, max: 36 }),
  state: fc.constantFrom<SlotState>('open', 'open', ...STATES),
  description: fc.constantFrom('Cut', 'Colour', 'Massage'),
});

const CATEGORIES = ['Hair Salon', 'Barber Shop', 'Nail Salon', 'Massage Therapist'] as const;

/** A hair beside a cell edge: on it, or the next few representable degrees either side. */
const EDGE_NUDGES = [0, 1e-12, -1e-12, 1e-9, -1e-9] as const;

const businessArb = fc.record({
  // Up to one and a half times the search's distance, or within a few millimetres of its edge, or
  // on a line of cell edges through the corner the centre is next to (at a fraction of the distance along it).
  distance: fc.oneof(
    fc.double({ min: 0, max: 1.5, noNaN: true }).map((fraction) => ({ kind: 'near' as const, fraction })),
    fc
      .tuple(fc.double({ min: 1e-6, max: 1e-5, noNaN: true }), fc.boolean())
      .map(([eps, inside]) => ({ kind: 'edge' as const, offset: inside ? -eps : eps })),
    fc
      .record({
        along: fc.constantFrom('latitude' as const, 'longitude' as const),
        fraction: fc.double({ min: -1.1, max: 1.1, noNaN: true }),
        nudge: fc.constantFrom(...EDGE_NUDGES),
      })
      .map((c) => ({ kind: 'cell' as const, ...c })),
  ),
  bearing: fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
  located: fc.integer({ min: 0, max: 9 }).map((n) => n < 8),
  discoverable: fc.integer({ min: 0, max: 9 }).map((n) => n < 8),
  timezone: fc.constantFrom(...ZONES),
  category: fc.constantFrom(...CATEGORIES),
  slots: fc.uniqueArray(slotArb, { minLength: 1, maxLength: 8, selector: (s) => s.halfHours }),
  // After its slots are written, through the owner's own settings: a new category, hidden, hidden and
  // shown again, or moved (to a fraction of the distance, on a bearing).
  then: fc.option(
    fc.oneof(
      fc.constantFrom(...CATEGORIES).map((category) => ({ kind: 'category' as const, category })),
      fc.constantFrom({ kind: 'hide' as const }, { kind: 'hide and show' as const }),
      fc
        .tuple(fc.double({ min: 0, max: 1.5, noNaN: true }), fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }))
        .map(([fraction, bearing]) => ({ kind: 'move' as const, fraction, bearing })),
    ),
    { nil: null, freq: 2 },
  ),
});

type BusinessSpec = typeof businessArb extends fc.Arbitrary<infer T> ? T : never;

const searchArb = fc.record({
  window: fc.constantFrom(...DISCOVERY_WINDOWS),
  miles: fc.constantFrom(...DISCOVERY_MILES),
  sort: fc.constantFrom(...DISCOVERY_SORTS),
  // No category half the time; else a parent, a child, or one no business here has.
  category: fc.option(fc.constantFrom('Hair Services', 'Barber Shop', 'Nails', 'Massage & Bodywork', 'Tattoo Artist'), {
    nil: null,
    freq: 2,
  }),
  timezone: fc.constantFrom(...ZONES),
  limit: fc.integer({ min: 1, max: 4 }),
  byPlace: fc.boolean(),
});

type SearchSpec = typeof searchArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * A search centre: the fixed one, or next to a corner of a small or large cell near it (within the
 * 3-decimal rounding a position gets), so cell edges cross every search's box.
 */
const centreArb = fc.oneof(
  fc.constant({ centre: CENTRE, corner: null }),
  fc
    .record({
      grid: fc.constantFrom(SMALL_GRID, LARGE_GRID),
      rows: fc.integer({ min: -1, max: 1 }),
      columns: fc.integer({ min: -1, max: 1 }),
    })
    .map(({ grid, rows, columns }) => {
      const corner = cellCorner(grid, CENTRE, rows, columns);
      return { centre: { latitude: roundDegrees(corner.latitude), longitude: roundDegrees(corner.longitude) }, corner };
    }),
);

/** The south-west corner of the cell `rows` and `columns` away from the one holding `at`. */
function cellCorner(grid: CellGrid, at: LatLng, rows: number, columns: number): LatLng {
  const n = grid.size;
  const row = Math.floor(((at.latitude + 90) * n) / 180) + rows;
  const column = Math.floor(((at.longitude + 180) * n) / 360) + columns;
  return { latitude: (row * 180) / n - 90, longitude: (column * 360) / n - 180 };
}

/** A run of the property: the businesses, the base now, minutes after it, the search and its centre. */
type Example = [BusinessSpec[], Date, number, SearchSpec, { centre: LatLng; corner: LatLng | null }];

/** The examples' search: the next two hours within 5 miles, soonest first, a page of one. */
const EXAMPLE_SEARCH: SearchSpec = {
  window: '2h',
  miles: 5,
  sort: 'soonest',
  category: null,
  timezone: 'Europe/London',
  limit: 1,
  byPlace: false,
};

/** A located, discoverable hair salon in London's zone at `distance`, with an open slot an hour or so ahead. */
function listedBusiness(distance: BusinessSpec['distance'], more: Partial<BusinessSpec> = {}): BusinessSpec {
  return {
    distance,
    bearing: 0,
    located: true,
    discoverable: true,
    timezone: 'Europe/London',
    category: 'Hair Salon',
    slots: [{ halfHours: 2, state: 'open', description: 'Cut' }],
    then: null,
    ...more,
  };
}

/**
 * A case with open slots on the edges of a small cell through the corner its centre is next to, given
 * to every run of the property so that cell edges are always searched, whatever the random cases hold.
 */
function cellEdgeExample(): Example {
  const corner = cellCorner(SMALL_GRID, CENTRE, 0, 0);
  const world = [
    listedBusiness({ kind: 'cell', along: 'latitude', fraction: 0.5, nudge: 0 }),
    listedBusiness({ kind: 'cell', along: 'longitude', fraction: -0.5, nudge: 1e-12 }),
  ];
  const centre = { latitude: roundDegrees(corner.latitude), longitude: roundDegrees(corner.longitude) };
  return [world, NOWS[0]!, 0, EXAMPLE_SEARCH, { centre, corner }];
}

/**
 * A case given to every run: two slots at the same start, one of a business placed at the centre
 * and one of a business its owner moved there (a position the owner sets is kept to 6 decimal
 * places, so the two distances differ by a rounding alone and must still come in distance order).
 */
function movedToCentreExample(): Example {
  const business = (then: BusinessSpec['then']) =>
    listedBusiness(
      { kind: 'near', fraction: 0 },
      { slots: [{ halfHours: 1, state: 'open', description: 'Cut' }], then },
    );
  const search: SearchSpec = { ...EXAMPLE_SEARCH, window: '1h', miles: 1 };
  const centre = { latitude: 53.789, longitude: -1.67 };
  return [
    [business({ kind: 'move', fraction: 0, bearing: 0 }), business(null)],
    NOWS[0]!,
    0,
    search,
    { centre, corner: null },
  ];
}

/**
 * A case given to every run: a busy first instant around the centre (nine businesses within a
 * mile, each with a slot at the same start, some taken), so a soonest page is answered from that
 * instant alone, nearest first, page after page, before the next instant's slot.
 */
function busyFirstInstantExample(): Example {
  const states: SlotState[] = ['open', 'booked', 'open', 'pending', 'open', 'declined', 'open', 'withdrawn', 'open'];
  const world = states.map((state, i) =>
    listedBusiness(
      { kind: 'near', fraction: 0.02 + i * 0.02 },
      {
        bearing: i * 2.1,
        slots: [
          { halfHours: 2, state, description: 'Cut' },
          { halfHours: 3, state: 'open', description: 'Colour' },
        ],
      },
    ),
  );
  return [world, NOWS[0]!, 0, { ...EXAMPLE_SEARCH, limit: 2 }, { centre: CENTRE, corner: null }];
}

/**
 * A case given to every run: open slots of businesses a few millimetres either side of the
 * distance's edge (and one well inside), so the edge is always searched, whatever the random cases hold.
 */
function distanceEdgeExample(): Example {
  const world = [
    listedBusiness({ kind: 'edge', offset: -5e-6 }, { bearing: 0.4 }),
    listedBusiness({ kind: 'edge', offset: 5e-6 }, { bearing: 2.5 }),
    listedBusiness({ kind: 'near', fraction: 0.5 }, { bearing: 4.2 }),
  ];
  const search: SearchSpec = { ...EXAMPLE_SEARCH, miles: 2, sort: 'nearest', limit: 2 };
  return [world, NOWS[0]!, 0, search, { centre: CENTRE, corner: null }];
}

/** Where a business of `spec` is around `centre` for a search of `miles`. */
function placeOf(spec: BusinessSpec, centre: LatLng, corner: LatLng | null, miles: number): LatLng {
  const d = spec.distance;
  if (d.kind === 'near') return destination(centre, d.fraction * miles, spec.bearing);
  if (d.kind === 'edge' || !corner)
    return destination(centre, miles + (d.kind === 'edge' ? d.offset : 0), spec.bearing);
  // On the corner's line of latitude (or longitude), up to a little past the distance along it.
  const reach = destination(centre, Math.abs(d.fraction) * miles, d.along === 'latitude' ? Math.PI / 2 : 0);
  return d.along === 'latitude'
    ? {
        latitude: corner.latitude + d.nudge,
        longitude: centre.longitude + Math.sign(d.fraction) * (reach.longitude - centre.longitude),
      }
    : {
        latitude: centre.latitude + Math.sign(d.fraction) * (reach.latitude - centre.latitude),
        longitude: corner.longitude + d.nudge,
      };
}

interface Expected {
  id: string;
  startsAt: number;
  distance: number;
  onCellEdge?: boolean;
}

/**
 * Writes the world at `now`: businesses with their locations (edge ones at `miles` from the
 * centre, give or take their offset) and slots, the slots' bookings. Returns every slot with what
 * the filter needs.
 */
async function writeWorld(
  world: BusinessSpec[],
  now: Date,
  miles: number,
  { centre, corner }: { centre: LatLng; corner: LatLng | null },
) {
  const db = t.deps.db;
  const customer = await createUser(db, { role: 'customer' });
  const out: (Expected & {
    state: SlotState;
    listed: boolean;
    onCellEdge: boolean;
    category: string;
    at: LatLng;
  })[] = [];
  for (const b of world) {
    const { user, profile } = await createBusiness(db, { timezone: b.timezone });
    let at = placeOf(b, centre, corner, miles);
    await db
      .update(businessProfiles)
      .set({
        businessType: b.category,
        discoverable: b.discoverable,
        ...(b.located
          ? { ...at, locationPrecision: 'exact', locationSource: 'pin' }
          : { latitude: null, longitude: null, locationPrecision: null, locationSource: null }),
      })
      .where(sql`${businessProfiles.id} = ${user.id}`);
    const seen = new Set<string>();
    const first = out.length;
    for (const s of b.slots) {
      const local = localNow(profile.timezone, new Date(now.getTime() + s.halfHours * 30 * 60_000));
      const minutes = Math.floor(toMinutes(local.time) / 30) * 30;
      const { date } = local;
      const startTime = fromMinutes(minutes);
      // Two half hours may read the same after rounding (or in a repeated DST hour): one slot each.
      if (seen.has(`${date} ${startTime}`)) continue;
      seen.add(`${date} ${startTime}`);
      const slot = await createSlot(db, user.id, {
        date,
        startTime,
        endTime: fromMinutes(minutes + 30),
        description: s.description,
      });
      if (s.state === 'booked')
        await db
          .update(slots)
          .set({ isBooked: true })
          .where(sql`${slots.id} = ${slot.id}`);
      if (s.state !== 'open' && s.state !== 'booked') {
        await db.insert(bookings).values({
          slotId: slot.id,
          businessId: user.id,
          customerId: customer.id,
          status: s.state === 'pending' ? 'pending' : 'cancelled',
          declinedByBusiness: s.state === 'declined',
        });
      }
      out.push({
        id: slot.id,
        startsAt: zonedInstant(date, startTime, b.timezone).getTime(),
        distance: distanceMiles(centre, at),
        state: s.state,
        listed: b.located && b.discoverable,
        onCellEdge: b.distance.kind === 'cell',
        category: b.category,
        at,
      });
    }
    if (!b.then) continue;
    const owner = await callerFor(t.deps, user.id);
    let { category } = b;
    let listed = b.located && b.discoverable;
    if (b.then.kind === 'category') {
      category = b.then.category;
      await owner.settings.updateBusinessProfile({
        ...businessProfileForm(profile.slug),
        category,
        timezone: b.timezone,
      });
    } else if (b.then.kind === 'move') {
      const to = destination(centre, b.then.fraction * miles, b.then.bearing);
      await owner.settings.setLocation({ ...to, source: 'pin' });
      // Kept as the owner's position is kept: to about 0.1 m.
      at = { latitude: roundDegrees(to.latitude, 6), longitude: roundDegrees(to.longitude, 6) };
      listed = b.discoverable;
    } else {
      await owner.settings.setDiscoverable({ discoverable: false });
      if (b.then.kind === 'hide and show') await owner.settings.setDiscoverable({ discoverable: true });
      listed = b.then.kind === 'hide and show' && b.located;
    }
    for (const e of out.slice(first)) Object.assign(e, { category, listed, at, distance: distanceMiles(centre, at) });
  }
  return out;
}

/** Key order of `sort`: soonest (start, distance, id), nearest (distance, start, id). */
function byKeys(sort: DiscoverySort) {
  const key = (e: Expected) => (sort === 'soonest' ? [e.startsAt, e.distance] : [e.distance, e.startsAt]);
  return (a: Expected, b: Expected) => {
    const [a1, a2] = key(a);
    const [b1, b2] = key(b);
    return a1! - b1! || a2! - b2! || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  };
}

/** Every page of `input`, following the cursor: the slot ids in order, with their distances. */
async function allPages(input: DiscoverySearchForm) {
  const anonymous = await callerFor(t.deps, null);
  const seen: { id: string; distance: number }[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const r = await anonymous.discovery.search({ ...input, cursor });
    expect(r.results.length).toBeLessThanOrEqual(input.limit ?? 20);
    seen.push(...r.results.map((x) => ({ id: x.slotId, distance: x.distanceMiles })));
    cursor = r.nextCursor;
    if (!cursor) return seen;
  }
  throw new Error('more than 100 pages');
}

describe('discovery.search against an in-code filter', () => {
  it('finds exactly the open slots of listed businesses in the window and distance, in order, page by page', async () => {
    let found = 0;
    let edges = 0;
    let onCellEdges = 0;
    const cellsSeen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(businessArb, { minLength: 2, maxLength: 6 }),
        fc.constantFrom(...NOWS),
        fc.integer({ min: 0, max: 180 }),
        searchArb,
        centreArb,
        async (world, base, minutes, search, where) => {
          const db = t.deps.db;
          await db.delete(bookings);
          await db.execute(sql`delete from users`);
          const now = new Date(base.getTime() + minutes * 60_000);
          t.clock.set(now);
          const written = await writeWorld(world, now, search.miles, where);
          // PostgreSQL's cells (generated columns) are the ones the search covers; a listed slot
          // carries its business's category, an unlisted one none.
          const categories = new Map(written.map((e) => [e.id, e.listed ? e.category : null]));
          const cells = await db
            .select({
              id: slots.id,
              category: slots.businessCategory,
              latitude: slots.latitude,
              longitude: slots.longitude,
              small: slots.smallCell,
              large: slots.largeCell,
            })
            .from(slots);
          for (const c of cells) {
            const expectedCells =
              c.latitude === null || c.longitude === null
                ? { small: null, large: null }
                : {
                    small: cellOf(SMALL_GRID, c.latitude, c.longitude),
                    large: cellOf(LARGE_GRID, c.latitude, c.longitude),
                  };
            expect({ small: c.small, large: c.large }).toEqual(expectedCells);
            expect(c.category).toBe(categories.get(c.id));
            if (c.latitude !== null && c.longitude !== null) cellsSeen.add(`${c.small}/${c.large}`);
          }
          const { from, to } = windowRange(search.window, search.timezone, now);
          const labels = search.category ? categoryLabels(search.category)! : null;
          // A distance within a billionth of a mile of the edge may fall either side (float rounding).
          const ambiguous = (e: Expected) => Math.abs(e.distance - search.miles) < 1e-9;
          const expected = written
            .filter(
              (e) =>
                (e.state === 'open' || e.state === 'withdrawn') &&
                e.listed &&
                e.startsAt > now.getTime() &&
                e.startsAt >= from.getTime() &&
                e.startsAt < to.getTime() &&
                e.distance <= search.miles &&
                (!labels || labels.includes(e.category)),
            )
            .sort(byKeys(search.sort));
          const input: DiscoverySearchForm = {
            window: search.window,
            miles: search.miles,
            sort: search.sort,
            category: search.category,
            timezone: search.timezone,
            limit: search.limit,
            ...where.centre,
          };
          const got = await allPages(input);
          found += expected.length;
          edges += expected.filter((e) => search.miles - e.distance < 1e-4).length;
          if (where.corner) onCellEdges += expected.filter((e) => e.onCellEdge).length;
          const skip = new Set(written.filter(ambiguous).map((e) => e.id));
          expect(got.map((g) => g.id).filter((id) => !skip.has(id))).toEqual(
            expected.map((e) => e.id).filter((id) => !skip.has(id)),
          );
          const distances = new Map(written.map((e) => [e.id, e.distance]));
          for (const g of got) expect(Math.abs(g.distance - distances.get(g.id)!)).toBeLessThanOrEqual(0.005 + 1e-9);
        },
      ),
      {
        numRuns: 50,
        examples: [cellEdgeExample(), movedToCentreExample(), busyFirstInstantExample(), distanceEdgeExample()],
      },
    );
    // The runs found things, some of them at the very edge of the distance, some on cell edges, in many cells.
    expect(found).toBeGreaterThan(10);
    expect(edges).toBeGreaterThan(0);
    expect(onCellEdges).toBeGreaterThan(0);
    expect(cellsSeen.size).toBeGreaterThan(4);
  }, 180_000);

  it("reads a typed place from the offline gazetteer and answers the place's centre", async () => {
    const anonymous = await callerFor(t.deps, null);
    for (const place of ['Leeds', 'ls1', 'LS1 4AP', 'leeds, UK']) {
      const r = await anonymous.discovery.search({ window: 'today', place, miles: 5 });
      expect(r.centre).toMatchObject({ latitude: 53.79648, longitude: -1.54785 });
    }
    const r = await anonymous.discovery.search({
      window: 'today',
      latitude: 53.796481,
      longitude: -1.547851,
      miles: 5,
    });
    // A position sent is rounded to about 100 m before it is used or answered.
    expect(r.centre).toEqual({ latitude: 53.796, longitude: -1.548, place: null });
  });
});

describe('discovery.search refusals', () => {
  const valid: DiscoverySearchForm = { window: '2h', latitude: 53.8, longitude: -1.55, miles: 5 };
  const cases: [string, Record<string, unknown>, string][] = [
    ['a latitude out of range', { latitude: 91 }, MSG.latitudeRange],
    ['a longitude out of range', { longitude: -180.5 }, MSG.longitudeRange],
    ['a latitude that is not a number', { latitude: Number.NaN }, MSG.latitudeRange],
    ['an infinite longitude', { longitude: Number.POSITIVE_INFINITY }, MSG.longitudeRange],
    ['a distance not offered', { miles: 3 }, MSG.discoveryDistance],
    ['a window not offered', { window: '3h' }, MSG.discoveryWindow],
    ['an unknown category', { category: 'Plumber' }, MSG.discoveryCategory],
    ['no place and no position', { latitude: undefined, longitude: undefined }, MSG.discoveryWhere],
    ['half a position', { longitude: undefined }, MSG.discoveryWhere],
    ['a place and a position', { place: 'Leeds' }, MSG.discoveryWhere],
    ['an unknown place', { latitude: undefined, longitude: undefined, place: 'Atlantis' }, MSG.placeNotFound],
    ['an unknown time zone', { timezone: 'Mars/Olympus_Mons' }, MSG.discoveryTimezone],
    ['a sort not offered', { sort: 'cheapest' }, MSG.discoverySort],
    ['a cursor that is not one', { cursor: 'bm90LWEtY3Vyc29y' }, MSG.discoveryCursor],
  ];

  for (const [what, change, message] of cases) {
    it(`answers ${what} in words, BAD_REQUEST`, async () => {
      const anonymous = await callerFor(t.deps, null);
      const err = await errorOf(anonymous.discovery.search({ ...valid, ...change } as DiscoverySearchForm));
      expect({ code: err.code, message: err.message }).toEqual({ code: 'BAD_REQUEST', message });
    });
  }

  it('answers a forged cursor of any shape BAD_REQUEST in words or with a page, never a failure', async () => {
    const { user } = await createBusiness(t.deps.db);
    await (await callerFor(t.deps, user.id)).settings.setLocation({ ...CENTRE, source: 'pin' });
    t.clock.set(new Date('2026-11-21T10:00:00Z'));
    await createSlot(t.deps.db, user.id, { date: '2026-11-21', startTime: '11:00', endTime: '12:30' });
    const anonymous = await callerFor(t.deps, null);
    const now = t.deps.now().getTime();
    const text = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString('base64url');
    const number = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.constantFrom(1e300, -1e300, 8.64e15, 8.64e15 + 1, -8.64e15, 1e16, 9e15, 2 ** 53, 26, 1e-300, -0),
      fc.integer({ min: now - 10 * 86_400_000, max: now + 10 * 86_400_000 }),
    );
    const id = fc.oneof(
      fc.uuid(),
      fc.uuid().map((u) => u.toUpperCase()),
      fc.string({ maxLength: 40 }),
    );
    const cursor = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.base64String({ maxLength: 400 }),
      fc.tuple(fc.constantFrom('soonest', 'nearest', 'x'), number, number, id).map(text),
      fc.tuple(fc.constantFrom('soonest', 'nearest'), number, number, id, fc.jsonValue()).map(text),
      fc.jsonValue().map(text),
    );
    await fc.assert(
      fc.asyncProperty(cursor, fc.constantFrom(...DISCOVERY_SORTS), async (c, sort) => {
        if (c.length > 400) return;
        const answer = await anonymous.discovery.search({ ...valid, sort, cursor: c }).then(
          (page) => ({ page: Array.isArray(page.results) }),
          (err: { code?: string; message?: string }) => ({ code: err.code, message: err.message }),
        );
        if ('page' in answer) expect(answer.page).toBe(true);
        else expect(answer).toEqual({ code: 'BAD_REQUEST', message: MSG.discoveryCursor });
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a soonest cursor for a nearest search (the cursor says which order it follows)', async () => {
    const { user } = await createBusiness(t.deps.db);
    const owner = await callerFor(t.deps, user.id);
    await owner.settings.setLocation({ ...CENTRE, source: 'pin' });
    t.clock.set(new Date('2026-11-21T10:00:00Z'));
    for (const start of ['11:00', '11:30']) {
      await createSlot(t.deps.db, user.id, { date: '2026-11-21', startTime: start, endTime: '12:30' });
    }
    const anonymous = await callerFor(t.deps, null);
    const first = await anonymous.discovery.search({ ...valid, limit: 1 });
    expect(first.nextCursor).not.toBeNull();
    const err = await errorOf(anonymous.discovery.search({ ...valid, sort: 'nearest', cursor: first.nextCursor }));
    expect(err.message).toBe(MSG.discoveryCursor);
  });
});
