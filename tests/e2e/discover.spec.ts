/**
 * Discover (/discover): open slots near a typed town or the device's position, rendered on the
 * server and live in the browser. The suite's server has no demo data: each journey makes its own
 * businesses (in Manchester by their postcode, one in Leeds) with slots tomorrow, through the
 * development accounts API and slots.create, and waits for the background geocoder to place them.
 */
import { MSG } from '../../shared/messages';
import {
  BRISTOL,
  CARDIFF,
  LEEDS,
  listedBusiness,
  MANCHESTER,
  mutate,
  publish,
  results,
  SEARCH,
  tabTo,
  waitUntilListed,
} from './discover-helpers';
import { expect, test } from './fixtures';
import { ALWAYS_OPEN, newCustomer, signIn, startApp } from './helpers';

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

test('an open list searches again for changes near it only: a hidden business, or a busy one elsewhere, costs it nothing', async ({
  people: { open, errors },
}) => {
  // Near the list: a listed business, and one hidden from Discover.
  const near = await open();
  const first = `Beard oil ${tag}`;
  await listedBusiness(near, `${tag}n`, BRISTOL, first);
  const hidden = await open();
  const hiddenSlot = `Hidden trim ${tag}`;
  await listedBusiness(hidden, `${tag}h`, BRISTOL, hiddenSlot);
  await waitUntilListed(hidden, hiddenSlot, 'Bristol');
  await mutate(hidden, 'settings.setDiscoverable', { discoverable: false });
  // Elsewhere: a listed business in Cardiff, watched by its own list.
  const far = await open();
  const farSlot = `Far fade ${tag}`;
  const farAccount = await listedBusiness(far, `${tag}f`, CARDIFF, farSlot);
  await waitUntilListed(far, farSlot, 'Cardiff');
  await waitUntilListed(near, first, 'Bristol');

  const watch = async (place: string, shown: string) => {
    const page = await open();
    const subscribed = page.waitForRequest((r) => r.url().includes('/trpc/discovery.onChange'));
    await page.goto(`/discover?place=${place}&window=tomorrow`);
    await expect(results(page).filter({ hasText: shown })).toBeVisible();
    await startApp(page);
    await subscribed;
    return page;
  };
  const watcher = await watch('Bristol', first);
  const farWatcher = await watch('Cardiff', farSlot);

  // A slot published nearby arrives live.
  const arrived = `Hot towel ${tag}b`;
  await publish(near, arrived, '12:00', '12:30');
  await expect(results(watcher).filter({ hasText: arrived })).toBeVisible({ timeout: LIVE_MS });

  const searches: string[] = [];
  watcher.on('request', (r) => {
    if (r.url().includes('/trpc/discovery.search')) searches.push(r.url());
  });
  // The hidden business saves its hours and adds a slot; the far one saves its hours and renames
  // itself, which its own list shows each time (so every change has reached the lists).
  for (let i = 1; i <= 3; i++) {
    await mutate(hidden, 'settings.updateBusinessHours', { schedule: ALWAYS_OPEN });
    await publish(hidden, `Hidden ${i} ${tag}`, `1${i}:00`, `1${i}:30`);
    await mutate(far, 'settings.updateBusinessHours', { schedule: ALWAYS_OPEN });
    const name = `Far Studio ${i} ${tag}`;
    await mutate(far, 'settings.updateBusinessProfile', {
      businessName: name,
      slug: farAccount.slug,
      contactName: farAccount.name,
      category: 'Barber Shop',
      description: 'Fades and beard trims',
      address: CARDIFF,
      phone: '029 2000 0000',
      email: farAccount.email,
      timezone: 'Europe/London',
    });
    await expect(results(farWatcher).filter({ hasText: name }).first()).toBeVisible({ timeout: LIVE_MS });
  }
  // One more slot nearby: the one search the Bristol list makes.
  const last = `Neck shave ${tag}`;
  await publish(near, last, '13:00', '13:30');
  await expect(results(watcher).filter({ hasText: last })).toBeVisible({ timeout: LIVE_MS });
  expect(searches).toHaveLength(1);
  await expect(results(watcher).filter({ hasText: hiddenSlot })).toHaveCount(0);
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
