/**
 * The business's Location card (Settings) and onboarding's location step: a business without a
 * location is told it is not in Discover and how to fix it; its current location (emulated
 * geolocation), the pin moved with the keyboard, and the "Show my slots in Discover" switch each
 * change what Discover shows. Map images are a blank PNG (helpers.ts `people`: no internet here).
 */
import type { Page } from '@playwright/test';
import { MSG } from '../../shared/messages';
import type { WeeklySchedule } from '../../shared/opening-hours';
import { addDaysToDate, localNow } from '../../shared/zoned-time';
import { expect, test } from './fixtures';
import { confirmFromMailbox, newBusiness, signIn, signUpBusiness } from './helpers';

const tag = `l${Date.now().toString(36)}`;
const TOMORROW = addDaysToDate(localNow('Europe/London').date, 1);
/** An address the offline gazetteer does not know: its look-up fails. */
const UNKNOWN_ADDRESS = 'Nowhere Lane, Atlantis';
/** A shop door in Leeds city centre, as a phone's GPS gives it (more than 3 decimal places). */
const SHOP = { latitude: 53.796123, longitude: -1.547891 };
/** Open every day, all day, so a slot tomorrow is always within opening hours. */
const ALWAYS_OPEN = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    { isActive: true, start: '00:00', end: '23:30' },
  ]),
) as unknown as WeeklySchedule;
/** Calls a tRPC procedure as `page`'s signed-in account (a query when `input` is undefined). */
async function call<T>(page: Page, path: string, input?: unknown): Promise<T> {
  const origin = process.env.E2E_BASE_URL!;
  const response =
    input === undefined
      ? await page.request.get(`${origin}/trpc/${path}`)
      : await page.request.post(`${origin}/trpc/${path}`, { headers: { origin }, data: { json: input } });
  const body = await response.text();
  expect(response.status(), `${path} answered: ${body}`).toBe(200);
  return (JSON.parse(body) as { result: { data: { json: T } } }).result.data.json;
}

interface Card {
  latitude: number | null;
  longitude: number | null;
  source: string | null;
  listed: boolean;
}

/** Whether discovery.search around `at` tomorrow (2 miles) lists the slot described `description`. */
async function listedNear(page: Page, at: { latitude: number; longitude: number }, description: string) {
  const input = encodeURIComponent(JSON.stringify({ json: { window: 'tomorrow', ...at, miles: 2, limit: 50 } }));
  const body = await (await page.request.get(`/trpc/discovery.search?input=${input}`)).text();
  return body.includes(description);
}

/**
 * A business signed in on `page` (its address unknown to the geocoder), with a slot tomorrow
 * described `description`, placed by its pin at `pin` when given.
 */
async function businessWithSlot(page: Page, suffix: string, description: string, pin?: typeof SHOP) {
  const business = newBusiness(`${tag}${suffix}`);
  await signIn(page, business, { profile: { address: UNKNOWN_ADDRESS, schedule: ALWAYS_OPEN } });
  await call(page, 'slots.create', { date: TOMORROW, startTime: '10:00', endTime: '11:00', description });
  if (pin) await call(page, 'settings.setLocation', { ...pin, source: 'pin' });
  return business;
}

const locationCard = (page: Page) => page.locator('section#location');

test('a business not in Discover is told how to fix it, then places itself with its current location', async ({
  people: { open, errors },
}) => {
  const page = await open({ context: { geolocation: SHOP, permissions: ['geolocation'] } });
  const description = `Fringe trim ${tag}`;
  await businessWithSlot(page, 'g', description);

  await page.goto('/settings');
  const card = locationCard(page);
  await expect(card.getByRole('heading', { name: 'Location' })).toBeVisible();
  // The address look-up fails in the background; the card, asking again while it waits, says so.
  await expect(card.getByText(MSG.addressNotFound)).toBeVisible({ timeout: 20_000 });
  await expect(card.getByText('Your business is not in Discover')).toBeVisible();
  await expect(card.getByText('Not in Discover', { exact: true })).toBeVisible();
  await expect(card.getByText(/Your pin is public/)).toBeVisible();
  expect(await listedNear(page, SHOP, description)).toBe(false);

  await card.getByRole('button', { name: 'Use my current location' }).click();
  await expect(card.getByTestId('location-summary')).toHaveText('Placed at your current location (exact).');
  await expect(card.getByText('In Discover', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: "Your business's pin" })).toBeVisible();
  // Exact, not rounded the way a customer's position is.
  expect(await call<Card>(page, 'settings.location')).toMatchObject({ ...SHOP, source: 'device', listed: true });
  expect(await listedNear(page, SHOP, description)).toBe(true);
  expect(errors).toEqual([]);
});

test('a refused location is said in words and changes nothing', async ({ people: { open, errors } }) => {
  const page = await open();
  await businessWithSlot(page, 'r', `Blow dry ${tag}`);
  await page.goto('/settings');
  const card = locationCard(page);
  await card.getByRole('button', { name: 'Use my current location' }).click();
  await expect(card.getByRole('alert').filter({ hasText: MSG.businessLocationDenied })).toBeVisible();
  expect(await call<Card>(page, 'settings.location')).toMatchObject({ latitude: null, listed: false });
  expect(errors).toEqual([]);
});

test('the pin moved with the arrow keys, or dragged, is saved where it was left', async ({
  people: { open, errors },
}) => {
  const page = await open();
  await businessWithSlot(page, 'k', `Beard oil ${tag}`, SHOP);
  await page.goto('/settings');
  const pin = locationCard(page).getByRole('button', { name: "Your business's pin" });
  await expect(pin).toBeVisible();

  await pin.focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(page.getByText('Pin saved. Discover shows your business there.').first()).toBeVisible();
  await expect(pin).toBeFocused();
  const moved = await call<Card>(page, 'settings.location');
  expect(moved.source).toBe('pin');
  expect(moved.latitude).toBeGreaterThan(SHOP.latitude);
  expect(moved.longitude).toBeGreaterThan(SHOP.longitude);
  // A few metres at the card's street-level zoom, not a jump across town.
  expect(moved.latitude! - SHOP.latitude).toBeLessThan(0.001);
  expect(moved.longitude! - SHOP.longitude).toBeLessThan(0.002);

  // Dragged with the mouse to the south-west: saved where it is dropped.
  const box = (await pin.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x - 60, box.y + 60, { steps: 8 });
  await page.mouse.up();
  await expect.poll(async () => (await call<Card>(page, 'settings.location')).latitude).toBeLessThan(moved.latitude!);
  expect((await call<Card>(page, 'settings.location')).longitude).toBeLessThan(moved.longitude!);
  expect(errors).toEqual([]);
});

test('switching Discover off takes the business off /discover, and on brings it back', async ({
  people: { open, errors },
}) => {
  const page = await open();
  const description = `Hot towel shave ${tag}`;
  const business = await businessWithSlot(page, 's', description, SHOP);

  const visitor = await open();
  const discover = `/discover?window=tomorrow&lat=${SHOP.latitude.toFixed(3)}&lng=${SHOP.longitude.toFixed(3)}&miles=2`;
  await visitor.goto(discover);
  const result = visitor.getByTestId('discover-result').filter({ hasText: description });
  await expect(result).toBeVisible();

  await page.goto('/settings');
  const card = locationCard(page);
  const toggle = card.getByRole('switch', { name: 'Show my slots in Discover' });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(page.getByText('Your slots are hidden from Discover.').first()).toBeVisible();
  await expect(toggle).not.toBeChecked();
  await expect(card.getByText('Not in Discover', { exact: true })).toBeVisible();
  await visitor.goto(discover);
  await expect(visitor.getByTestId('discover-summary')).toBeVisible();
  await expect(visitor.getByText(business.businessName)).toHaveCount(0);

  await toggle.click();
  await expect(card.getByText('In Discover', { exact: true })).toBeVisible();
  await visitor.goto(discover);
  await expect(result).toBeVisible();
  expect(errors).toEqual([]);
});

test('onboarding: the first dashboard asks where the business is, placed from its address, until Done', async ({
  people: { open, errors },
}) => {
  const page = await open();
  const business = newBusiness(`${tag}o`);
  await signUpBusiness(page, business);
  await confirmFromMailbox(page, business.email);

  const step = page.locator('section#location');
  await expect(step.getByRole('heading', { name: 'Where is your business?' })).toBeVisible();
  // The address given at sign-up (Leeds, LS1) was looked up in the background.
  await expect(step.getByTestId('location-summary')).toHaveText(
    'Placed from your address (town centre, a few miles).',
    { timeout: 20_000 },
  );
  await expect(step.getByRole('button', { name: "Your business's pin" })).toBeVisible();
  await step.getByRole('button', { name: 'Done' }).click();
  await expect(step).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: business.businessName })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Where is your business?' })).toHaveCount(0);
  expect(errors).toEqual([]);
});
