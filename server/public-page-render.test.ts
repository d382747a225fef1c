import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicPagePreload, PublicPageRenderer } from '../shared/public-page-preload';
import type { PublicPage } from './features/businesses/businesses.service';
import { RenderedPublicPages } from './public-page-render';

/** A renderer that counts its renders and fails while `failing` is set. */
function fakeRenderer() {
  const calls: string[] = [];
  let failing = false;
  const renderer: PublicPageRenderer = {
    consentCookieName: 'cookiePreferences',
    consentChosen: (raw) => raw === 'chosen',
    renderPublicPage(preload, consentCookie) {
      const markup = `${preload.slug}:${preload.favourites?.count}:${consentCookie ?? '-'}`;
      calls.push(markup);
      return failing ? Promise.reject(new Error('render failed')) : Promise.resolve(markup);
    },
    renderLandingPage(consentCookie) {
      const markup = `landing:${consentCookie ?? '-'}`;
      calls.push(markup);
      return failing ? Promise.reject(new Error('render failed')) : Promise.resolve(markup);
    },
  };
  return { renderer, calls, fail: (on: boolean) => (failing = on) };
}

const page = () => ({ business: {}, slots: [] }) as unknown as PublicPage;
const preload = (count: number): PublicPagePreload => ({
  slug: 'cuts',
  data: { json: null },
  favourites: { count, favourited: false },
});

describe('RenderedPublicPages', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('renders once per page answer, favourite count and banner state', async () => {
    const { renderer, calls } = fakeRenderer();
    const pages = new RenderedPublicPages(renderer);
    const first = page();
    expect(await pages.markup(first, preload(1), undefined)).toBe('cuts:1:-');
    expect(await pages.markup(first, preload(1), 'nonsense')).toBe('cuts:1:-'); // no choice: the same banner
    expect(await pages.markup(first, preload(1), 'chosen')).toBe('cuts:1:chosen');
    expect(await pages.markup(first, preload(2), undefined)).toBe('cuts:2:-');
    // A changed page is a new answer object: rendered again.
    expect(await pages.markup(page(), preload(1), undefined)).toBe('cuts:1:-');
    expect(calls).toEqual(['cuts:1:-', 'cuts:1:chosen', 'cuts:2:-', 'cuts:1:-']);
  });

  it('does not keep a failed render', async () => {
    const { renderer, calls, fail } = fakeRenderer();
    const pages = new RenderedPublicPages(renderer);
    const answer = page();
    fail(true);
    await expect(pages.markup(answer, preload(0), undefined)).rejects.toThrow('render failed');
    fail(false);
    expect(await pages.markup(answer, preload(0), undefined)).toBe('cuts:0:-');
    expect(calls).toHaveLength(2);
  });

  it('renders the landing page once per banner state, and again after a failed render', async () => {
    const { renderer, calls, fail } = fakeRenderer();
    const pages = new RenderedPublicPages(renderer);
    fail(true);
    await expect(pages.landing(undefined)).rejects.toThrow('render failed');
    fail(false);
    expect(await pages.landing(undefined)).toBe('landing:-');
    expect(await pages.landing('nonsense')).toBe('landing:-');
    expect(await pages.landing('chosen')).toBe('landing:chosen');
    expect(await pages.landing('chosen')).toBe('landing:chosen');
    expect(calls).toEqual(['landing:-', 'landing:-', 'landing:chosen']);
  });

  it('renders both pages again in a new year (the footer shows the year)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 11, 31, 23, 59));
    const { renderer, calls } = fakeRenderer();
    const pages = new RenderedPublicPages(renderer);
    const answer = page();
    await pages.landing(undefined);
    await pages.markup(answer, preload(1), undefined);
    await pages.landing(undefined);
    await pages.markup(answer, preload(1), undefined);
    expect(calls).toHaveLength(2);
    vi.setSystemTime(new Date(2027, 0, 1, 0, 1));
    await pages.landing(undefined);
    await pages.markup(answer, preload(1), undefined);
    expect(calls).toEqual(['landing:-', 'cuts:1:-', 'landing:-', 'cuts:1:-']);
  });

  it('reads the consent cookie by the name the render gives', () => {
    const pages = new RenderedPublicPages(fakeRenderer().renderer);
    expect(pages.consentCookie({ cookiePreferences: 'x', other: 'y' })).toBe('x');
    expect(pages.consentCookie({})).toBeUndefined();
  });
});
