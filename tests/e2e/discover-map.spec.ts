/**
 * Discover's map (/discover, "Show map"): a view of the list, loaded only when opened. The machine
 * has no internet: every journey serves the map's images from a route handler (a 1 x 1 PNG) or
 * blocks them. Businesses are in Manchester and in Stockport (about 6 miles apart), with slots
 * tomorrow, found within 10 miles of Manchester.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { MSG } from '../../shared/messages';
import { listedBusiness, MANCHESTER, publish, results, SEARCH, tabTo, waitUntilListed } from './discover-helpers';
import { expect, test } from './fixtures';
import { startApp } from './helpers';

const tag = `m${Date.now().toString(36)}`;
const STOCKPORT = '10 Little Underbank, Stockport, SK1 1JT';
const NEAR_MANCHESTER = `${SEARCH}&miles=10`;
/** The default tile server's images (MAP_TILE_URL is not set for the suite). */
const TILES = /^https:\/\/tile\.openstreetmap\.org\//;
/** A 1 x 1 PNG the colour of OpenStreetMap's land. */
const TILE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP49P4lAAWhAstbEQ6lAAAAAElFTkSuQmCC',
  'base64',
);

/** Serves every map image on `page` from here. */
async function serveTiles(page: Page) {
  await page.route(TILES, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: TILE_PNG }));
}

const mapRegion = (page: Page) => page.getByRole('region', { name: 'Map of the results' });
const pins = (page: Page) => mapRegion(page).locator('button.map-pin');

/** The distinct business names the list on `page` shows. */
async function listedBusinessNames(page: Page): Promise<string[]> {
  const names = await results(page).evaluateAll((cards) => cards.map((c) => c.querySelector('a')?.textContent ?? ''));
  return [...new Set(names)];
}

test('markers against rows: one pin per business, chosen by keyboard or from its row', async ({
  people: { open, errors },
}) => {
  const manchester = await open();
  const fade = `Skin fade ${tag}`;
  const shave = `Hot shave ${tag}`;
  const a = await listedBusiness(manchester, `${tag}a`, MANCHESTER, fade);
  await publish(manchester, shave, '12:00', '12:30');
  const stockport = await open();
  const trim = `Beard trim ${tag}`;
  const b = await listedBusiness(stockport, `${tag}b`, STOCKPORT, trim);
  await waitUntilListed(manchester, shave, 'Manchester', 10);
  await waitUntilListed(stockport, trim, 'Manchester', 10);

  const page = await open();
  await serveTiles(page);
  await page.goto(NEAR_MANCHESTER);
  await expect(results(page).filter({ hasText: trim })).toBeVisible();
  await page.getByRole('button', { name: 'Show map' }).click();
  await expect(page).toHaveURL(/map=1/);
  await expect(mapRegion(page)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hide map' })).toBeVisible();

  // One pin per business in the list, named after it.
  const names = await listedBusinessNames(page);
  await expect(pins(page)).toHaveCount(names.length);
  const pinA = mapRegion(page).getByRole('button', { name: a.businessName, exact: true });
  const pinB = mapRegion(page).getByRole('button', { name: b.businessName, exact: true });
  await expect(pinA).toHaveCount(1);
  await expect(pinB).toHaveCount(1);

  // Chosen with the keyboard (Enter): the list shows only that business's slots.
  await tabTo(page, pinB, 80);
  await page.keyboard.press('Enter');
  const filter = page.getByTestId('discover-map-filter');
  await expect(filter).toContainText(`Showing ${b.businessName}'s slots`);
  await expect(filter).toBeInViewport();
  await expect(pinB).toHaveAttribute('aria-pressed', 'true');
  await expect(results(page)).toHaveCount(1);
  await expect(results(page)).toContainText(trim);
  await filter.getByRole('button', { name: 'Show all' }).click();
  await expect(filter).toHaveCount(0);
  await expect(results(page).filter({ hasText: fade })).toBeVisible();

  // Space does the same.
  await pinA.focus();
  await page.keyboard.press('Space');
  await expect(filter).toContainText(`Showing ${a.businessName}'s slots`);
  await expect(results(page)).toHaveCount(2);
  await expect(results(page).filter({ hasText: fade })).toBeVisible();
  await expect(results(page).filter({ hasText: shave })).toBeVisible();
  await filter.getByRole('button', { name: 'Show all' }).click();

  // Chosen from its row: its pin stands out, in view, and the business's rows are marked.
  const rowB = results(page).filter({ hasText: trim });
  await rowB.getByRole('button', { name: `Show on map: ${b.businessName}` }).click();
  await expect(pinB).toHaveAttribute('aria-pressed', 'true');
  await expect(pinA).toHaveAttribute('aria-pressed', 'false');
  await expect(rowB).toHaveAttribute('data-highlighted', 'true');
  await expect(results(page).filter({ hasText: fade })).not.toHaveAttribute('data-highlighted');
  await expect(pinB).toBeInViewport();
  const map = (await mapRegion(page).boundingBox())!;
  const pin = (await pinB.boundingBox())!;
  expect(pin.x >= map.x && pin.x + pin.width <= map.x + map.width).toBe(true);
  expect(pin.y >= map.y && pin.y + pin.height <= map.y + map.height).toBe(true);
  // The whole list stays.
  await expect(results(page).filter({ hasText: fade })).toBeVisible();

  // The map follows the live list: a business listed now gets its pin.
  const newcomer = await open();
  const late = `Late trim ${tag}`;
  const c = await listedBusiness(newcomer, `${tag}c`, MANCHESTER, late);
  await expect(results(page).filter({ hasText: late })).toBeVisible({ timeout: 20_000 });
  await expect(mapRegion(page).getByRole('button', { name: c.businessName, exact: true })).toHaveCount(1);
  await expect(pins(page)).toHaveCount(names.length + 1);

  // Hiding the map leaves the list as it was.
  await page.getByRole('button', { name: 'Hide map' }).click();
  await expect(page).not.toHaveURL(/map=1/);
  await expect(mapRegion(page)).toHaveCount(0);
  await expect(results(page).filter({ hasText: trim })).toBeVisible();
  expect(errors).toEqual([]);
});

test('tiles blocked: the list is whole and the map says its images are unavailable', async ({
  people: { open, errors },
}) => {
  const biz = await open();
  const description = `Fringe trim ${tag}`;
  await listedBusiness(biz, `${tag}t`, MANCHESTER, description);
  await waitUntilListed(biz, description, 'Manchester', 10);

  const page = await open();
  await page.route(TILES, (route) => route.abort('blockedbyclient'));
  const count = await listCount(page);
  // A shared link opens the map at once.
  await page.goto(`${NEAR_MANCHESTER}&map=1`);
  await expect(page.getByText(MSG.discoverMapImagesUnavailable)).toBeVisible();
  await expect(results(page)).toHaveCount(count);
  await expect(results(page).filter({ hasText: description })).toBeVisible();
  await expect(pins(page)).not.toHaveCount(0);
  // Readable and usable at both widths, the notice included.
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const serious = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious, `axe at ${width} px`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }
  // Scrolled under the page's fixed header, the map and its controls stay beneath it.
  const zoomIn = mapRegion(page).getByRole('button', { name: 'Zoom in' });
  await zoomIn.evaluate((button) => window.scrollBy(0, button.getBoundingClientRect().top - 20));
  const under = await zoomIn.evaluate((button) => {
    const box = button.getBoundingClientRect();
    return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)?.closest('header') !== null;
  });
  expect(under).toBe(true);
  // Failed images are logged by the browser; nothing else may be.
  expect(errors.filter((e) => !/Failed to load resource: net::ERR_BLOCKED_BY_CLIENT/.test(e))).toEqual([]);
});

test("the map's code and styles load only when the map is opened", async ({ people: { open, errors } }) => {
  const biz = await open();
  const description = `Line up ${tag}`;
  await listedBusiness(biz, `${tag}j`, MANCHESTER, description);
  await waitUntilListed(biz, description, 'Manchester', 10);

  const mapFiles = mapChunkFiles();
  expect(mapFiles.js.length).toBeGreaterThan(0);
  expect(mapFiles.css.length).toBeGreaterThan(0);
  const page = await open();
  await serveTiles(page);
  const requested: string[] = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));

  // The server's page with the map open holds no map: it is drawn in the browser.
  const html = await (await page.request.get(`${NEAR_MANCHESTER}&map=1`)).text();
  expect(html).not.toContain('leaflet-container');

  await page.goto(NEAR_MANCHESTER);
  await expect(results(page).filter({ hasText: description })).toBeVisible();
  await page.mouse.move(10, 10);
  await page.mouse.wheel(0, 200);
  await page.keyboard.press('Tab');
  // The app these interactions brought is running: only the map's own button may load the map.
  await startApp(page);
  for (const file of [...mapFiles.js, ...mapFiles.css]) expect(requested, file).not.toContain(file);

  await page.getByRole('button', { name: 'Show map' }).click();
  await expect(pins(page).first()).toBeVisible();
  for (const file of [...mapFiles.js, ...mapFiles.css]) expect(requested, file).toContain(file);
  expect(errors).toEqual([]);
});

test('a map whose code cannot load says so; the list stays whole', async ({ people: { open, errors } }) => {
  const biz = await open();
  const description = `Taper ${tag}`;
  await listedBusiness(biz, `${tag}f`, MANCHESTER, description);
  await waitUntilListed(biz, description, 'Manchester', 10);

  const [mapScript] = mapChunkFiles().js;
  const page = await open();
  await serveTiles(page);
  await page.route(
    (url) => url.pathname === mapScript,
    (route) => route.abort('connectionreset'),
  );
  await page.goto(NEAR_MANCHESTER);
  const count = await results(page).count();
  await page.getByRole('button', { name: 'Show map' }).click();
  await expect(page.getByText(MSG.mapNotLoaded)).toBeVisible();
  await expect(results(page)).toHaveCount(count);
  await expect(results(page).filter({ hasText: description })).toBeVisible();
  expect(errors.filter((e) => !/ERR_CONNECTION_RESET|Could not load a part of the page/.test(e))).toEqual([]);

  // Once the code can be had, showing the map again loads it.
  await page.unrouteAll();
  await serveTiles(page);
  await page.getByRole('button', { name: 'Hide map' }).click();
  await page.getByRole('button', { name: 'Show map' }).click();
  await expect(pins(page).first()).toBeVisible();
});

/** How many results the search of NEAR_MANCHESTER answers (every page), asked of the API. */
async function listCount(page: Page): Promise<number> {
  let total = 0;
  let cursor: string | null = null;
  do {
    const json = { window: 'tomorrow', place: 'Manchester', miles: 10, limit: 50, ...(cursor ? { cursor } : {}) };
    const response = await page.request.get(
      `/trpc/discovery.search?input=${encodeURIComponent(JSON.stringify({ json }))}`,
    );
    const body = (await response.json()) as {
      result: { data: { json: { results: unknown[]; nextCursor: string | null } } };
    };
    total += body.result.data.json.results.length;
    cursor = body.result.data.json.nextCursor;
  } while (cursor);
  return total;
}

/**
 * The built files only the map needs (its module's chunk and those it imports that the page does
 * not), from the client build's manifest: addresses as the browser asks for them.
 */
function mapChunkFiles(): { js: string[]; css: string[] } {
  const dir = process.env.E2E_CLIENT_DIST ?? path.join('dist', 'client');
  type Chunk = { file: string; imports?: string[]; dynamicImports?: string[]; css?: string[] };
  const manifest = JSON.parse(readFileSync(path.join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<string, Chunk>;
  const closure = (key: string, seen = new Set<string>()) => {
    if (seen.has(key) || !manifest[key]) return seen;
    seen.add(key);
    for (const i of manifest[key].imports ?? []) closure(i, seen);
    return seen;
  };
  const page = closure('routes/discover.tsx?tsr-split=component', closure('entry-client.tsx'));
  const map = [...closure('features/discover/discover-map.tsx')].filter((k) => !page.has(k));
  return {
    js: map.map((k) => `/${manifest[k]!.file}`),
    css: map.flatMap((k) => (manifest[k]!.css ?? []).map((f) => `/${f}`)),
  };
}
