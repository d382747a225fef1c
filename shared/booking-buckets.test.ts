import { describe, expect, it } from 'vitest';
import { customerBucket } from './booking-buckets';
import { slotCategory } from './slot-categories';

const now = new Date('2026-11-21T10:00:00Z');
const tz = 'Europe/London';
const future = { date: '2026-11-21', startTime: '11:00', timezone: tz };
const past = { date: '2026-11-21', startTime: '09:30', timezone: tz };

describe('customer buckets', () => {
  it('keeps upcoming bookings in their own tab', () => {
    expect(customerBucket({ ...future, status: 'confirmed', declinedByBusiness: false }, now)).toEqual({
      bucket: 'confirmed',
      expired: false,
    });
    expect(customerBucket({ ...future, status: 'completed', declinedByBusiness: false }, now).bucket).toBe('confirmed');
    expect(customerBucket({ ...future, status: 'pending', declinedByBusiness: false }, now).bucket).toBe('pending');
    expect(customerBucket({ ...future, status: 'cancelled', declinedByBusiness: true }, now).bucket).toBe('declined');
  });

  it('archives a cancelled request without the declined flag, upcoming or past', () => {
    expect(customerBucket({ ...future, status: 'cancelled', declinedByBusiness: false }, now)).toEqual({
      bucket: 'archive',
      expired: false,
    });
    expect(customerBucket({ ...past, status: 'cancelled', declinedByBusiness: false }, now)).toEqual({
      bucket: 'archive',
      expired: false,
    });
  });

  it('archives past ones and marks a past pending request expired', () => {
    expect(customerBucket({ ...past, status: 'pending', declinedByBusiness: false }, now)).toEqual({
      bucket: 'archive',
      expired: true,
    });
    expect(customerBucket({ ...past, status: 'confirmed', declinedByBusiness: false }, now)).toEqual({
      bucket: 'archive',
      expired: false,
    });
    expect(customerBucket({ ...past, status: 'cancelled', declinedByBusiness: true }, now).bucket).toBe('archive');
  });
});

describe('business slot categories', () => {
  const base = {
    isBooked: false,
    addedToSystem: false,
    customerName: null,
    hasPendingRequest: false,
    hasDeclinedRequest: false,
  };
  it('classifies slots into each category', () => {
    expect(slotCategory({ ...base, ...future }, now).category).toBe('available');
    expect(slotCategory({ ...base, ...future, hasPendingRequest: true }, now).category).toBe('requested');
    expect(slotCategory({ ...base, ...future, isBooked: true, customerName: 'A' }, now).category).toBe('booked');
    expect(slotCategory({ ...base, ...future, hasDeclinedRequest: true }, now).category).toBe('declined');
    expect(slotCategory({ ...base, ...past }, now)).toMatchObject({ category: 'unbooked', unconfirmed: false });
    expect(slotCategory({ ...base, ...past, hasPendingRequest: true }, now)).toMatchObject({
      category: 'unbooked',
      unconfirmed: true,
    });
  });
});
