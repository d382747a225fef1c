import { TZDate, tzScan } from '@date-fns/tz';
import { format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { addDaysToDate, isPast, localNow, sameInstantsIn, weekdayOf, zonedInstant } from './zoned-time';

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

  // isPast and localNow take shortcuts where the zone's offset is steady; these compare them with
  // the zoned date they stand for, at instants next to and far from DST changes.
  const zones = [
    'Europe/London',
    'America/New_York',
    'Australia/Lord_Howe', // a 30-minute DST change
    'Pacific/Apia',
    'Africa/Casablanca', // DST suspended for Ramadan: two changes a month apart
    'Asia/Kolkata',
    'America/St_Johns',
    'UTC',
  ];
  /** Instants in 2026: each DST change of `tz`, a few minutes and hours either side, and plain days. */
  function instantsAround(tz: string): Date[] {
    const changes = tzScan(tz, { start: new Date('2026-01-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') });
    const out = [new Date('2026-01-15T12:34:56Z'), new Date('2026-06-30T23:59:59.999Z')];
    for (const { date } of changes) {
      for (const minutes of [-3 * 24 * 60, -61, -1, 0, 1, 59, 23 * 60, 4 * 24 * 60 + 5]) {
        out.push(new Date(date.getTime() + minutes * 60_000));
      }
    }
    return out;
  }

  it('answers "past" as the zoned instant does, next to and far from DST changes', () => {
    const times = ['00:00', '00:30', '01:00', '01:30', '02:00', '02:30', '03:00', '09:15', '12:00', '23:59', '24:00'];
    let compared = 0;
    for (const tz of zones) {
      for (const now of instantsAround(tz)) {
        const today = localNow(tz, now).date;
        for (let day = -4; day <= 4; day++) {
          const date = addDaysToDate(today, day);
          for (const time of [...times, localNow(tz, now).time]) {
            const expected = zonedInstant(date, time, tz).getTime() <= now.getTime();
            if (isPast(date, time, tz, now) !== expected) {
              throw new Error(`isPast(${date}, ${time}, ${tz}, ${now.toISOString()}) should be ${expected}`);
            }
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(5000);
  });

  it('reads the local wall clock as the zoned date does, next to and far from DST changes', () => {
    for (const tz of zones) {
      for (const now of instantsAround(tz)) {
        const zoned = new TZDate(now.getTime(), tz);
        expect(localNow(tz, now)).toEqual({ date: format(zoned, 'yyyy-MM-dd'), time: format(zoned, 'HH:mm') });
      }
    }
  });

  it('treats an unknown zone and unreadable times as the zoned date does (never past)', () => {
    const now = new Date('2026-11-01T10:00:00Z');
    expect(isPast('2026-10-01', '10:00', 'Not/AZone', now)).toBe(false);
    expect(isPast('2026-10-01', 'soon', 'Europe/London', now)).toBe(false);
    expect(isPast('someday', '10:00', 'Europe/London', now)).toBe(false);
  });
});

describe('zonedInstant, remembered', () => {
  it('answers a time asked again with a Date of its own, equal to the first', () => {
    const first = zonedInstant('2026-10-25', '01:30', 'Europe/London');
    first.setTime(0);
    const again = zonedInstant('2026-10-25', '01:30', 'Europe/London');
    expect(again).not.toBe(first);
    expect(again.getTime()).toBe(new TZDate(2026, 9, 25, 1, 30, 'Europe/London').getTime());
    // The same date and time elsewhere is another instant.
    expect(zonedInstant('2026-10-25', '01:30', 'America/New_York').getTime()).toBe(
      new TZDate(2026, 9, 25, 1, 30, 'America/New_York').getTime(),
    );
  });
});

describe('sameInstantsIn', () => {
  const slot = (date: string, startTime: string, endTime: string) => ({ date, startTime, endTime });

  it.each([
    // London is 5 hours ahead of New York, but only 4 in the week both zones' clocks differ in.
    { london: slot('2026-11-27', '09:00', '09:30'), to: 'America/New_York', is: slot('2026-11-27', '04:00', '04:30') },
    { london: slot('2026-10-28', '09:00', '09:30'), to: 'America/New_York', is: slot('2026-10-28', '05:00', '05:30') },
    // The date moves with the instant; an end at the next midnight is 24:00; 45-minute offsets too.
    { london: slot('2026-11-27', '01:00', '02:00'), to: 'America/New_York', is: slot('2026-11-26', '20:00', '21:00') },
    { london: slot('2026-11-27', '14:00', '15:00'), to: 'Asia/Tokyo', is: slot('2026-11-27', '23:00', '24:00') },
    { london: slot('2026-11-27', '09:00', '09:30'), to: 'Asia/Kathmandu', is: slot('2026-11-27', '14:45', '15:15') },
    // A zone with the same wall clock then writes the same times.
    { london: slot('2026-11-27', '09:00', '09:30'), to: 'Europe/Lisbon', is: slot('2026-11-27', '09:00', '09:30') },
  ])(
    'writes the same instants in the other zone, its offset taken at each: $london.date $london.startTime in $to',
    (c) => {
      expect(sameInstantsIn(c.london, 'Europe/London', c.to)).toEqual(c.is);
    },
  );

  it('every answer reads back as the instants it was given', () => {
    for (const [date, start, end] of [
      ['2026-11-01', '05:00', '05:30'],
      ['2026-03-08', '06:30', '08:00'],
      ['2026-10-25', '00:30', '03:00'],
    ] as const) {
      const moved = sameInstantsIn(slot(date, start, end), 'Europe/London', 'America/New_York');
      expect(moved).not.toBeNull();
      expect(zonedInstant(moved!.date, moved!.startTime, 'America/New_York')).toEqual(
        zonedInstant(date, start, 'Europe/London'),
      );
      expect(zonedInstant(moved!.date, moved!.endTime, 'America/New_York')).toEqual(
        zonedInstant(date, end, 'Europe/London'),
      );
    }
  });

  it('is null when the slot would cross midnight there, or fall in the repeated hour of a clock change', () => {
    // 14:30-15:30 in London is 23:30-00:30 in Tokyo.
    expect(sameInstantsIn(slot('2026-11-27', '14:30', '15:30'), 'Europe/London', 'Asia/Tokyo')).toBeNull();
    // New York's clocks go back at 02:00 on 1 November 2026: 06:30 UTC is the second 01:30.
    expect(sameInstantsIn(slot('2026-11-01', '06:30', '07:30'), 'Europe/London', 'America/New_York')).toBeNull();
    // The first 01:30 (05:30 UTC) is the one New York's 01:30 reads as; its end is the second 01:00.
    expect(sameInstantsIn(slot('2026-11-01', '05:30', '06:00'), 'Europe/London', 'America/New_York')).toBeNull();
    expect(sameInstantsIn(slot('2026-11-01', '05:00', '05:30'), 'Europe/London', 'America/New_York')).toEqual(
      slot('2026-11-01', '01:00', '01:30'),
    );
  });
});
