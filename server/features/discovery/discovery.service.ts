/**
 * The Discover search (docs/decisions/0081, 0108, 0114), one query that runs the same on PGlite and
 * PostgreSQL without an extension: for each place cell the bounding box covers (and, with a category,
 * each of its labels), its index (`slots_discovery_small_idx` or `_large_idx`: cell, start instant,
 * coordinates; `_small_category_idx` or `_large_category_idx`: cell, category, start instant,
 * coordinates) is read in start order, the box checked on its entries, then the haversine distance.
 * Paging is keyset. 'nearest' tries growing rings, so in a dense city the whole distance is not scored.
 * 'soonest' without a category first tries its first instant alone, nearest first, bounded by the
 * centre's own cell (`firstInstantPage`), so a dense city's busy first instant is not read whole.
 */
import { and, eq, gte, lt, sql, type AnyColumn, type Placeholder, type SQL, type Subquery } from 'drizzle-orm';
import { businessTypeLabel } from '../../../shared/categories';
import {
  categoryLabels,
  DISCOVERY_SORTS,
  nearestRings,
  windowRange,
  type DiscoverySort,
} from '../../../shared/discovery';
import {
  boundingBox,
  boxWithin,
  EARTH_RADIUS_MILES,
  roundDegrees,
  type BoundingBox,
  type LatLng,
} from '../../../shared/geo';
import { MSG } from '../../../shared/messages';
import type { DiscoverySearchInput } from '../../../shared/schemas/discovery';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import type { DbOrTx } from '../../db/client';
import { encodedAs, preparedStatement, type Placeholders } from '../../db/prepared';
import { businessProfiles, slots } from '../../db/schema/index';
import { noActiveOrDeclinedBooking } from '../businesses/businesses.service';
import {
  cellOf,
  coveringCells,
  FIRST_INSTANT_MAX_CELLS,
  gridFor,
  LARGE_GRID,
  SMALL_GRID,
  type CellGrid,
} from './cells';
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
  /** `limit` - 1. */
  seedOffset: number;
  /** The small cell of the centre. */
  centreCell: number;
  /** The first instant of a soonest search (firstInstantPageStatement). */
  t0: Date;
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
 * The parts every Discover statement is made of, for `sort` and (with `byCategory`) a category:
 * `sources(cellList)` yields each cell of `cellList` (SQL giving integers) as `cells.cell`, with
 * each label of `labels` as `labels.label`; `listed(column)` is a listed open slot in the window and
 * box, in the source's cell of `column` (and label), all on index entries; `found(column, reach,
 * ...more)` adds at most `reach` miles from the centre and after the cursor.
 */
function searchParts(p: Placeholders<SearchValues>, sort: DiscoverySort, byCategory: boolean) {
  const distance = distanceMilesSql(p);
  const startsAt = (v: Placeholder) => encodedAs(v, slots.startsAt);
  const cellsRef = sql`${sql.identifier('cells')}.${sql.identifier('cell')}`;
  const sources = (cellList: SQL) =>
    byCategory
      ? sql`${cellList} as ${sql.identifier('cells')}(${sql.identifier('cell')}), unnest(string_to_array(${p.labels}::text, chr(10))) as ${sql.identifier('labels')}(${sql.identifier('label')})`
      : sql`${cellList} as ${sql.identifier('cells')}(${sql.identifier('cell')})`;
  const listedConditions = (column: typeof slots.smallCell | typeof slots.largeCell) => [
    sql`${column} = ${cellsRef}`,
    byCategory ? sql`${slots.businessCategory} = ${sql.identifier('labels')}.${sql.identifier('label')}` : undefined,
    eq(slots.isBooked, false),
    sql`${slots.latitude} is not null`,
    sql`${slots.startsAt} > ${startsAt(p.now)}`,
    gte(slots.startsAt, startsAt(p.lower)),
    lt(slots.startsAt, startsAt(p.to)),
    sql`${slots.latitude} between ${p.minLat}::float8 and ${p.maxLat}::float8`,
    sql`${slots.longitude} between ${p.minLng}::float8 and ${p.maxLng}::float8`,
  ];
  const listed = (column: typeof slots.smallCell | typeof slots.largeCell) => and(...listedConditions(column));
  // Soonest works out the distance only for rows at the cursor's instant: PostgreSQL repeats an
  // expression wherever it is written.
  const after =
    sort === 'soonest'
      ? sql`(${slots.startsAt} > ${startsAt(p.afterStart)} or (${slots.startsAt} = ${startsAt(p.afterStart)} and (${distance}, ${slots.id}) > (${p.afterDistance}::float8, ${p.afterId}::uuid)))`
      : sql`(${distance}, ${slots.startsAt}, ${slots.id}) > (${p.afterDistance}::float8, ${startsAt(p.afterStart)}, ${p.afterId}::uuid)`;
  const found = (column: typeof slots.smallCell | typeof slots.largeCell, reach: SQL, ...more: SQL[]) =>
    and(...listedConditions(column), sql`${distance} <= ${reach}`, after, ...more);
  return {
    startsAt,
    sources,
    listed,
    found,
    cellsSql: sql`unnest(string_to_array(${p.cells}::text, ',')::int[])`,
    columns: { id: slots.id, startsAt: slots.startsAt, distance: distance.as('distance') },
    /** The sort's keys over a source's start, distance and id. */
    keys: (s: { startsAt: unknown; distance: unknown; id: unknown }) =>
      (sort === 'soonest' ? [s.startsAt, s.distance, s.id] : [s.distance, s.startsAt, s.id]).map((k) => sql`${k}`),
  };
}

/** A page's slots (`page`: id, start, distance) with their businesses, in `keys`' order. */
function pageRows(db: DbOrTx, page: Subquery & { id: AnyColumn; distance: SQL.Aliased<number> }, keys: SQL[]) {
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
    .orderBy(...keys);
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
    const { columns, keys, found, sources, cellsSql } = searchParts(p, sort, byCategory);
    const cellColumn = grid === SMALL_GRID ? slots.smallCell : slots.largeCell;
    const where = found(cellColumn, sql`${p.miles}::float8`);
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
    const page = db
      .select({ id: near.id, startsAt: near.startsAt, distance: near.distance })
      .from(sources(cellsSql))
      .crossJoinLateral(near)
      .orderBy(...keys(near))
      .limit(p.limit)
      .as('page');
    return pageRows(db, page, keys(page));
  });
}

/**
 * Soonest's first instant (`t0`): the first start of a listed open slot in the box over the cells
 * of `grid` (index entries, no distance), and `reach`: the distance of the `seedOffset`+1-th open
 * slot of the search at t0 in the centre's small cell (`centreCell`), null when it has fewer.
 * The page then lies within `reach` of the centre at t0, if the cursor has not passed it
 * (`firstInstantPage`).
 */
function firstInstantStatement(grid: CellGrid) {
  return preparedStatement<SearchValues>()(`discovery_first_instant_${grid.name}`, (db, p) => {
    const { columns, found, listed, sources, cellsSql } = searchParts(p, 'soonest', false);
    const probe = db
      .select({ startsAt: slots.startsAt })
      .from(slots)
      .where(listed(grid === SMALL_GRID ? slots.smallCell : slots.largeCell))
      .orderBy(slots.startsAt)
      .limit(1)
      .as('probe');
    const first = db
      .select({ t0: sql`min(${probe.startsAt})`.mapWith(slots.startsAt).as('t0') })
      .from(sources(cellsSql))
      .crossJoinLateral(probe)
      .as('first');
    const atFirst = db
      .select(columns)
      .from(slots)
      .where(found(slots.smallCell, sql`${p.miles}::float8`, sql`${slots.startsAt} = ${first.t0}`))
      .as('at_first');
    const ordered = db
      .select({ id: atFirst.id, distance: atFirst.distance })
      .from(sources(sql`unnest(array[${p.centreCell}::int])`))
      .crossJoinLateral(atFirst)
      .orderBy(atFirst.distance, atFirst.id)
      .as('ordered');
    const seed = db
      .select({ reach: sql<number>`${ordered.distance}`.as('reach') })
      .from(ordered)
      .where(noActiveOrDeclinedBooking(db, ordered.id))
      .orderBy(ordered.distance, ordered.id)
      .offset(p.seedOffset)
      .limit(1)
      .as('seed');
    return db
      .select({ t0: first.t0, reach: seed.reach })
      .from(first)
      .leftJoinLateral(seed, sql`true`);
  });
}

/**
 * Soonest's page when it lies at one instant `t0` within `miles` of the centre: the open slots of
 * the search at t0 over the small cells in `cells`, nearest first, up to `limit`. The box's
 * latitudes follow t0 in the index, so each cell reads only the entries of that band.
 */
function firstInstantPageStatement() {
  return preparedStatement<SearchValues>()('discovery_first_instant_page', (db, p) => {
    const { columns, found, sources, cellsSql, startsAt, keys } = searchParts(p, 'soonest', false);
    const atFirst = db
      .select(columns)
      .from(slots)
      .where(found(slots.smallCell, sql`${p.miles}::float8`, sql`${slots.startsAt} = ${startsAt(p.t0)}`))
      .as('at_first');
    const ordered = db
      .select({ id: atFirst.id, startsAt: atFirst.startsAt, distance: atFirst.distance })
      .from(sources(cellsSql))
      .crossJoinLateral(atFirst)
      .orderBy(atFirst.distance, atFirst.id)
      .as('ordered');
    const page = db
      .select({ id: ordered.id, startsAt: ordered.startsAt, distance: ordered.distance })
      .from(ordered)
      .where(noActiveOrDeclinedBooking(db, ordered.id))
      .orderBy(ordered.distance, ordered.id)
      .limit(p.limit)
      .as('page');
    return pageRows(db, page, keys(page));
  });
}

const FIRST_INSTANT = { small: firstInstantStatement(SMALL_GRID), large: firstInstantStatement(LARGE_GRID) };
const FIRST_INSTANT_PAGE = firstInstantPageStatement();

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
  const kind = labels ? 'category' : 'all';
  const rings =
    input.sort === 'nearest'
      ? nearestRings(input.miles, cursor?.distance ?? 0, to.getTime() - from.getTime(), !labels)
      : [input.miles];
  let rows: Awaited<ReturnType<typeof runSearch>> = [];
  for (const miles of rings) {
    const box = boundingBox(centre, miles);
    const grid = gridFor(miles);
    const values: SearchValues = {
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
      seedOffset: input.limit,
      centreCell: cellOf(SMALL_GRID, centre.latitude, centre.longitude),
      t0: from,
    };
    if (input.sort === 'soonest' && !labels) {
      const page = await firstInstantPage(deps.db, grid, box, values);
      if (page) return pageOf(page, input, centre);
    }
    rows = await runSearch(deps.db, STATEMENTS[input.sort][kind][grid.name], values);
    if (rows.length > input.limit) break;
  }
  return pageOf(rows, input, centre);
}

/**
 * A soonest page that lies at its first instant, nearest first: null when the centre's small cell
 * holds too few of that instant's slots to bound it (then the cut per cell answers). The page is
 * within `reach` of the centre, so only the small cells of that distance's box are read at t0.
 */
async function firstInstantPage(db: DbOrTx, grid: CellGrid, searchBox: BoundingBox, values: SearchValues) {
  const [first] = await FIRST_INSTANT[grid.name](db, values);
  if (!first?.t0 || first.reach === null) return null;
  const reach = Number(first.reach);
  const box = boxWithin(boundingBox({ latitude: values.lat, longitude: values.lng }, reach), searchBox);
  const cells = coveringCells(SMALL_GRID, box);
  // Next to a pole or the 180° meridian the box spans every longitude: the cut per cell reads fewer cells.
  if (cells.length > FIRST_INSTANT_MAX_CELLS) return null;
  const rows = await runSearch(db, FIRST_INSTANT_PAGE, {
    ...values,
    cells: cells.join(','),
    minLat: box.minLatitude,
    maxLat: box.maxLatitude,
    minLng: box.minLongitude,
    maxLng: box.maxLongitude,
    miles: reach,
    t0: first.t0,
  });
  // Short only when a booking came between the two reads: the cut per cell answers then.
  return rows.length === values.limit ? rows : null;
}

/** The answer for `rows` (up to `input.limit` + 1: one more means a next page). */
function pageOf(
  rows: Awaited<ReturnType<typeof runSearch>>,
  input: DiscoverySearchInput,
  centre: DiscoveryPage['centre'],
): DiscoveryPage {
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
async function runSearch(
  db: DbOrTx,
  statement: ReturnType<typeof searchStatement> | ReturnType<typeof firstInstantPageStatement>,
  values: SearchValues,
) {
  const rows = await statement(db, values);
  for (const r of rows) r.distance = Number(r.distance);
  return rows;
}
