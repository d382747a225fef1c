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

  it("reads the client link's exact bytes as the query parser does", () => {
    const link = (slug: string) => `/trpc/businesses.bySlug?batch=1&input=${q({ 0: { json: { slug } } })}`;
    for (const slug of ['abc', 'demo-salon', 'Bench-00001', 'a'.repeat(50)]) {
      expect(lonePublicPageCall(link(slug))).toEqual({ slug, batch: true });
    }
    for (const url of [link('ab'), link('a'.repeat(51)), link('demo salon')]) {
      expect(lonePublicPageCall(url), decodeURIComponent(url)).toBeNull();
    }
    // More after the input: the query parser reads it, taking the first of each key as tRPC does.
    for (const url of [
      `${link('demo-salon')}&input=${q({ 0: { json: { slug: 'x"}}}' } } })}`,
      `${link('demo-salon')}&batch=0`,
    ]) {
      expect(lonePublicPageCall(url), decodeURIComponent(url)).toEqual({ slug: 'demo-salon', batch: true });
    }
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
