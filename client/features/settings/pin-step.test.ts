import { describe, expect, it } from 'vitest';
import { distanceMiles, METRES_PER_MILE } from '../../../shared/geo';
import { pinStep, PIN_STEP_LARGE_PX, PIN_STEP_PX } from './pin-step';

const LEEDS = { latitude: 53.7997, longitude: -1.5492 };
const metres = (a: typeof LEEDS, b: typeof LEEDS) => distanceMiles(a, b) * METRES_PER_MILE;

describe('pinStep', () => {
  it('moves north, south, east and west by the arrow pressed', () => {
    const up = pinStep(LEEDS, 'ArrowUp', 16)!;
    const down = pinStep(LEEDS, 'ArrowDown', 16)!;
    const right = pinStep(LEEDS, 'ArrowRight', 16)!;
    const left = pinStep(LEEDS, 'ArrowLeft', 16)!;
    expect(up.latitude).toBeGreaterThan(LEEDS.latitude);
    expect(up.longitude).toBe(LEEDS.longitude);
    expect(down.latitude).toBeLessThan(LEEDS.latitude);
    expect(right.longitude).toBeGreaterThan(LEEDS.longitude);
    expect(right.latitude).toBe(LEEDS.latitude);
    expect(left.longitude).toBeLessThan(LEEDS.longitude);
  });

  it('moves the same ground distance every way: about 1.4 m a step at zoom 16 in Leeds, Shift five times that', () => {
    // 10 px at zoom 16: 156,543 m / 2^16 per pixel at the equator, times cos(53.8°).
    const expected = (PIN_STEP_PX * 156_543.034 * Math.cos((LEEDS.latitude * Math.PI) / 180)) / 2 ** 16;
    for (const key of ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']) {
      expect(metres(LEEDS, pinStep(LEEDS, key, 16)!)).toBeCloseTo(expected, 1);
      expect(metres(LEEDS, pinStep(LEEDS, key, 16, true)!)).toBeCloseTo(
        (expected * PIN_STEP_LARGE_PX) / PIN_STEP_PX,
        0,
      );
    }
  });

  it('takes steps twice as long one zoom level further out', () => {
    const near = metres(LEEDS, pinStep(LEEDS, 'ArrowUp', 17)!);
    const far = metres(LEEDS, pinStep(LEEDS, 'ArrowUp', 16)!);
    expect(far / near).toBeCloseTo(2, 3);
  });

  it('keeps the pin on the map: latitude stops at the edge, longitude wraps', () => {
    expect(pinStep({ latitude: 85.05, longitude: 0 }, 'ArrowUp', 2, true)!.latitude).toBe(85.0511);
    expect(pinStep({ latitude: -85.05, longitude: 0 }, 'ArrowDown', 2, true)!.latitude).toBe(-85.0511);
    const east = pinStep({ latitude: 0, longitude: 179.99 }, 'ArrowRight', 3, true)!;
    // 50 px at zoom 3 is about 8.8° of longitude: past 180° it comes round from -180°.
    expect(east.longitude).toBeCloseTo(179.99 + (50 * 360) / (256 * 8) - 360, 6);
    const west = pinStep({ latitude: 0, longitude: -179.99 }, 'ArrowLeft', 3, true)!;
    expect(west.longitude).toBeCloseTo(-179.99 - (50 * 360) / (256 * 8) + 360, 6);
  });

  it('ignores every other key', () => {
    expect(pinStep(LEEDS, 'Enter', 16)).toBeNull();
    expect(pinStep(LEEDS, 'a', 16)).toBeNull();
  });
});
