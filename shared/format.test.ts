import { describe, expect, it } from 'vitest';
import { businessTypeLabel } from './categories';
import { formatDate, formatTime, formatTimeRange } from './format';

describe('display helpers', () => {
  it('formats dates with an ordinal day', () => {
    expect(formatDate('2026-11-21')).toBe('Saturday, 21st November 2026');
    expect(formatDate('2026-11-02')).toBe('Monday, 2nd November 2026');
    expect(formatDate('2026-11-13')).toBe('Friday, 13th November 2026');
    expect(formatDate('2026-11-23')).toBe('Monday, 23rd November 2026');
    expect(formatDate('')).toBe('Invalid date');
    expect(formatDate('2026-02-30')).toBe('Invalid date');
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
