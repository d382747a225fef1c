import { describe, expect, it } from 'vitest';
import { lonePublicPageCall } from './public-page-http';

const q = (input: unknown) => encodeURIComponent(JSON.stringify(input));

describe('lonePublicPageCall', () => {
  it("reads the client link's batch of one and the unbatched form", () => {
    expect(
      lonePublicPageCall(`/trpc/businesses.bySlug?batch=1&input=${q({ 0: { json: { slug: 'demo-salon' } } })}`),
    ).toEqual({
      slug: 'demo-salon',
      batch: true,
    });
    expect(lonePublicPageCall(`/trpc/businesses.bySlug?input=${q({ json: { slug: 'Demo-Salon' } })}`)).toEqual({
      slug: 'Demo-Salon',
      batch: false,
    });
  });

  it('leaves everything else to tRPC', () => {
    for (const url of [
      `/trpc/auth.me,businesses.bySlug?batch=1&input=${q({ 0: { json: null }, 1: { json: { slug: 'demo-salon' } } })}`,
      `/trpc/businesses.bySlug?batch=1&input=${q({ 0: { json: { slug: 'a' } }, 1: { json: { slug: 'b' } } })}`,
      `/trpc/businesses.bySlug?batch=1&input=${q({ json: { slug: 'demo-salon' } })}`,
      `/trpc/businesses.bySlug?input=${q({ json: { slug: 'demo-salon' }, meta: {} })}`,
      `/trpc/businesses.bySlug?input=${q({ json: { slug: ' demo-salon ' } })}`,
      `/trpc/businesses.bySlug?input=${q({ json: { slug: 'demo\nsalon' } })}`,
      `/trpc/businesses.bySlug?input=${q({ json: { slug: 42 } })}`,
      `/trpc/businesses.bySlug?input=${q({ json: { slug: 'demo-salon', extra: 1 } })}`,
      '/trpc/businesses.bySlug?input=%7Bnot-json',
      '/trpc/businesses.bySlug',
      `/trpc/businesses.mine?input=${q({ json: { slug: 'demo-salon' } })}`,
    ]) {
      expect(lonePublicPageCall(url), decodeURIComponent(url)).toBeNull();
    }
  });
});
