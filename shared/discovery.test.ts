import { describe, expect, it } from 'vitest';
import { categoryLabels, nearestRings, windowRange } from './discovery';

describe('windowRange', () => {
  const now = new Date('2026-11-21T10:15:00Z');

  it('runs 1, 2 or 4 hours from now', () => {
    expect(windowRange('1h', 'Europe/London', now)).toEqual({ from: now, to: new Date('2026-11-21T11:15:00Z') });
    expect(windowRange('4h', 'Asia/Tokyo', now).to).toEqual(new Date('2026-11-21T14:15:00Z'));
  });

  it("reads 'today' and 'tomorrow' in the customer's zone", () => {
    expect(windowRange('today', 'Europe/London', now)).toEqual({ from: now, to: new Date('2026-11-22T00:00:00Z') });
    // 10:15 UTC is 19:15 in Tokyo: its today ends at 15:00 UTC.
    expect(windowRange('today', 'Asia/Tokyo', now).to).toEqual(new Date('2026-11-21T15:00:00Z'));
    expect(windowRange('tomorrow', 'America/New_York', now)).toEqual({
      from: new Date('2026-11-22T05:00:00Z'),
      to: new Date('2026-11-23T05:00:00Z'),
    });
  });

  it('gives a day across a DST change its 23 or 25 hours', () => {
    // London springs forward on Sunday 29 March 2026 and falls back on Sunday 25 October 2026.
    const spring = windowRange('tomorrow', 'Europe/London', new Date('2026-03-28T12:00:00Z'));
    expect(spring).toEqual({ from: new Date('2026-03-29T00:00:00Z'), to: new Date('2026-03-29T23:00:00Z') });
    const autumn = windowRange('tomorrow', 'Europe/London', new Date('2026-10-24T12:00:00Z'));
    expect(autumn).toEqual({ from: new Date('2026-10-24T23:00:00Z'), to: new Date('2026-10-26T00:00:00Z') });
  });
});

describe('categoryLabels', () => {
  it('covers a parent group with all its children, a child alone, nothing else', () => {
    expect(categoryLabels('Nails')).toEqual(['Nail Salon', 'Manicurist / Pedicurist']);
    expect(categoryLabels('Barber Shop')).toEqual(['Barber Shop']);
    expect(categoryLabels('Plumber')).toBeNull();
    expect(categoryLabels('')).toBeNull();
  });
});

describe('nearestRings', () => {
  const hours = (h: number) => h * 60 * 60 * 1000;

  it('tries each offered distance below the search distance that reaches past the last page, then the distance', () => {
    expect(nearestRings(25, 0, hours(2), true)).toEqual([1, 2, 5, 10, 25]);
    expect(nearestRings(5, 0, hours(1), true)).toEqual([1, 2, 5]);
    expect(nearestRings(1, 0, hours(4), true)).toEqual([1]);
    expect(nearestRings(25, 3.2, hours(2), true)).toEqual([5, 10, 25]);
    expect(nearestRings(10, 10, hours(2), true)).toEqual([10]);
  });

  it('tries a quarter and half a mile first for every category over a window longer than 4 hours, unless the last page reached past them', () => {
    expect(nearestRings(10, 0, hours(4) + 1, true)).toEqual([0.25, 0.5, 1, 2, 5, 10]);
    expect(nearestRings(1, 0, hours(24), true)).toEqual([0.25, 0.5, 1]);
    expect(nearestRings(10, 0.3, hours(24), true)).toEqual([0.5, 1, 2, 5, 10]);
    expect(nearestRings(10, 0.7, hours(24), true)).toEqual([1, 2, 5, 10]);
    expect(nearestRings(10, 0, hours(24), false)).toEqual([1, 2, 5, 10]);
  });
});
