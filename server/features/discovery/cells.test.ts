/**
 * Discover's covering cells (docs/decisions/0108): every point of a search's box, on a cell edge
 * or a hair beside it, falls in a cell the search reads; the sets stay small in Great Britain.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DISCOVERY_MILES } from '../../../shared/discovery';
import { boundingBox } from '../../../shared/geo';
import { cellOf, coveringCells, gridFor, LARGE_GRID, SMALL_GRID } from './cells';

const centre = fc.record({
  latitude: fc.double({ min: 49.9, max: 58.7, noNaN: true }),
  longitude: fc.double({ min: -8.2, max: 1.8, noNaN: true }),
});

describe('coveringCells', () => {
  it("holds the cell of every point of the box, edges and a hair beside a cell's edge included", () => {
    fc.assert(
      fc.property(
        centre,
        fc.constantFrom(...DISCOVERY_MILES),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(null, 0, 1e-12, -1e-12),
        (c, miles, u, v, nudge) => {
          const box = boundingBox(c, miles);
          const grid = gridFor(miles);
          let latitude = box.minLatitude + u * (box.maxLatitude - box.minLatitude);
          const longitude = box.minLongitude + v * (box.maxLongitude - box.minLongitude);
          // Onto the nearest row edge of the grid (when still inside the box).
          if (nudge !== null) {
            const edge = (Math.round(((latitude + 90) * grid.size) / 180) * 180) / grid.size - 90 + nudge;
            if (edge >= box.minLatitude && edge <= box.maxLatitude) latitude = edge;
          }
          expect(coveringCells(grid, box)).toContain(cellOf(grid, latitude, longitude));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads at most 30 cells for any distance offered in Great Britain', () => {
    fc.assert(
      fc.property(centre, fc.constantFrom(...DISCOVERY_MILES), (c, miles) => {
        expect(coveringCells(gridFor(miles), boundingBox(c, miles)).length).toBeLessThanOrEqual(30);
      }),
    );
  });

  it('numbers cells row by column, clamping the last row and column', () => {
    expect(cellOf(SMALL_GRID, -90, -180)).toBe(0);
    expect(cellOf(SMALL_GRID, 90, 180)).toBe(4096 * 4096 - 1);
    expect(cellOf(LARGE_GRID, 0, 0)).toBe(512 * 1024 + 512);
    expect(cellOf(LARGE_GRID, -1e-12, -1e-12)).toBe(511 * 1024 + 511);
  });
});
