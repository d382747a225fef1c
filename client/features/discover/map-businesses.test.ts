import { describe, expect, it } from 'vitest';
import { businessesOf } from './map-businesses';
import type { DiscoverResult } from './result-card';

/** A result of business `businessId` (named after it), slot `slotId`, at `latitude`, -2.2. */
function result(slotId: string, businessId: string, latitude = 53.48): DiscoverResult {
  return {
    slotId,
    businessId,
    businessName: `Business ${businessId}`,
    slug: `business-${businessId}`,
    category: 'Barber Shop',
    distanceMiles: 0.5,
    date: '2026-11-27',
    startTime: '10:00',
    endTime: '11:00',
    timezone: 'Europe/London',
    startsAt: new Date('2026-11-27T10:00:00Z'),
    description: 'Cut',
    latitude,
    longitude: -2.2,
  };
}

describe('businessesOf (the pins of the Discover map)', () => {
  it('gives one pin per business, in the order of its first slot, counting its slots', () => {
    const pins = businessesOf([result('s1', 'b', 53.1), result('s2', 'a', 53.2), result('s3', 'b', 53.1)]);
    expect(pins).toEqual([
      {
        businessId: 'b',
        businessName: 'Business b',
        slug: 'business-b',
        latitude: 53.1,
        longitude: -2.2,
        slotCount: 2,
      },
      {
        businessId: 'a',
        businessName: 'Business a',
        slug: 'business-a',
        latitude: 53.2,
        longitude: -2.2,
        slotCount: 1,
      },
    ]);
  });

  it('gives no pins for no results', () => {
    expect(businessesOf([])).toEqual([]);
  });
});
