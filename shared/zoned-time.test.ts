import { describe, expect, it } from 'vitest';
import { addDaysToDate, isPast, localNow, weekdayOf, zonedInstant } from './zoned-time';

describe('zoned time', () => {
  it('reads the local date and time in the business zone, not the server zone', () => {
    const now = new Date('2026-07-01T23:30:00Z');
    expect(localNow('Europe/London', now)).toEqual({ date: '2026-07-02', time: '00:30' }); // BST
    expect(localNow('America/New_York', now)).toEqual({ date: '2026-07-01', time: '19:30' });
    expect(localNow('Europe/London', new Date('2026-12-01T23:30:00Z'))).toEqual({ date: '2026-12-01', time: '23:30' }); // GMT
  });

  it('maps wall-clock times to instants across the autumn DST change (London, 25 Oct 2026)', () => {
    expect(zonedInstant('2026-10-24', '09:00', 'Europe/London').toISOString()).toBe('2026-10-24T08:00:00.000Z');
    expect(zonedInstant('2026-10-25', '09:00', 'Europe/London').toISOString()).toBe('2026-10-25T09:00:00.000Z');
  });

  it('maps across the spring DST change (London, 29 Mar 2026), a missing hour resolving forward', () => {
    expect(zonedInstant('2026-03-28', '10:00', 'Europe/London').toISOString()).toBe('2026-03-28T10:00:00.000Z');
    expect(zonedInstant('2026-03-29', '10:00', 'Europe/London').toISOString()).toBe('2026-03-29T09:00:00.000Z');
    expect(zonedInstant('2026-03-29', '01:30', 'Europe/London').getTime()).toBeGreaterThanOrEqual(
      new Date('2026-03-29T01:00:00Z').getTime(),
    );
  });

  it('decides "past" by the business zone around a DST change', () => {
    // 08:30 UTC on the morning after the clocks went back is 08:30 in London: 09:00 is still ahead.
    const now = new Date('2026-10-25T08:30:00Z');
    expect(isPast('2026-10-25', '09:00', 'Europe/London', now)).toBe(false);
    expect(isPast('2026-10-25', '08:30', 'Europe/London', now)).toBe(true);
    // The same instant is already 09:30 in Paris (CET).
    expect(isPast('2026-10-25', '09:00', 'Europe/Paris', now)).toBe(true);
  });

  it('does calendar arithmetic without zone drift', () => {
    expect(addDaysToDate('2026-10-24', 1)).toBe('2026-10-25');
    expect(addDaysToDate('2026-10-25', 1)).toBe('2026-10-26');
    expect(addDaysToDate('2026-12-31', 1)).toBe('2027-01-01');
    expect(weekdayOf('2026-11-21')).toBe('saturday');
  });
});
