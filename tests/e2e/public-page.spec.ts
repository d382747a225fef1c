/**
 * The public business page /{slug} and the not-found page in real Chromium (ADR 0019, 0020, 0047):
 * what a visitor and the owner see (rendered by the server with the page's data inside its HTML, so
 * no API call), the sign-in dialog, 'Business Not Found' against the 404 page and their HTTP
 * statuses, the page's HTTP revalidation (304), the load failure and time-out states with Try
 * Again and 'Invalid Business Data' (a page the app loads in the browser), and the booking request
 * failure toast; the dialogs' code comes at the first interaction (ADR 0055, 0080).
 */
import type { BrowserContextOptions, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { MSG } from '../../shared/messages';
import { defaultWeeklySchedule } from '../../shared/opening-hours';
import {
  addFirstSlot,
  BOOT_SCRIPTS,
  scriptsOf,
  startApp,
  withoutJavaScript,
  businessOnDashboard,
  customerOnDashboard,
  newBusiness,
  newCustomer,
  people,
  recordToasts,
  navigateInApp,
} from './helpers';
import { proceduresOf, unlessTornDown, withEntry } from './trpc-stubs';

test.describe.configure({ mode: 'serial' });

const tag = `p${Date.now().toString(36)}`;
const business = newBusiness(tag);
const customer = newCustomer(tag);
/** A second customer, whose first sign-in creates the account. */
const retryingCustomer = newCustomer(`${tag}-retry`);
const slotDescription = `Public page slot ${tag}`;
const fullAddress = 'Flat 2, 12 High Street, Shoreditch, London, E1 6AN';
const phone = '020 7946 0123';
/** Chromium's console note of a failed answer that a test provokes on purpose. */
const PROVOKED = /Failed to load resource: the server responded with a status of 5\d\d/;

/** A tRPC error entry as the server sends it (superjson-wrapped). */
function trpcError(path: string, code: string, httpStatus: number, message: string) {
  const codes: Record<string, number> = { INTERNAL_SERVER_ERROR: -32603, CONFLICT: -32009, UNAUTHORIZED: -32001 };
  return { error: { json: { message, code: codes[code] ?? -32603, data: { code, httpStatus, path } } } };
}

const isBySlug = (url: URL) => url.pathname.startsWith('/trpc/') && url.pathname.includes('businesses.bySlug');
const isRequest = (url: URL) => url.pathname.startsWith('/trpc/') && url.pathname.includes('bookings.request');

/**
 * Opens the business's page as a visitor does who follows a link inside the running app (as from a
 * dashboard), so the screen asks businesses.bySlug itself, whose answer the load-state journeys
 * change. The app runs on /login first. Returns when (Date.now()) the page was asked for.
 */
async function openInApp(page: Page): Promise<number> {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  return navigateInApp(page, `/${business.slug}`);
}

/** Signs `page` in as `who` and opens the business's page with the app running; its test slot. */
async function customerAtSlot(page: Page, who = customer) {
  await customerOnDashboard(page, who);
  await page.goto(`/${business.slug}`);
  // The customer's controls come with the app, which loads at the first interaction.
  await startApp(page);
  return { page, slot: page.getByTestId('public-slot').filter({ hasText: slotDescription }) };
}

/** The owner's signed-in browser state (cookies, local storage), saved once. */
let ownerState: BrowserContextOptions['storageState'];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const { open, closeAll, errors } = people(browser);
  try {
    const biz = await open();
    // A five-part address, a phone number, and Saturday open from the form's 10 am to 3 pm.
    const schedule = defaultWeeklySchedule();
    schedule.saturday.isActive = true;
    await businessOnDashboard(biz, business, { address: fullAddress, phone, schedule });
    await addFirstSlot(biz, slotDescription);
    ownerState = await biz.context().storageState();
    expect(errors).toEqual([]);
  } finally {
    await closeAll();
  }
});

test('a visitor sees the business, its slots and its details, and is asked to sign in to request', async ({
  people: { open, errors },
}) => {
  const page = await open();
  const apiCalls: string[] = [];
  page.on('request', (request) => {
    if (isBySlug(new URL(request.url()))) apiCalls.push(request.url());
  });
  const response = await page.goto(`/${business.slug}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: business.businessName })).toBeVisible();
  await expect(page.getByTestId('public-slot').filter({ hasText: slotDescription })).toBeVisible();
  // Rendered by the server with its data inside the HTML: no API call for it.
  expect(apiCalls).toEqual([]);
  await expect(page).toHaveTitle(`${business.businessName} | LastSlot`);
  await expect(page.getByTestId('business-type')).toHaveText('Hair Salon');
  await expect(page.getByText('Short-notice cuts and colour.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Request an Appointment' })).toBeVisible();
  await expect(page.getByText('Your Business Page Preview')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Favourite/ })).toBeVisible();

  // The side card: shortened address with the full one in the maps search, email, phone, hours.
  const info = page.getByTestId('business-info');
  await expect(info.getByTestId('business-address')).toHaveText('12 High Street, London, E1 6AN');
  const maps = info.getByRole('link', { name: 'Open in Maps' });
  await expect(maps).toHaveAttribute(
    'href',
    `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(fullAddress)}`,
  );
  await expect(maps).toHaveAttribute('target', '_blank');
  await expect(info.getByRole('link', { name: business.email })).toHaveAttribute('href', `mailto:${business.email}`);
  await expect(info.getByRole('link', { name: phone })).toHaveAttribute('href', 'tel:02079460123');
  await expect(info.getByTestId('opening-hours-day')).toHaveText([
    'Monday9:00 am - 5:00 pm',
    'Tuesday9:00 am - 5:00 pm',
    'Wednesday9:00 am - 5:00 pm',
    'Thursday9:00 am - 5:00 pm',
    'Friday9:00 am - 5:00 pm',
    'Saturday10:00 am - 3:00 pm',
    'SundayClosed',
  ]);

  // Requesting asks the visitor to sign in, with its login message.
  const slot = page.getByTestId('public-slot').filter({ hasText: slotDescription });
  await expect(slot).toBeVisible();
  await expect(slot.getByRole('button', { name: /^Request/ })).toHaveCount(0);
  await slot.getByRole('button', { name: 'Login or Sign Up to Request' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Please log in to book an appointment')).toBeVisible();
  // The app, now running, took the page's data from the HTML too: it has not asked for it.
  expect(apiCalls).toEqual([]);
  await expect(dialog.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
  await expect(dialog.getByRole('link', { name: 'Create an Account' })).toHaveAttribute(
    'href',
    '/register?role=customer',
  );
  await dialog.getByRole('link', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goBack();
  await page.getByRole('button', { name: 'Login or Sign Up to Request' }).first().click();
  await page.getByRole('dialog').getByRole('link', { name: 'Create an Account' }).click();
  await expect(page).toHaveURL(/\/register\?role=customer$/);
  await expect(page.getByRole('radio', { name: 'Customer' })).toBeChecked();
  expect(errors).toEqual([]);
});

test("the session's answer after the first paint leaves the painted slot list alone", async ({
  people: { open, errors },
}) => {
  const page = await open();
  // auth.me is held until the page has painted its slots, as on a slow network.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.startsWith('/trpc/') && proceduresOf(url.href).includes('auth.me'),
    (route) =>
      unlessTornDown(async () => {
        await held;
        await route.continue();
      }),
  );
  await page.goto(`/${business.slug}`);
  const slot = page.getByTestId('public-slot').filter({ hasText: slotDescription });
  await expect(slot).toBeVisible();
  // The server-rendered page's app starts at the first interaction, and hydrates the list.
  await page.mouse.move(10, 10);
  // React keeps an element's latest props on it (under a key starting '__reactProps$'); rendering
  // the list again gives every card new ones. The list is memoised, so the page's re-render when
  // the session answers (an anonymous visitor: nothing the list shows changes) skips it.
  const props = (el: Element) => {
    const key = Object.keys(el).find((k) => k.startsWith('__reactProps$'));
    return key ? (el as unknown as Record<string, unknown>)[key] : undefined;
  };
  await expect.poll(() => slot.evaluate((el) => Object.keys(el).some((k) => k.startsWith('__reactProps$')))).toBe(true);
  const painted = await slot.evaluateHandle(props);
  expect(await painted.evaluate((p) => p !== undefined)).toBe(true);
  const answered = page.waitForResponse((response) => proceduresOf(response.url()).includes('auth.me'));
  release();
  await answered;
  // The answer's re-render runs in a task of its own; the browser is idle once it has run.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
  const unchanged = await slot.evaluate((el, before) => {
    const key = Object.keys(el).find((k) => k.startsWith('__reactProps$'));
    return key !== undefined && (el as unknown as Record<string, unknown>)[key] === before;
  }, painted);
  expect(unchanged).toBe(true);
  expect(errors).toEqual([]);
});

test("a visitor without a session gets the page whole in its HTML; the app's script comes at the first interaction", async ({
  people: { open, errors },
  browser,
}) => {
  // With JavaScript off: the page, its slots, its details and its buttons, from the HTML alone.
  await withoutJavaScript(browser, `/${business.slug}`, async (still) => {
    await expect(still.getByRole('heading', { level: 1, name: business.businessName })).toBeVisible();
    const slot = still.getByTestId('public-slot').filter({ hasText: slotDescription });
    await expect(slot.getByRole('button', { name: 'Login or Sign Up to Request' })).toBeVisible();
    await expect(still.getByTestId('business-address')).toHaveText('12 High Street, London, E1 6AN');
    await expect(still.getByRole('button', { name: /^Favourite · \d+$/ })).toBeVisible();
    // No choice saved: the cookie banner is in the HTML too.
    await expect(still.getByRole('region', { name: 'Cookie consent' })).toBeVisible();
  });

  // A visitor who only looks loads the boot script, then nothing more: no app, no dialogs.
  const page = await open();
  const scripts = scriptsOf(page);
  await page.goto(`/${business.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: business.businessName })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  expect(scripts).toEqual(BOOT_SCRIPTS);

  // A tap on a button before the app has run is answered once it has: the sign-in dialog opens,
  // and the request and sign-in dialogs' code comes with it.
  await page
    .getByTestId('public-slot')
    .filter({ hasText: slotDescription })
    .getByRole('button', { name: 'Login or Sign Up to Request' })
    .click();
  await expect(page.getByRole('dialog').getByText('Please log in to book an appointment')).toBeVisible();
  expect(scripts[0]).toBe('boot');
  expect(scripts).toContain('app');
  await expect
    .poll(() => scripts.filter((f) => f.endsWith('-dialog')).sort())
    .toEqual(['request-dialog', 'sign-in-dialog']);
  expect(errors).toEqual([]);
});

test('the page is revalidated: asked again with its ETag, the server answers 304 without the page', async ({
  request,
}) => {
  const html = { accept: 'text/html' };
  const first = await request.get(`/${business.slug}`, { headers: html });
  expect(first.status()).toBe(200);
  // A visitor's page: kept, and a CDN may keep it briefly (docs/decisions/0106).
  expect(first.headers()['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
  const etag = first.headers()['etag'];
  expect(etag).toMatch(/^"[^"]+"$/);
  // Its inline scripts are allowed by hash, so the kept page is sent as it is (docs/decisions/0107).
  expect(first.headers()['content-security-policy']).toMatch(/script-src 'self'( 'sha256-[^']+')+;/);
  const second = await request.get(`/${business.slug}`, { headers: html });
  expect(second.headers()['content-security-policy']).toBe(first.headers()['content-security-policy']);
  expect(await second.text()).toBe(await first.text());
  expect(second.headers()['etag']).toBe(etag);
  // The browser keeps the page it has, with the policy it came with.
  const revalidated = await request.get(`/${business.slug}`, { headers: { ...html, 'if-none-match': etag! } });
  expect(revalidated.status()).toBe(304);
  expect((await revalidated.body()).length).toBe(0);
  expect(revalidated.headers()['etag']).toBe(etag);
  expect(revalidated.headers()['content-security-policy']).toBeUndefined();
});

test('the owner sees the preview with Go to Dashboard, and no request or favourite buttons', async ({
  people: { open, errors },
}) => {
  const page = await open({ storageState: ownerState });
  await page.goto(`/${business.slug}`);
  const preview = page.getByTestId('owner-preview');
  await expect(preview.getByText('Your Business Page Preview', { exact: true })).toBeVisible();
  await expect(page.getByText('Request an Appointment')).toHaveCount(0);
  await expect(page.getByTestId('public-slot').filter({ hasText: slotDescription })).toBeVisible();
  await expect(page.getByRole('button', { name: /Request/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Favourite/ })).toHaveCount(0);
  await preview.getByRole('link', { name: 'Go to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: business.businessName })).toBeVisible();
  expect(errors).toEqual([]);
});

test("unknown slugs and reserved words give 'Business Not Found'; other paths the 404 page", async ({
  people: { open, errors },
}) => {
  const page = await open();
  for (const path of ['/no-such-business-here', '/admin', '/pricing', '/www']) {
    expect((await page.goto(path))?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { name: 'Business Not Found' }), path).toBeVisible();
    await expect(page).toHaveTitle('Business Not Found | LastSlot');
    await expect(page.getByText('Oops! Page not found')).toHaveCount(0);
  }
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);

  for (const path of [
    '/a/b',
    `/${business.slug}/extra`,
    '/dashboard/nothing-here',
    '/no_such_page',
    '/ab',
    `/${'x'.repeat(51)}`,
    '/caf%C3%A9',
  ]) {
    expect((await page.goto(path))?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' }), path).toBeVisible();
    await expect(page).toHaveTitle('Page not found | LastSlot');
    await expect(page.getByText('Business Not Found')).toHaveCount(0);
  }
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);

  // A slug typed with capitals goes to the page's own address.
  expect((await page.goto(`/${business.slug.toUpperCase()}`))?.status()).toBe(200);
  await expect(page).toHaveURL(new RegExp(`/${business.slug}$`));
  await expect(page.getByRole('heading', { level: 1, name: business.businessName })).toBeVisible();

  // The product's own routes keep working (visitors are sent to log in where a session is needed).
  for (const [path, landing] of [
    ['/login', /\/login/],
    ['/register', /\/register/],
    ['/forgot-password', /\/forgot-password/],
    ['/dashboard', /\/login/],
    ['/settings', /\/login/],
    ['/qrcode', /\/login/],
    ['/contact', /\/login/],
  ] as const) {
    expect((await page.goto(path))?.status(), path).toBe(200);
    await expect(page, path).toHaveURL(landing);
    await expect(page.getByLabel('Email'), path).toBeVisible();
    await expect(page.getByText('Business Not Found')).toHaveCount(0);
    await expect(page.getByText('Oops! Page not found')).toHaveCount(0);
  }
  expect(errors).toEqual([]);
});

test("a failed load shows 'Error Loading Business' after two retries, and Try Again recovers", async ({
  people: { open, errors },
}) => {
  const page = await open();
  let failing = true;
  const calls: number[] = [];
  await page.route(isBySlug, async (route) => {
    calls.push(Date.now());
    if (!failing) return route.continue();
    await withEntry(route, 'businesses.bySlug', () =>
      trpcError('businesses.bySlug', 'INTERNAL_SERVER_ERROR', 500, 'relation "business_profiles" does not exist'),
    );
  });
  await openInApp(page);
  await expect(page.getByRole('heading', { name: 'Error Loading Business' })).toBeVisible();
  await expect(page.getByText('Failed to load business information')).toBeVisible();
  await expect(page.getByText(/relation|does not exist/)).toHaveCount(0);
  await expect(page).toHaveTitle('Error Loading Business | LastSlot');
  // One call and two retries, 1 s then 2 s apart.
  expect(calls).toHaveLength(3);
  expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(900);
  expect(calls[2]! - calls[1]!).toBeGreaterThanOrEqual(1900);

  failing = false;
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: business.businessName })).toBeVisible();
  await expect(page.getByTestId('public-slot').filter({ hasText: slotDescription })).toBeVisible();
  expect(calls).toHaveLength(4);
  expect(errors.filter((e) => !PROVOKED.test(e))).toEqual([]);
});

test("a load that does not answer is given 5 s per call, and after 10 s the page says 'Loading took too long'", async ({
  people: { open, errors },
}) => {
  const page = await open();
  let hanging = true;
  let calls = 0;
  await page.route(isBySlug, async (route) => {
    calls += 1;
    if (!hanging) return route.continue();
    // Never answered while hanging (the page gives up on it).
  });
  const started = await openInApp(page);
  await expect(page.getByRole('status').filter({ hasText: 'Loading business...' })).toBeVisible();
  await expect(page.getByText('Loading took too long. Please refresh the page.')).toBeVisible({ timeout: 15_000 });
  expect(Date.now() - started).toBeGreaterThanOrEqual(9_500);
  // The first call was abandoned after 5 s and retried 1 s later.
  expect(calls).toBe(2);
  await expect(page.getByRole('button', { name: 'Refresh Page' })).toBeVisible();

  hanging = false;
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: business.businessName })).toBeVisible();
  expect(errors).toEqual([]);
});

test("'Invalid Business Data' without a name; 'No description available.' and the type label after '|'", async ({
  people: { open, errors },
}) => {
  const page = await open();
  type Entry = { result: { data: { json: { business: Record<string, unknown> } } } };
  let change: (business: Record<string, unknown>) => void = (b) => {
    b.businessName = '';
  };
  await page.route(isBySlug, (route) =>
    withEntry(route, 'businesses.bySlug', (entry) => {
      change((entry as Entry).result.data.json.business);
      return entry;
    }),
  );
  await openInApp(page);
  await expect(page.getByRole('heading', { name: 'Invalid Business Data' })).toBeVisible();
  await expect(page).toHaveTitle('Invalid Business Data | LastSlot');
  await expect(page.getByTestId('public-slot')).toHaveCount(0);

  change = (b) => {
    b.description = null;
    b.businessType = 'Hair Services|Barber Shop';
  };
  // A new page, whose app asks again.
  await openInApp(page);
  await expect(page.getByRole('heading', { level: 1, name: business.businessName })).toBeVisible();
  await expect(page.getByText('No description available.')).toBeVisible();
  await expect(page.getByTestId('business-type')).toHaveText('Barber Shop');
  expect(errors).toEqual([]);
});

test("a customer's failed request reads 'Booking failed'; a lost session asks to log in", async ({
  people: { open, errors },
}) => {
  const { page, slot } = await customerAtSlot(await open());
  await page.route(isRequest, (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify([trpcError('bookings.request', 'INTERNAL_SERVER_ERROR', 500, 'deadlock detected')]),
    }),
  );
  await slot.getByRole('button', { name: /^Request/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Send Request' }).click();
  const toast = page.getByRole('alert').filter({ hasText: 'Booking failed' });
  await expect(toast).toContainText('Could not submit your booking request. Please try again.');
  await expect(page.getByText('deadlock detected')).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(slot).toBeVisible();
  await page.unroute(isRequest);

  // The session ends elsewhere: the server's refusal keeps its own text; the app then notices the
  // ended session ('Session Expired'), which closes every toast, and goes home. The refusal's toast
  // may be closed as soon as it shows, so it is read from the record of every toast shown.
  const toasts = await recordToasts(page);
  await page.context().clearCookies();
  await slot.getByRole('button', { name: /^Request/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Send Request' }).click();
  await expect
    .poll(toasts)
    .toContainEqual(expect.stringMatching(/Booking failed[\s\S]*Please log in to book an appointment/));
  await expect(page.getByText('Session Expired')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  expect(errors.filter((e) => !PROVOKED.test(e))).toEqual([]);
});

test('a booking request answered 503 (the database away) is sent again with the same key and goes through, without a failure toast', async ({
  people: { open, errors },
}) => {
  const { page, slot } = await customerAtSlot(await open(), retryingCustomer);
  // The first attempt meets a fail-over; the retry reaches the server.
  const keys: unknown[] = [];
  await page.route(isRequest, (route) =>
    unlessTornDown(async () => {
      const sent = route.request().postDataJSON() as Record<string, { json: { idempotencyKey?: string } }>;
      keys.push(sent['0']?.json.idempotencyKey);
      if (keys.length > 1) return route.continue();
      return route.fulfill({
        status: 503,
        headers: { 'retry-after': '1' },
        contentType: 'application/json',
        body: JSON.stringify([trpcError('bookings.request', 'SERVICE_UNAVAILABLE', 503, MSG.generic)]),
      });
    }),
  );
  const toasts = await recordToasts(page);
  await slot.getByRole('button', { name: /^Request/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Send Request' }).click();
  await expect(page.getByRole('alert').filter({ hasText: MSG.bookingRequested })).toBeVisible();
  expect(keys).toHaveLength(2);
  expect(keys[0]).toEqual(expect.any(String));
  expect(keys[1]).toBe(keys[0]);
  expect(await toasts()).not.toContainEqual(expect.stringMatching(/Booking failed/));
  await page.unroute(isRequest);
  expect(errors.filter((e) => !PROVOKED.test(e))).toEqual([]);
});
