/**
 * Discover's place cells (docs/decisions/0108): two latitude/longitude grids, the cells of a 24-bit
 * and a 20-bit geohash numbered row by column. PostgreSQL computes a slot's cells itself (generated
 * columns `small_cell`, `large_cell` of `slots`, from the listed coordinates); this file holds the
 * same arithmetic for the search's covering sets, operation for operation, so both round alike.
 */
import type { BoundingBox } from '../../../shared/geo';

/** A grid: `size` rows of 180/size degrees of latitude by `size` columns of 360/size degrees of longitude. */
export interface CellGrid {
  name: 'small' | 'large';
  size: number;
}

/** About 3.0 by 3.7 miles in Great Britain (0.044° by 0.088°): searches up to 5 miles. */
export const SMALL_GRID: CellGrid = { name: 'small', size: 4096 };
/** About 12 by 15 miles in Great Britain (0.176° by 0.352°): 10 and 25 miles. */
export const LARGE_GRID: CellGrid = { name: 'large', size: 1024 };

/**
 * Most small cells a soonest search reads at its first instant (more than a 25-mile box covers in
 * Great Britain, about 18 x 14); past it, next to a pole or the 180° meridian, the cut per cell answers.
 */
export const FIRST_INSTANT_MAX_CELLS = 400;

/** The grid a search of `miles` reads: few cells either way (up to about 20 small or 30 large). */
export function gridFor(miles: number): CellGrid {
  return miles <= 5 ? SMALL_GRID : LARGE_GRID;
}

const row = (latitude: number, n: number) => Math.min(n - 1, Math.floor(((latitude + 90) * n) / 180));
const column = (longitude: number, n: number) => Math.min(n - 1, Math.floor(((longitude + 180) * n) / 360));

/** The cell of a point (degrees) in `grid`: row * size + column, as the generated column computes it. */
export function cellOf(grid: CellGrid, latitude: number, longitude: number): number {
  return row(latitude, grid.size) * grid.size + column(longitude, grid.size);
}

/**
 * Every cell of `grid` holding a point of `box` (inclusive edges), row by row. The cell of a
 * coordinate only grows with it, so the cells of the box's corners bound every point inside.
 */
export function coveringCells(grid: CellGrid, box: BoundingBox): number[] {
  const n = grid.size;
  const cells: number[] = [];
  const [c0, c1] = [column(box.minLongitude, n), column(box.maxLongitude, n)];
  for (let r = row(box.minLatitude, n); r <= row(box.maxLatitude, n); r++) {
    for (let c = c0; c <= c1; c++) cells.push(r * n + c);
  }
  return cells;
}
