/**
 * Calendar files read back as an independent iCalendar client reads them (ical.js), for the tests
 * of calendars (docs/decisions/0052, 0078).
 */
import ICAL from 'ical.js';

/**
 * A DATE-TIME property of `event` as an ISO instant when it is written in UTC (a trailing Z), or
 * 'not UTC: {value}' when it is local or floating.
 */
function utcInstant(event: ICAL.Component, name: string): string | null {
  const value = event.getFirstPropertyValue(name);
  if (!(value instanceof ICAL.Time)) return null;
  return value.zone === ICAL.Timezone.utcTimezone ? value.toJSDate().toISOString() : `not UTC: ${value.toString()}`;
}

/** The VEVENTs of an .ics text, with the VTIMEZONEs it carries registered first. */
export function parseEvents(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  for (const tz of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  return calendar.getAllSubcomponents('vevent').map((v) => {
    const event = new ICAL.Event(v);
    return {
      uid: event.uid,
      sequence: event.sequence,
      status: v.getFirstPropertyValue('status'),
      summary: event.summary,
      tzid: event.startDate.zone?.tzid,
      localStart: event.startDate.toString(),
      utcStart: event.startDate.toJSDate().toISOString(),
      utcEnd: event.endDate.toJSDate().toISOString(),
      alarm: v.getFirstSubcomponent('valarm')?.getFirstPropertyValue('trigger')?.toString() ?? null,
      stamp: utcInstant(v, 'dtstamp'),
      lastModified: utcInstant(v, 'last-modified'),
    };
  });
}
