import { describe, expect, it } from 'vitest';
import { classifySlugPath, isReservedSlug, PUBLIC_SLUG_PATTERN } from './reserved-slugs';
import { SLUG_PATTERN } from './schemas/settings';

describe('classifySlugPath (ADR 0020)', () => {
  it('treats valid slugs and reserved words as business pages', () => {
    expect(classifySlugPath('demo-salon')).toEqual({ kind: 'slug', slug: 'demo-salon' });
    expect(classifySlugPath('abc')).toEqual({ kind: 'slug', slug: 'abc' });
    expect(classifySlugPath('a'.repeat(50))).toEqual({ kind: 'slug', slug: 'a'.repeat(50) });
    expect(classifySlugPath('123-')).toEqual({ kind: 'slug', slug: '123-' });
    expect(classifySlugPath('admin')).toEqual({ kind: 'slug', slug: 'admin' });
    expect(classifySlugPath('favicon.ico')).toEqual({ kind: 'slug', slug: 'favicon.ico' });
  });

  it('sends a slug written with capitals to its lower-case address', () => {
    expect(classifySlugPath('Demo-Salon')).toEqual({ kind: 'redirect', to: 'demo-salon' });
    expect(classifySlugPath('ADMIN')).toEqual({ kind: 'redirect', to: 'admin' });
  });

  it('gives the 404 page for what a slug cannot be', () => {
    for (const s of ['ab', 'a'.repeat(51), 'demo_salon', 'demo salon', 'demo.salon', 'café', 'demo!', '', 'a/b'])
      expect(classifySlugPath(s)).toEqual({ kind: 'not-found' });
  });

  it('uses the settings slug pattern', () => {
    expect(PUBLIC_SLUG_PATTERN.source).toBe(SLUG_PATTERN.source);
    expect(isReservedSlug('Dashboard')).toBe(true);
  });
});
