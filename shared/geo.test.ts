import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boundingBox,
  boxWithin,
  distanceMiles,
  EARTH_RADIUS_METRES,
  EARTH_RADIUS_MILES,
  inBox,
  pointsBounds,
  roundDegrees,
  type LatLng,
} from './geo';

const LEEDS = { latitude: 53.79648, longitude: -1.54785 };
const MANCHESTER = { latitude: 53.48095, longitude: -2.23743 };

/**
 * The point `miles` from `from` on initial bearing `bearing` (radians), on the same sphere: the
 * spherical "destination point" formula, written independently of the code under test.
 */
function destination(from: LatLng, miles: number, bearing: number): LatLng {
  const d = miles / EARTH_RADIUS_MILES;
  const lat1 = (from.latitude * Math.PI) / 180;
  const lng1 = (from.longitude * Math.PI) / 180;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing));
  const lng2 =
    lng1 + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { latitude: (lat2 * 180) / Math.PI, longitude: (((lng2 * 180) / Math.PI + 540) % 360) - 180 };
}

const point = fc.record({
  latitude: fc.double({ min: -89.9, max: 89.9, noNaN: true }),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
});

describe('distanceMiles', () => {
  it('uses the mean Earth radius in miles', () => {
    expect(EARTH_RADIUS_METRES).toBe(6_371_008.8);
    expect(EARTH_RADIUS_MILES).toBeCloseTo(3958.7613, 4);
  });

  it('measures known distances', () => {
    expect(distanceMiles(LEEDS, LEEDS)).toBe(0);
    // Leeds to Manchester centre, great circle: about 57.4 km.
    expect(distanceMiles(LEEDS, MANCHESTER)).toBeCloseTo(35.68, 1);
    // A quarter of the way round the Earth.
    expect(distanceMiles({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 90 })).toBeCloseTo(
      (Math.PI / 2) * EARTH_RADIUS_MILES,
      6,
    );
    // Antipodes: half the circumference, not NaN.
    expect(distanceMiles({ latitude: 10, longitude: 20 }, { latitude: -10, longitude: -160 })).toBeCloseTo(
      Math.PI * EARTH_RADIUS_MILES,
      3,
    );
  });

  it('is symmetric and agrees with the destination-point formula', () => {
    fc.assert(
      fc.property(
        point,
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        (a, miles, bearing) => {
          const b = destination(a, miles, bearing);
          expect(Math.abs(distanceMiles(a, b) - distanceMiles(b, a))).toBeLessThan(1e-9);
          expect(Math.abs(distanceMiles(a, b) - miles)).toBeLessThan(1e-6);
        },
      ),
    );
  });
});

describe('boundingBox', () => {
  it('holds every point within the distance, also at the edge and at high latitudes', () => {
    fc.assert(
      fc.property(
        point,
        fc.constantFrom(1, 2, 5, 10, 25, 300),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (centre, miles, bearing, fraction) => {
          const box = boundingBox(centre, miles);
          const p = destination(centre, miles * fraction, bearing);
          expect(inBox(box, p), JSON.stringify({ centre, miles, bearing, fraction, p, box })).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('holds the whole edge of the circle (every bearing, at the distance)', () => {
    for (const latitude of [0, 30, 53.8, 70, 85, -60]) {
      for (const miles of [1, 25, 300]) {
        const centre = { latitude, longitude: -1.5 };
        const box = boundingBox(centre, miles);
        for (let step = 0; step < 3600; step++) {
          const p = destination(centre, miles, (step / 3600) * 2 * Math.PI);
          if (!inBox(box, p))
            throw new Error(`${JSON.stringify(p)} is ${miles} miles from ${latitude} but outside the box`);
        }
      }
    }
  });

  it('is tight: its east and north edges are the distance away', () => {
    const box = boundingBox(LEEDS, 10);
    expect(distanceMiles(LEEDS, { latitude: box.maxLatitude, longitude: LEEDS.longitude })).toBeCloseTo(10, 4);
    // The widest point of the circle is north of the centre's parallel; its longitude is the box's edge.
    const widest = { latitude: box.minLatitude, longitude: box.maxLongitude };
    expect(distanceMiles(LEEDS, widest)).toBeGreaterThan(10);
    expect(box.maxLongitude - LEEDS.longitude).toBeCloseTo(
      (10 / EARTH_RADIUS_MILES / Math.cos((LEEDS.latitude * Math.PI) / 180)) * (180 / Math.PI),
      3,
    );
  });

  it('spans every longitude near a pole or across the 180th meridian', () => {
    expect(boundingBox({ latitude: 89.99, longitude: 0 }, 25)).toMatchObject({ minLongitude: -180, maxLongitude: 180 });
    expect(boundingBox({ latitude: 0, longitude: 179.99 }, 25)).toMatchObject({
      minLongitude: -180,
      maxLongitude: 180,
    });
  });
});

describe('boxWithin', () => {
  it('keeps the part of one box inside the other', () => {
    const wide = boundingBox(LEEDS, 10);
    const near = boundingBox({ latitude: LEEDS.latitude + 0.14, longitude: LEEDS.longitude }, 2);
    expect(boxWithin(near, wide)).toEqual({
      minLatitude: near.minLatitude,
      maxLatitude: wide.maxLatitude,
      minLongitude: near.minLongitude,
      maxLongitude: near.maxLongitude,
    });
    expect(boxWithin(wide, near)).toEqual(boxWithin(near, wide));
  });
});

describe('roundDegrees', () => {
  it('rounds to 3 places (about 100 m) by default', () => {
    expect(roundDegrees(53.796481)).toBe(53.796);
    expect(roundDegrees(-1.5475)).toBe(-1.547);
    expect(roundDegrees(12.3456789, 6)).toBe(12.345679);
  });
});

describe('pointsBounds', () => {
  it('is null for no points and a rectangle of no size for one', () => {
    expect(pointsBounds([])).toBeNull();
    expect(pointsBounds([LEEDS])).toEqual({
      minLatitude: LEEDS.latitude,
      maxLatitude: LEEDS.latitude,
      minLongitude: LEEDS.longitude,
      maxLongitude: LEEDS.longitude,
    });
  });

  it('spans the extremes of several points, whatever their order', () => {
    const south = { latitude: 50.1, longitude: -5.5 };
    expect(pointsBounds([LEEDS, south, MANCHESTER])).toEqual({
      minLatitude: 50.1,
      maxLatitude: LEEDS.latitude,
      minLongitude: -5.5,
      maxLongitude: LEEDS.longitude,
    });
  });

  it('holds every point it was given, and each side touches one of them', () => {
    fc.assert(
      fc.property(fc.array(point, { minLength: 1, maxLength: 20 }), (points) => {
        const box = pointsBounds(points)!;
        expect(points.every((p) => inBox(box, p))).toBe(true);
        expect(points.some((p) => p.latitude === box.minLatitude)).toBe(true);
        expect(points.some((p) => p.latitude === box.maxLatitude)).toBe(true);
        expect(points.some((p) => p.longitude === box.minLongitude)).toBe(true);
        expect(points.some((p) => p.longitude === box.maxLongitude)).toBe(true);
      }),
    );
  });
});
