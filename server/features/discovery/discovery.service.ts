/**
 * The Discover search (docs/decisions/0081, 0108, 0114), one query that runs the same on PGlite and
 * PostgreSQL without an extension: for each place cell the bounding box covers (and, with a category,
 * each of its labels), its index (`slots_discovery_small_idx` or `_large_idx`: cell, start instant,
 * coordinates; `_small_category_idx` or `_large_category_idx`: cell, category, start instant,
 * coordinates) is read in start order, the box checked on its entries, then the haversine distance.
 * Paging is keyset. 'nearest' tries growing rings, so in a dense city the whole distance is not scored.
 */
import { and, eq, gte, lt, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { businessTypeLabel } from '../../../shared/categories';
import {
  categoryLabels,
  DISCOVERY_SORTS,
  nearestRings,
  windowRange,
  type DiscoverySort,
} from '../../../shared/discovery';
import { boundingBox, EARTH_RADIUS_MILES, roundDegrees, type LatLng } from '../../../shared/geo';
import { MSG } from '../../../shared/messages';
import type { DiscoverySearchInput } from '../../../shared/schemas/discovery';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import type { DbOrTx } from '../../db/client';
import { encodedAs, preparedStatement, type Placeholders } from '../../db/prepared';
import { businessProfiles, slots } from '../../db/schema/index';
import { noActiveOrDeclinedBooking } from '../businesses/businesses.service';
import { coveringCells, gridFor, LARGE_GRID, SMALL_GRID, type CellGrid } from './cells';
import { decodeCursor, encodeCursor, type DiscoveryCursor } from './cursor';
import { findPlace } from '../geocoding/gazetteer';

/** One slot found. */
export interface DiscoveryResult {
  slotId: string;
  businessId: string;
  businessName: string;
  slug: string;
  /** The business category's label ('Barber Shop'). */
  category: string;
  /** From the search's centre, in miles, to 2 decimal places. */
  distanceMiles: number;
  /** Local to the business: 'YYYY-MM-DD', 'HH:MM', 'HH:MM' (or '24:00'), read in `timezone`. */
  date: string;
  startTime: string;
  endTime: string;
  timezone: string;
  /** For the client's own clock to drop a slot once it has started. */
  startsAt: Date;
  description: string;
  /** Degrees. */
  latitude: number;
  longitude: number;
}

/** discovery.search's answer; `nextCursor` is null on the last page. */
export interface DiscoveryPage {
  results: DiscoveryResult[];
  nextCursor: string | null;
  /** A typed place's centre and name, or the rounded position sent. */
  centre: LatLng & { place: string | null };
}

type SearchValues = {
  /** The cells the bounding box covers, comma-separated. */
  cells: string;
  now: Date;
  lower: Date;
  to: Date;
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
  lat: number;
  lng: number;
  miles: number;
  afterStart: Date;
  afterDistance: number;
  afterId: string;
  labels: string;
  limit: number;
};

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** Throws BAD_REQUEST for a cursor this server could not have issued for a `sort` search now (`decodeCursor`). */
function readCursor(text: string, sort: DiscoverySort, now: Date): DiscoveryCursor {
  const cursor = decodeCursor(text, sort, now);
  if (!cursor) throw new DomainError('BAD_REQUEST', MSG.discoveryCursor, { field: 'cursor' });
  return cursor;
}

/** Haversine miles from the centre: term for term `distanceMiles` of shared/geo.ts, so both agree. */
function distanceMilesSql(p: Placeholders<SearchValues>): SQL<number> {
  return sql<number>`(${EARTH_RADIUS_MILES}::float8 * 2 * asin(least(1, sqrt(
    power(sin(radians(${slots.latitude} - ${p.lat}::float8) / 2), 2)
    + cos(radians(${p.lat}::float8)) * cos(radians(${slots.latitude})) * power(sin(radians(${slots.longitude} - ${p.lng}::float8) / 2), 2)))))`;
}

/**
 * The search statement for `sort` over the cells of `grid`; with `byCategory`, `labels` is one
 * newline-separated text. Each cell in `cells` (comma-separated), with a category each cell and
 * label, is read on its own: its open slots in the window and box (of the label: the slot row's
 * copy of its business's category) are ordered on their index entries alone (start, place and id
 * are in the index, the distance worked out from them), then only as many rows as the page needs
 * are checked for bookings in that order. The pages are merged, and only the merged page's rows
 * are read from the tables.
 */
function searchStatement(sort: DiscoverySort, byCategory: boolean, grid: CellGrid) {
  const name = `discovery_${sort}${byCategory ? '_category' : ''}_${grid.name}`;
  return preparedStatement<SearchValues>()(name, (db, p) => {
    const distance = distanceMilesSql(p);
    const startsAt = (v: Placeholder) => encodedAs(v, slots.startsAt);
    const cellColumn = grid === SMALL_GRID ? slots.smallCell : slots.largeCell;
    // Soonest works out the distance only for rows at the cursor's instant: PostgreSQL repeats an
    // expression wherever it is written.
    const after =
      sort === 'soonest'
        ? sql`(${slots.startsAt} > ${startsAt(p.afterStart)} or (${slots.startsAt} = ${startsAt(p.afterStart)} and (${distance}, ${slots.id}) > (${p.afterDistance}::float8, ${p.afterId}::uuid)))`
        : sql`(${distance}, ${slots.startsAt}, ${slots.id}) > (${p.afterDistance}::float8, ${startsAt(p.afterStart)}, ${p.afterId}::uuid)`;
    /** The sort's keys over a source's start, distance and id. */
    const keys = (s: { startsAt: unknown; distance: unknown; id: unknown }) =>
      (sort === 'soonest' ? [s.startsAt, s.distance, s.id] : [s.distance, s.startsAt, s.id]).map((k) => sql`${k}`);
    const where = and(
      sql`${cellColumn} = ${sql.identifier('cells')}.${sql.identifier('cell')}`,
      byCategory ? sql`${slots.businessCategory} = ${sql.identifier('labels')}.${sql.identifier('label')}` : undefined,
      eq(slots.isBooked, false),
      sql`${slots.latitude} is not null`,
      sql`${slots.startsAt} > ${startsAt(p.now)}`,
      gte(slots.startsAt, startsAt(p.lower)),
      lt(slots.startsAt, startsAt(p.to)),
      sql`${slots.latitude} between ${p.minLat}::float8 and ${p.maxLat}::float8`,
      sql`${slots.longitude} between ${p.minLng}::float8 and ${p.maxLng}::float8`,
      sql`${distance} <= ${p.miles}::float8`,
      after,
    );
    const columns = { id: slots.id, startsAt: slots.startsAt, distance: distance.as('distance') };
    // Soonest: a cell's open slots in start order as its index holds them, up to the limit and every
    // slot tied at the last instant (the merge orders those by distance and id), so the rest of the
    // window is never read. Nearest: the cell's slots in the window and box are ordered on their index
    // entries (the distance worked out from them), then checked for bookings in that order.
    const exactSoonest = () =>
      db
        .select(columns)
        .from(slots)
        .where(and(where, noActiveOrDeclinedBooking(db, slots.id)))
        .orderBy(sql`${slots.startsAt} fetch first ${p.limit} rows with ties`);
    // The cut is first made on index entries alone (`cut`), and only its rows are checked for
    // bookings, in the merge's order (`firsts`): the cell's true first rows whenever the limit is met
    // or the cut holds the whole cell. Else the exact read above runs for that cell.
    const soonestNear = () => {
      const cut = db.$with('cut').as(
        db
          .select(columns)
          .from(slots)
          .where(where)
          .orderBy(sql`${slots.startsAt} fetch first ${p.limit} rows with ties`),
      );
      const ordered = db
        .select()
        .from(cut)
        .orderBy(...keys(cut))
        .as('ordered');
      const firsts = db.$with('firsts').as(
        db
          .select({ id: ordered.id, startsAt: ordered.startsAt, distance: ordered.distance })
          .from(ordered)
          .where(noActiveOrDeclinedBooking(db, ordered.id))
          .orderBy(...keys(ordered))
          .limit(p.limit),
      );
      const exact = exactSoonest().as('exact');
      const cutShort = sql`((select count(*) from ${firsts}) < ${p.limit} and (select count(*) from ${cut}) >= ${p.limit})`;
      const both = db
        .select({ id: firsts.id, startsAt: firsts.startsAt, distance: firsts.distance })
        .from(firsts)
        .where(sql`not ${cutShort}`)
        .unionAll(
          db.select({ id: exact.id, startsAt: exact.startsAt, distance: exact.distance }).from(exact).where(cutShort),
        )
        .as('both');
      return db
        .with(cut, firsts)
        .select({ id: both.id, startsAt: both.startsAt, distance: both.distance })
        .from(both)
        .as('near');
    };
    const nearestNear = () => {
      const ordered = db
        .select(columns)
        .from(slots)
        .where(where)
        .orderBy(...keys({ startsAt: slots.startsAt, distance: sql.identifier('distance'), id: slots.id }))
        .as('ordered');
      return db
        .select({ id: ordered.id, startsAt: ordered.startsAt, distance: ordered.distance })
        .from(ordered)
        .where(noActiveOrDeclinedBooking(db, ordered.id))
        .orderBy(...keys(ordered))
        .limit(p.limit)
        .as('near');
    };
    const near = sort === 'soonest' ? soonestNear() : nearestNear();
    const cellsSql = sql`unnest(string_to_array(${p.cells}::text, ',')::int[]) as ${sql.identifier('cells')}(${sql.identifier('cell')})`;
    const page = db
      .select({ id: near.id, startsAt: near.startsAt, distance: near.distance })
      .from(
        byCategory
          ? sql`${cellsSql}, unnest(string_to_array(${p.labels}::text, chr(10))) as ${sql.identifier('labels')}(${sql.identifier('label')})`
          : cellsSql,
      )
      .crossJoinLateral(near)
      .orderBy(...keys(near))
      .limit(p.limit)
      .as('page');
    return db
      .select({
        slotId: slots.id,
        businessId: slots.businessId,
        date: slots.date,
        startTime: slots.startTime,
        endTime: slots.endTime,
        description: slots.description,
        startsAt: slots.startsAt,
        latitude: slots.latitude,
        longitude: slots.longitude,
        businessName: businessProfiles.businessName,
        slug: businessProfiles.slug,
        businessType: businessProfiles.businessType,
        timezone: businessProfiles.timezone,
        distance: page.distance,
      })
      .from(page)
      .innerJoin(slots, eq(slots.id, page.id))
      .innerJoin(businessProfiles, eq(businessProfiles.id, slots.businessId))
      .orderBy(...keys(page));
  });
}

/** The eight statements: sort x category x grid. */
const STATEMENTS = Object.fromEntries(
  DISCOVERY_SORTS.map((sort) => [
    sort,
    {
      all: { small: searchStatement(sort, false, SMALL_GRID), large: searchStatement(sort, false, LARGE_GRID) },
      category: { small: searchStatement(sort, true, SMALL_GRID), large: searchStatement(sort, true, LARGE_GRID) },
    },
  ]),
) as Record<DiscoverySort, Record<'all' | 'category', Record<CellGrid['name'], ReturnType<typeof searchStatement>>>>;

/**
 * The centre: a typed place from the offline gazetteer (never the network), or the position sent,
 * rounded to about 100 m. Throws BAD_REQUEST (field place) for an unknown place.
 */
export function searchCentre(
  input: Pick<DiscoverySearchInput, 'place' | 'latitude' | 'longitude'>,
): DiscoveryPage['centre'] {
  if (input.place) {
    const found = findPlace(input.place);
    if (!found) throw new DomainError('BAD_REQUEST', MSG.placeNotFound, { field: 'place' });
    return { latitude: found.latitude, longitude: found.longitude, place: found.name };
  }
  return { latitude: roundDegrees(input.latitude!), longitude: roundDegrees(input.longitude!), place: null };
}

/**
 * discovery.search: open future slots within `input.window` ('today', 'tomorrow' in `input.timezone`)
 * and `input.miles`, optionally of a category, sorted 'soonest' or 'nearest', `input.limit` after
 * `input.cursor`. Throws BAD_REQUEST for an unknown place or a cursor it could not have issued.
 */
export async function searchSlots(
  deps: Pick<ServiceDeps, 'db' | 'now'>,
  input: DiscoverySearchInput,
): Promise<DiscoveryPage> {
  const centre = searchCentre(input);
  const now = deps.now();
  const cursor = input.cursor ? readCursor(input.cursor, input.sort, now) : null;
  const { from, to } = windowRange(input.window, input.timezone, now);
  const labels = input.category ? categoryLabels(input.category) : null;
  const lower = cursor && input.sort === 'soonest' && cursor.startsAt > from ? cursor.startsAt : from;
  const statements = STATEMENTS[input.sort][labels ? 'category' : 'all'];
  const rings = input.sort === 'nearest' ? nearestRings(input.miles, cursor?.distance ?? 0) : [input.miles];
  let rows: Awaited<ReturnType<typeof runSearch>> = [];
  for (const miles of rings) {
    const box = boundingBox(centre, miles);
    const grid = gridFor(miles);
    rows = await runSearch(deps.db, statements[grid.name], {
      cells: coveringCells(grid, box).join(','),
      now,
      lower,
      to,
      minLat: box.minLatitude,
      maxLat: box.maxLatitude,
      minLng: box.minLongitude,
      maxLng: box.maxLongitude,
      lat: centre.latitude,
      lng: centre.longitude,
      miles,
      // The first page starts before every row in either order.
      afterStart: cursor?.startsAt ?? from,
      afterDistance: cursor?.distance ?? -1,
      afterId: cursor?.id ?? NIL_UUID,
      labels: labels?.join('\n') ?? '',
      limit: input.limit + 1,
    });
    if (rows.length > input.limit) break;
  }
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    results: page.map((r) => ({
      slotId: r.slotId,
      businessId: r.businessId,
      businessName: r.businessName,
      slug: r.slug,
      category: businessTypeLabel(r.businessType),
      distanceMiles: Math.round(r.distance * 100) / 100,
      date: r.date,
      startTime: r.startTime,
      endTime: r.endTime,
      timezone: r.timezone,
      startsAt: r.startsAt,
      description: r.description,
      latitude: r.latitude!,
      longitude: r.longitude!,
    })),
    nextCursor:
      rows.length > input.limit && last
        ? encodeCursor({ sort: input.sort, startsAt: last.startsAt, distance: Number(last.distance), id: last.slotId })
        : null,
    centre,
  };
}

/** The distance comes back as a number on either driver. */
async function runSearch(db: DbOrTx, statement: ReturnType<typeof searchStatement>, values: SearchValues) {
  const rows = await statement(db, values);
  for (const r of rows) r.distance = Number(r.distance);
  return rows;
}
