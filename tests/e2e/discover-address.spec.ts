/**
 * A Discover address holding a value the page cannot show (a hand-edited distance, sort or
 * category) is replaced by the address of what the page shows: the server answers a page request
 * for it with a redirect, and a navigation inside the running app lands on the same address
 * (client/features/discover/search-params.ts canonicalDiscoverSearch, docs/product-rules.md).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { startApp } from './helpers';

/** A shared link to slots near central London, 10 miles around. */
const SHARED = '/discover?lat=51.507&lng=-0.128';

/** Each hand-edited parameter, the list box that shows it, and the default it then shows. */
const EDITS: Array<[param: string, label: string, shown: string]> = [
  ['miles=999999', 'Distance', '5'],
  ['sort=sideways', 'Sort by', 'soonest'],
  ['category=Plumber', 'Category', ''],
];

/** The page shows `label` at `shown`, and no refusal of the search. */
async function showsDefault(page: Page, label: string, shown: string) {
  await expect(page).toHaveURL(SHARED);
  await expect(page.getByLabel(label)).toHaveValue(shown);
  await expect(page.getByTestId('discover-summary')).toHaveText(/near|No open slots/, { timeout: 20_000 });
  await expect(page.getByTestId('discover-error')).toHaveCount(0);
}

for (const [param, label, shown] of EDITS) {
  test(`${param}: the server redirects to the address without it, whose page shows ${label} at its default`, async ({
    people: { open, errors },
  }) => {
    const page = await open();
    const answer = await page.request.get(`${SHARED}&${param}`, {
      maxRedirects: 0,
      headers: { accept: 'text/html' },
    });
    expect(answer.status()).toBe(307);
    expect(answer.headers().location).toBe(SHARED);
    await page.goto(`${SHARED}&${param}`);
    await showsDefault(page, label, shown);
    expect(errors).toEqual([]);
  });

  test(`${param}: a navigation inside the app lands on the address without it`, async ({
    people: { open, errors },
  }) => {
    const page = await open();
    await page.goto(SHARED);
    await startApp(page);
    await page.evaluate((to) => {
      const index = ((window.history.state as { __TSR_index?: number } | null)?.__TSR_index ?? 0) + 1;
      const key = Math.random().toString(36).slice(2, 10);
      window.history.pushState({ __TSR_index: index, key, __TSR_key: key }, '', to);
    }, `${SHARED}&${param}`);
    await showsDefault(page, label, shown);
    expect(errors).toEqual([]);
  });
}
