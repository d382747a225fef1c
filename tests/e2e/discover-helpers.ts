/**
 * What the Discover journeys share: businesses placed by their postcode (the background geocoder
 * places them) with slots tomorrow, made through the development accounts API and slots.create, the
 * wait until a search lists them, and the results' locators.
 */
import type { Page } from '@playwright/test';
import { addDaysToDate, localNow } from '../../shared/zoned-time';
import { expect } from './fixtures';
import { ALWAYS_OPEN, newBusiness, signIn, type BusinessAccount } from './helpers';

/** The businesses' own day tomorrow (Europe/London, their default zone). */
export const TOMORROW = addDaysToDate(localNow('Europe/London').date, 1);
export const MANCHESTER = 'Unit 4, Tib Street, M4 1AA';
export const LEEDS = '2 Market Row, Leeds, LS1 6DL';
/** Bristol and Cardiff, about 25 miles apart, where no other journey places a business. */
export const BRISTOL = '1 Broad Quay, Bristol, BS1 4DJ';
export const CARDIFF = '5 Queen Street, Cardiff, CF10 2BU';
/** Open slots tomorrow within 5 miles of Manchester. */
export const SEARCH = '/discover?place=Manchester&window=tomorrow';

/** Calls a tRPC mutation as `page`'s signed-in account. */
export async function mutate(page: Page, path: string, input: unknown) {
  const origin = process.env.E2E_BASE_URL!;
  const response = await page.request.post(`${origin}/trpc/${path}`, { headers: { origin }, data: { json: input } });
  expect(response.status(), `${path} answered: ${await response.text()}`).toBe(200);
}

/** Publishes a slot tomorrow from `start` to `end` ('HH:MM'), as the business signed in on `page`. */
export async function publish(page: Page, description: string, start = '10:00', end = '11:00') {
  await mutate(page, 'slots.create', { date: TOMORROW, startTime: start, endTime: end, description });
}

/** Waits until a search near `place` tomorrow lists the slot described `description` (the geocoder runs every 2 s). */
export async function waitUntilListed(page: Page, description: string, place = 'Manchester', miles = 5) {
  const input = encodeURIComponent(JSON.stringify({ json: { window: 'tomorrow', place, miles, limit: 50 } }));
  await expect
    .poll(
      async () => {
        const body = await (await page.request.get(`/trpc/discovery.search?input=${input}`)).text();
        return body.includes(description);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

/** A business (`newBusiness(tag)`) at `address` with a slot tomorrow described `description`, signed in on `page`. */
export async function listedBusiness(page: Page, tag: string, address: string, description: string) {
  const business: BusinessAccount = newBusiness(tag);
  await signIn(page, business, { profile: { address, schedule: ALWAYS_OPEN, category: 'Barber Shop' } });
  await publish(page, description);
  return business;
}

/** Presses Tab until `target` has the focus (at most `max` times); fails otherwise. */
export async function tabTo(page: Page, target: ReturnType<Page['locator']>, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** The result cards of the Discover list on `page`. */
export const results = (page: Page) => page.getByTestId('discover-result');
