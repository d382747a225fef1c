/**
 * Discover (/discover): open slots near a typed town or the device's position, rendered on the
 * server and live in the browser. The suite's server has no demo data: each journey makes its own
 * businesses (in Manchester by their postcode, one in Leeds) with slots tomorrow, through the
 * development accounts API and slots.create, and waits for the background geocoder to place them.
 */
import { MSG } from '../../shared/messages';
import {
  LEEDS,
  listedBusiness,
  MANCHESTER,
  publish,
  results,
  SEARCH,
  tabTo,
  waitUntilListed,
} from './discover-helpers';
import { expect, test } from './fixtures';
import { newCustomer, signIn, startApp } from './helpers';

const tag = `d${Date.now().toString(36)}`;
/** How soon a live change must show on an open list (ms), with room for a busy test machine. */
const LIVE_MS = 4_000;

test('a typed town shows the open slots near it, rendered on the server', async ({ people: { open, errors } }) => {
  const biz = await open();
  const near = `Skin fade ${tag}`;
  const far = `Leeds trim ${tag}`;
  const business = await listedBusiness(biz, `${tag}m`, MANCHESTER, near);
  const leeds = await open();
  await listedBusiness(leeds, `${tag}l`, LEEDS, far);
  await waitUntilListed(biz, near);
  await waitUntilListed(leeds, far, 'Leeds');

  // The server's HTML already holds the results.
  const html = await (await biz.request.get(SEARCH)).text();
  expect(html).toContain(business.businessName);
  expect(html).toContain('<title>Discover | LastSlot</title>');

  const page = await open();
  await page.goto('/discover');
  await expect(page.getByText(MSG.discoverStart)).toBeVisible();
  await page.getByLabel('Town or postcode').fill('Manchester');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/place=Manchester/);
  await page.getByText('Tomorrow', { exact: true }).click();
  await expect(page).toHaveURL(/window=tomorrow/);
  const result = results(page).filter({ hasText: near });
  await expect(result).toBeVisible();
  await expect(result.getByRole('link', { name: business.businessName })).toHaveAttribute('href', `/${business.slug}`);
  await expect(result).toContainText('Barber Shop');
  await expect(result).toContainText(/\d+(\.\d)? miles?|Under 0\.1 miles/);
  await expect(result).toContainText('10:00 am - 11:00 am');
  // Leeds is farther than 25 miles away.
  await expect(results(page).filter({ hasText: far })).toHaveCount(0);
  await page.getByLabel('Distance').selectOption('25');
  await expect(page).toHaveURL(/miles=25/);
  await expect(results(page).filter({ hasText: far })).toHaveCount(0);
  await page.getByLabel('Category').selectOption('Nails');
  await expect(page.getByText(MSG.discoverNoResults)).toBeVisible();
  await page.getByLabel('Category').selectOption('Hair Services');
  await expect(result).toBeVisible();

  // A visitor is asked to sign in; a business user sees no request button.
  await result.getByRole('button', { name: 'Login or Sign Up to Request' }).click();
  await expect(page.getByRole('dialog').getByText(MSG.loginToBook)).toBeVisible();
  await page.keyboard.press('Escape');
  await biz.goto(SEARCH);
  await expect(results(biz).filter({ hasText: near })).toBeVisible();
  await expect(results(biz).getByRole('button')).toHaveCount(0);

  // The place is remembered on this device: /discover alone searches it again.
  await page.goto('/discover');
  await startApp(page);
  await expect(page.getByLabel('Town or postcode')).toHaveValue('Manchester');
  await expect(page).toHaveURL(/place=Manchester/);

  // A place the search does not know is answered in words.
  await page.getByLabel('Town or postcode').fill('Nowhereville Xq');
  await page.keyboard.press('Enter');
  await expect(page.getByText(MSG.placeNotFound)).toBeVisible();
  expect(errors).toEqual([]);
});

test('Use my location searches around the device, rounded to about 100 m', async ({ people: { open, errors } }) => {
  const biz = await open();
  const description = `Beard trim ${tag}`;
  await listedBusiness(biz, `${tag}g`, MANCHESTER, description);
  await waitUntilListed(biz, description);

  const page = await open({
    context: { geolocation: { latitude: 53.484349, longitude: -2.236631 }, permissions: ['geolocation'] },
  });
  await page.goto('/discover?window=tomorrow');
  await startApp(page);
  const sent = page.waitForRequest((r) => r.url().includes('/trpc/discovery.search'));
  await page.getByRole('button', { name: 'Use my location' }).click();
  const url = new URL((await sent).url());
  const input = JSON.parse(url.searchParams.get('input')!) as Record<string, { json: Record<string, unknown> }>;
  const first = input['0'] ?? (input as unknown as { json: Record<string, unknown> });
  expect(first.json).toMatchObject({ latitude: 53.484, longitude: -2.237 });
  await expect(page).toHaveURL(/lat=53\.484&lng=-2\.237/);
  await expect(results(page).filter({ hasText: description })).toBeVisible();
  await expect(page.getByTestId('discover-summary')).toContainText('near your location');
  expect(errors).toEqual([]);
});

test('a refused location says so and leads to the place field', async ({ people: { open, errors } }) => {
  const page = await open();
  await page.goto('/discover');
  await startApp(page);
  await page.getByRole('button', { name: 'Use my location' }).click();
  await expect(page.getByTestId('location-error')).toHaveText(MSG.locationDenied);
  await expect(page.getByLabel('Town or postcode')).toBeFocused();
  expect(errors).toEqual([]);
});

test('the list is live: a requested slot leaves it, a new one appears', async ({ people: { open, errors } }) => {
  const biz = await open();
  const taken = `Wet shave ${tag}`;
  await listedBusiness(biz, `${tag}v`, MANCHESTER, taken);
  await waitUntilListed(biz, taken);

  const watcher = await open();
  const subscribed = watcher.waitForRequest((r) => r.url().includes('/trpc/discovery.onChange'));
  await watcher.goto(SEARCH);
  await expect(results(watcher).filter({ hasText: taken })).toBeVisible();
  // The app, which keeps the list live, comes at the watcher's first interaction.
  await startApp(watcher);
  await subscribed;

  const customer = await open();
  await signIn(customer, newCustomer(`${tag}v`));
  await customer.goto(SEARCH);
  const row = results(customer).filter({ hasText: taken });
  await startApp(customer);
  await row.getByRole('button', { name: /^Request/ }).click();
  const dialog = customer.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Send Request' }).click();
  await expect(customer.getByText(MSG.bookingRequested).first()).toBeVisible();
  await expect(results(customer).filter({ hasText: taken })).toHaveCount(0);
  await expect(results(watcher).filter({ hasText: taken })).toHaveCount(0, { timeout: LIVE_MS });

  const fresh = `Hot towel ${tag}`;
  await publish(biz, fresh, '12:00', '12:30');
  await expect(results(watcher).filter({ hasText: fresh })).toBeVisible({ timeout: LIVE_MS });
  expect(errors).toEqual([]);
});

test('keyboard only: search, choose a time and reach a result', async ({ people: { open, errors } }) => {
  const biz = await open();
  const description = `Buzz cut ${tag}`;
  await listedBusiness(biz, `${tag}k`, MANCHESTER, description);
  await waitUntilListed(biz, description);

  const page = await open();
  await page.goto('/discover');
  await startApp(page);
  const place = page.getByLabel('Town or postcode');
  await tabTo(page, place);
  await page.keyboard.type('Manchester');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/place=Manchester/);
  const tomorrow = page.getByRole('radio', { name: 'Tomorrow' });
  await tabTo(page, tomorrow);
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/window=tomorrow/);
  const button = results(page)
    .filter({ hasText: description })
    .getByRole('button', { name: 'Login or Sign Up to Request' });
  await tabTo(page, button, 80);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByText(MSG.loginToBook)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(errors).toEqual([]);
});
