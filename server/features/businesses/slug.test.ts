import { describe, expect, it } from 'vitest';
import { onboardingSlugSchema } from '../../../shared/schemas/auth';
import { slugCandidate, slugFromName } from './slug';

describe('slug from a business name', () => {
  it('lowercases, drops punctuation and accents, and joins words with single hyphens', () => {
    expect(slugFromName("Bea's Cuts & Co.")).toBe('beas-cuts-co');
    expect(slugFromName('  Café  Zoë -- Spa ')).toBe('cafe-zoe-spa');
    expect(slugFromName('Studio 54')).toBe('studio-54');
  });

  it('pads names shorter than 3 characters and cuts long ones to 29 without a trailing hyphen', () => {
    expect(slugFromName('Jo')).toBe('jo-business');
    expect(slugFromName('!!!')).toBe('business');
    const long = slugFromName('The Extremely Long Name Of A Beauty Salon');
    expect(long).toBe('the-extremely-long-name-of-a');
    expect(long.length).toBeLessThanOrEqual(29);
  });

  it('numbers further choices and keeps them within 29 characters', () => {
    expect(slugCandidate('bea-cuts', 1)).toBe('bea-cuts');
    expect(slugCandidate('bea-cuts', 2)).toBe('bea-cuts-2');
    const base = slugFromName('The Extremely Long Name Of A Beauty Salon');
    expect(slugCandidate(base, 12)).toBe('the-extremely-long-name-of-12');
    for (const n of [1, 2, 99, 1000]) {
      expect(onboardingSlugSchema.safeParse(slugCandidate(base, n)).success).toBe(true);
    }
  });
});
