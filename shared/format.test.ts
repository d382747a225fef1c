import { describe, expect, it } from 'vitest';
import { businessTypeLabel } from './categories';
import { MSG } from './messages';
import {
  bookingFailureNotice,
  findUkPostcode,
  formatDate,
  formatTime,
  formatTimeRange,
  hasBusinessIdentity,
  pageTitle,
  shortAddress,
} from './format';

describe('display helpers', () => {
  it("titles a page '{name} | LastSlot' with the name on one line, or 'LastSlot'", () => {
    expect(pageTitle('Demo Hair Studio')).toBe('Demo Hair Studio | LastSlot');
    expect(pageTitle(' Demo\r\nHair\u2028\u202EStudio\u2066 ')).toBe('Demo Hair Studio | LastSlot');
    expect(pageTitle(null)).toBe('LastSlot');
    expect(pageTitle('')).toBe('LastSlot');
    expect(pageTitle('\u202E\r\n')).toBe('LastSlot');
  });

  it('formats dates with an ordinal day', () => {
    expect(formatDate('2026-11-21')).toBe('Saturday, 21st November 2026');
    expect(formatDate('2026-11-02')).toBe('Monday, 2nd November 2026');
    expect(formatDate('2026-11-13')).toBe('Friday, 13th November 2026');
    expect(formatDate('2026-11-23')).toBe('Monday, 23rd November 2026');
    expect(formatDate('')).toBe('Invalid date');
    expect(formatDate('2026-02-30')).toBe('Invalid date');
  });

  it('names every weekday and month as en-GB does', () => {
    const en = (date: Date, part: 'weekday' | 'month') =>
      date.toLocaleDateString('en-GB', { [part]: 'long', timeZone: 'UTC' });
    for (let day = 0; day < 366; day += 3) {
      const date = new Date(Date.UTC(2028, 0, 1 + day));
      const iso = date.toISOString().slice(0, 10);
      const [weekday, rest] = formatDate(iso).split(', ');
      expect(weekday).toBe(en(date, 'weekday'));
      expect(rest!.split(' ')[1]).toBe(en(date, 'month'));
    }
  });

  it('formats times in 12-hour form', () => {
    expect(formatTime('09:30')).toBe('9:30 am');
    expect(formatTime('12:00')).toBe('12:00 pm');
    expect(formatTime('00:15')).toBe('12:15 am');
    expect(formatTime('17:00')).toBe('5:00 pm');
    expect(formatTime(null)).toBe('Time not available');
    expect(formatTime('25:00')).toBe('Invalid time');
    expect(formatTimeRange('09:00', '10:30')).toBe('9:00 am - 10:30 am');
  });

  it('takes the business type label after the separator', () => {
    expect(businessTypeLabel('Hair Services|Barber Shop')).toBe('Barber Shop');
    expect(businessTypeLabel('Hair Salon')).toBe('Hair Salon');
  });
});

describe('shortAddress', () => {
  it('keeps the street, the town and a UK postcode of a long UK address', () => {
    expect(shortAddress('12 High Street, Flat 2, Shoreditch, London, E1 6AN')).toBe('12 High Street, London, E1 6AN');
    expect(shortAddress('Unit 4, 27 Deansgate, Castlefield, Manchester, M3 4LQ, United Kingdom')).toBe(
      '27 Deansgate, Manchester, M3 4LQ',
    );
    expect(shortAddress('Flat 2, 12 High Street, Shoreditch, London, E1 6AN')).toBe('12 High Street, London, E1 6AN');
    expect(shortAddress('Ground Floor, 8 Rose Street, New Town, Edinburgh, eh2 2pr')).toBe(
      '8 Rose Street, Edinburgh, EH2 2PR',
    );
  });

  it('keeps a postcode that shares its part with the town', () => {
    expect(shortAddress('The Old Mill, 4 Canal Side, Hebden Bridge, West Yorkshire HX7 8AD')).toBe(
      'The Old Mill, Hebden Bridge, West Yorkshire HX7 8AD',
    );
    expect(shortAddress('1 Queen Street, Suite 200, City Centre, Cardiff CF10 2BH, UK')).toBe(
      '1 Queen Street, City Centre, Cardiff CF10 2BH',
    );
  });

  it('keeps a postcode right after the street line', () => {
    expect(shortAddress('Flat 9, 5 Mill Lane, SW1A 1AA, London, UK')).toBe('5 Mill Lane, SW1A 1AA');
  });

  it('leaves addresses of three parts or fewer as they are', () => {
    expect(shortAddress('2 Market Row, Leeds, LS1 6DL')).toBe('2 Market Row, Leeds, LS1 6DL');
    expect(shortAddress('  5 High Street ,Bath,  BA1 1AA ')).toBe('5 High Street, Bath, BA1 1AA');
    expect(shortAddress('12 High Street London E1 6AN')).toBe('12 High Street London E1 6AN');
    expect(shortAddress('Dublin')).toBe('Dublin');
    expect(shortAddress('Flat 2, 12 High Street, London')).toBe('Flat 2, 12 High Street, London');
  });

  it('keeps the street and the last two parts of a long non-UK address', () => {
    expect(shortAddress('350 Fifth Avenue, Floor 34, Midtown, New York, NY 10118, USA')).toBe(
      '350 Fifth Avenue, NY 10118, USA',
    );
    expect(shortAddress('Rue de Rivoli 99, 3e étage, 1er arrondissement, 75001 Paris, France')).toBe(
      'Rue de Rivoli 99, 75001 Paris, France',
    );
    expect(shortAddress('Apartment 3, Hauptstraße 5, Mitte, 10115 Berlin, Germany')).toBe(
      'Hauptstraße 5, 10115 Berlin, Germany',
    );
  });

  it('drops empty parts and gives an empty text for no address', () => {
    expect(shortAddress('12 High Street,, , Shoreditch, London, E1 6AN')).toBe('12 High Street, London, E1 6AN');
    expect(shortAddress('')).toBe('');
    expect(shortAddress('   ')).toBe('');
    expect(shortAddress(' , ,')).toBe('');
    expect(shortAddress(null)).toBe('');
    expect(shortAddress(undefined)).toBe('');
  });

  it('never gives more than three parts', () => {
    const samples = [
      'a, b, c, d, e, f, g',
      'Flat 1, Flat 2, Unit 3, Suite 4, 5 Road, Town, AB1 2CD',
      '1 Road, AB1 2CD, Town, CD3 4EF, Country',
    ];
    for (const s of samples) expect(shortAddress(s).split(', ').length).toBeLessThanOrEqual(3);
    expect(shortAddress('1 Road, AB1 2CD, Town, CD3 4EF, Country')).toBe('1 Road, Town, CD3 4EF');
  });

  it('finds UK postcodes in any case and spacing', () => {
    expect(findUkPostcode('London E1 6AN')).toBe('E1 6AN');
    expect(findUkPostcode('sw1a1aa')).toBe('SW1A 1AA');
    expect(findUkPostcode('M1 1AE and W1A 0AX')).toBe('W1A 0AX');
    expect(findUkPostcode('NY 10118')).toBeNull();
    expect(findUkPostcode('75001 Paris')).toBeNull();
  });
});

describe('hasBusinessIdentity', () => {
  it('needs a non-blank id and business name', () => {
    expect(hasBusinessIdentity({ id: 'b1', businessName: 'Studio' })).toBe(true);
    expect(hasBusinessIdentity({ id: 'b1', businessName: '' })).toBe(false);
    expect(hasBusinessIdentity({ id: 'b1', businessName: '   ' })).toBe(false);
    expect(hasBusinessIdentity({ id: '', businessName: 'Studio' })).toBe(false);
    expect(hasBusinessIdentity({ businessName: 'Studio' })).toBe(false);
    expect(hasBusinessIdentity({ id: 'b1', businessName: null })).toBe(false);
    expect(hasBusinessIdentity({ id: 42, businessName: 'Studio' })).toBe(false);
    expect(hasBusinessIdentity(null)).toBe(false);
    expect(hasBusinessIdentity(undefined)).toBe(false);
  });
});

describe('bookingFailureNotice', () => {
  const taken = 'This slot is no longer available. Please choose another time.';

  it("keeps the booking form's own refusals", () => {
    expect(bookingFailureNotice({ code: 'UNAUTHORIZED', httpStatus: 401, message: MSG.loginToBook })).toEqual({
      title: 'Booking failed',
      message: 'Please log in to book an appointment',
    });
    expect(bookingFailureNotice({ code: 'UNAUTHORIZED', httpStatus: 401, message: 'anything' }).message).toBe(
      MSG.loginToBook,
    );
    expect(bookingFailureNotice({ code: 'FORBIDDEN', httpStatus: 403, message: MSG.verifyToBook }).message).toBe(
      'Please verify your email before making bookings',
    );
    expect(bookingFailureNotice({ code: 'CONFLICT', httpStatus: 409, message: taken }).message).toBe(taken);
    expect(
      bookingFailureNotice({ code: 'NOT_FOUND', httpStatus: 404, message: 'This slot no longer exists.' }),
    ).toEqual({ title: 'Booking failed', message: 'This slot no longer exists.' });
  });

  it('says only "Could not submit your booking request" for anything unexpected', () => {
    const generic = { title: 'Booking failed', message: 'Could not submit your booking request. Please try again.' };
    expect(bookingFailureNotice({ code: 'INTERNAL_SERVER_ERROR', httpStatus: 500, message: 'relation x' })).toEqual(
      generic,
    );
    expect(bookingFailureNotice({ message: MSG.connection })).toEqual(generic);
    expect(bookingFailureNotice({ code: 'BAD_REQUEST', httpStatus: 400, message: 'Too long' })).toEqual(generic);
    expect(bookingFailureNotice({ code: 'TOO_MANY_REQUESTS', httpStatus: 429, message: MSG.tooManyAttempts })).toEqual(
      generic,
    );
    expect(bookingFailureNotice({ code: 'CONFLICT', httpStatus: 409, message: '' })).toEqual(generic);
    expect(bookingFailureNotice({})).toEqual(generic);
  });
});
