import { describe, expect, it } from 'vitest';
import { bookingsCalendar, type CalendarBooking } from './ics';

const booking: CalendarBooking = {
  bookingId: '7c9e6679-7425-40de-944b-e07fc1f99ae6',
  status: 'confirmed',
  description: 'Fringe\r\ntrim\u202E',
  date: '2026-12-01',
  startTime: '10:00',
  endTime: '10:30',
  businessName: 'Snip\u2028\u2066Studio',
  address: '1 High St\u202E\nTown',
  customerName: 'Cara\nCustomer',
  updatedAt: new Date('2026-11-21T10:00:00Z'),
  revision: 0,
};

/** The unfolded value of each `name` property line of `ics`. */
function values(ics: string, name: string): string[] {
  return ics
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter((line) => line.startsWith(`${name}:`) || line.startsWith(`${name};`))
    .map((line) => line.slice(line.indexOf(':') + 1));
}

describe('bookingsCalendar', () => {
  it("names the calendar and writes its events' texts on one line, without bidirectional controls", () => {
    for (const view of ['customer', 'business'] as const) {
      const ics = bookingsCalendar({
        name: 'Snip\r\n\u202EStudio bookings (LastSlot)',
        timezone: 'Europe/London',
        view,
        bookings: [booking],
        alarmMinutes: 60,
      });
      expect(values(ics, 'X-WR-CALNAME')).toEqual(['Snip Studio bookings (LastSlot)']);
      expect(values(ics, 'SUMMARY')).toEqual([
        view === 'customer' ? 'Fringe trim at Snip Studio' : 'Fringe trim: Cara Customer',
      ]);
      expect(values(ics, 'LOCATION')).toEqual(['Snip Studio\\, 1 High St Town']);
      // The event's description (a customer's alarm repeats the summary after it).
      expect(values(ics, 'DESCRIPTION')[0]).toBe('Fringe trim at Snip Studio. Booked with LastSlot.');
      expect(ics).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    }
  });

  it('makes escape, vertical tab, next line and C1 controls in stored names one space', () => {
    const ics = bookingsCalendar({
      name: 'Snip\u001b[2J\u000bStudio\u0085bookings\u009b (LastSlot)',
      timezone: 'Europe/London',
      view: 'business',
      bookings: [{ ...booking, description: 'Fringe\u001b[31m', customerName: 'Cara\u0085\u000bCustomer' }],
      alarmMinutes: 60,
    });
    expect(values(ics, 'X-WR-CALNAME')).toEqual(['Snip [2J Studio bookings (LastSlot)']);
    expect(values(ics, 'SUMMARY')).toEqual(['Fringe [31m: Cara Customer']);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/\p{Cc}/u);
  });

  it("writes local times with the zone's VTIMEZONE, and UTC instants for a zone that has none", () => {
    const calendar = (timezone: string) =>
      bookingsCalendar({ name: 'Snip Studio bookings', timezone, view: 'business', bookings: [booking] });
    const london = calendar('Europe/London');
    expect(london).toContain('DTSTART;TZID=Europe/London:20261201T100000');
    expect(values(london, 'TZID')).toEqual(['Europe/London']);
    expect(london).toContain('BEGIN:VTIMEZONE');
    // Aliases and spellings the runtime accepts but the zone database has no VTIMEZONE for.
    for (const [timezone, start, end] of [
      ['Asia/Saigon', '20261201T030000Z', '20261201T033000Z'],
      ['europe/london', '20261201T100000Z', '20261201T103000Z'],
      ['America/Indianapolis', '20261201T150000Z', '20261201T153000Z'],
    ]) {
      const ics = calendar(timezone!);
      expect(ics).not.toContain('TZID');
      expect(values(ics, 'DTSTART')).toEqual([start]);
      expect(values(ics, 'DTEND')).toEqual([end]);
    }
  });
});
