import { describe, expect, it } from 'vitest';
import { locationSummary } from './location-words';

describe('locationSummary', () => {
  it('names the source and the precision in words', () => {
    expect(locationSummary('address', 'district')).toBe('Placed from your address (postcode district, about 2 miles)');
    expect(locationSummary('address', 'town')).toBe('Placed from your address (town centre, a few miles)');
    expect(locationSummary('address', 'postcode')).toBe('Placed from your address (postcode, within about 100 metres)');
    expect(locationSummary('device', 'exact')).toBe('Placed at your current location (exact)');
    expect(locationSummary('pin', 'exact')).toBe('Placed with the map pin (exact)');
  });
});
