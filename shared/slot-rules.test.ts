import { describe, expect, it } from 'vitest';
import type { OpeningHours } from './opening-hours';
import { dateChoices, endTimeChoices, startTimeChoices } from './slot-rules';

const WEEKDAYS_9_5: OpeningHours = {
  monday: { open: '09:00', close: '17:00' },
  tuesday: { open: '09:00', close: '17:00' },
  wednesday: { open: '09:00', close: '17:00' },
  thursday: { open: '09:00', close: '17:00' },
  friday: { open: '09:00', close: '17:00' },
};
const tz = 'Europe/London';

describe('slot form choices', () => {
  it('offers half-hour starts from the next half hour today up to 30 minutes before closing', () => {
    const now = new Date('2026-11-20T15:10:00Z'); // Friday 15:10 in London
    expect(startTimeChoices('2026-11-20', WEEKDAYS_9_5, tz, now)).toEqual(['15:30', '16:00', '16:30']);
    expect(startTimeChoices('2026-11-23', WEEKDAYS_9_5, tz, now)[0]).toBe('09:00');
    expect(startTimeChoices('2026-11-23', WEEKDAYS_9_5, tz, now).at(-1)).toBe('16:30');
  });

  it('treats exactly-on-the-half-hour now as started: the next choice is the following half hour', () => {
    const now = new Date('2026-11-20T10:00:00Z');
    expect(startTimeChoices('2026-11-20', WEEKDAYS_9_5, tz, now)[0]).toBe('10:30');
  });

  it('offers ends from start + 30 minutes to closing, 17:00 when the day has no hours', () => {
    expect(endTimeChoices('2026-11-23', '15:30', WEEKDAYS_9_5)).toEqual(['16:00', '16:30', '17:00']);
    expect(endTimeChoices('2026-11-23', '16:00', null)).toEqual(['16:30', '17:00']);
  });

  it('uses 09:00-17:00 when no hours are known', () => {
    const now = new Date('2026-11-21T06:00:00Z');
    for (const unknown of [null, undefined]) {
      const starts = startTimeChoices('2026-11-21', unknown, tz, now);
      expect([starts[0], starts.at(-1)]).toEqual(['09:00', '16:30']);
    }
  });

  it('offers no dates when every day is switched off', () => {
    const now = new Date('2026-11-21T06:00:00Z');
    expect(startTimeChoices('2026-11-21', {}, tz, now)).toEqual([]);
    expect(dateChoices({}, tz, now)).toEqual([]);
  });

  it('starts the 4 dates today, or tomorrow once nothing is left today, leaving closed days out', () => {
    expect(dateChoices(WEEKDAYS_9_5, tz, new Date('2026-11-17T10:00:00Z'))).toEqual([
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
    ]);
    // Tuesday 16:40: the last start (16:30) has gone, so tomorrow first.
    expect(dateChoices(WEEKDAYS_9_5, tz, new Date('2026-11-17T16:40:00Z'))[0]).toBe('2026-11-18');
    // Friday evening: the window is Sat-Tue; Sat and Sun are closed.
    expect(dateChoices(WEEKDAYS_9_5, tz, new Date('2026-11-20T18:00:00Z'))).toEqual(['2026-11-23', '2026-11-24']);
  });

  it('is empty when the business is closed for the whole window', () => {
    expect(dateChoices({ monday: { open: '09:00', close: '17:00' } }, tz, new Date('2026-11-17T10:00:00Z'))).toEqual(
      [],
    );
  });

  it('computes "today" in the business zone, not UTC', () => {
    // 23:30 UTC on Monday is already Tuesday 08:30 in Tokyo.
    const now = new Date('2026-11-16T23:30:00Z');
    expect(dateChoices(WEEKDAYS_9_5, 'Asia/Tokyo', now)[0]).toBe('2026-11-17');
    expect(startTimeChoices('2026-11-17', WEEKDAYS_9_5, 'Asia/Tokyo', now)[0]).toBe('09:00');
  });
});

describe('slot form choices when the clocks change (London)', () => {
  const ALL_WEEK_9_6: OpeningHours = Object.fromEntries(
    (['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const).map((d) => [
      d,
      { open: '09:00', close: '18:00' },
    ]),
  );

  it('reads "now" in BST on the morning of the spring change (29 March 2026)', () => {
    // 09:10 UTC is 10:10 BST: the next half hour is 10:30 (09:30 if read in UTC/GMT).
    const now = new Date('2026-03-29T09:10:00Z');
    expect(startTimeChoices('2026-03-29', ALL_WEEK_9_6, tz, now)[0]).toBe('10:30');
    expect(dateChoices(ALL_WEEK_9_6, tz, now)).toEqual(['2026-03-29', '2026-03-30', '2026-03-31', '2026-04-01']);
  });

  it('reads "now" in GMT on the morning of the autumn change (25 October 2026)', () => {
    // 09:10 UTC is 09:10 GMT: the next half hour is 09:30 (10:30 if the BST offset were kept).
    const now = new Date('2026-10-25T09:10:00Z');
    expect(startTimeChoices('2026-10-25', ALL_WEEK_9_6, tz, now)[0]).toBe('09:30');
  });

  it('starts the window on the local date when UTC is still on the day before', () => {
    // 23:30 UTC on 24 October is 00:30 BST on the 25th: today's first start is 09:00 on the 25th.
    const now = new Date('2026-10-24T23:30:00Z');
    expect(dateChoices(ALL_WEEK_9_6, tz, now)[0]).toBe('2026-10-25');
    expect(startTimeChoices('2026-10-25', ALL_WEEK_9_6, tz, now)[0]).toBe('09:00');
    expect(startTimeChoices('2026-10-24', ALL_WEEK_9_6, tz, now)).toEqual([]);
  });
});
