/**
 * Shared steps of the end-to-end journeys, driven by the labels a person sees; and `signIn`, which
 * gives a journey a signed-in account without the sign-up screens (docs/decisions/0040).
 */
import {
  expect,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from '@playwright/test';
import postgres from 'postgres';
import type { z } from 'zod';
import { APP_ENTRY_ATTRIBUTE } from '../../shared/boot-script';
import type { devAccountInput } from '../../server/features/auth/dev-accounts.service';
import { DEFAULT_MAP_TILES, mapTileSource } from '../../shared/map-tiles';
import { defaultWeeklySchedule, type WeeklySchedule } from '../../shared/opening-hours';

export interface BusinessAccount {
  name: string;
  email: string;
  password: string;
  businessName: string;
  slug: string;
}
export interface CustomerAccount {
  name: string;
  email: string;
  password: string;
}

export function newBusiness(tag: string): BusinessAccount {
  return {
    name: 'Bea Owner',
    email: `owner-${tag}@example.test`,
    password: 'owner-password-1',
    businessName: `Studio ${tag}`,
    slug: `studio-${tag}`,
  };
}

export function newCustomer(tag: string): CustomerAccount {
  return { name: 'Cam Customer', email: `cam-${tag}@example.test`, password: 'customer-password-1' };
}

type DevAccountInput = z.input<typeof devAccountInput>;

/** The onboarding form's fields of a business profile besides its name and username. */
export type BusinessProfile = Pick<
  Extract<DevAccountInput, { role: 'business' }>,
  'description' | 'address' | 'category' | 'phone' | 'schedule'
>;

/** Open every day, all day, so a slot tomorrow is always within opening hours. */
export const ALWAYS_OPEN = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    { isActive: true, start: '00:00', end: '23:30' },
  ]),
) as unknown as WeeklySchedule;

/** The onboarding form's defaults (category, hours), with the description and address journeys type. */
const BUSINESS_PROFILE: BusinessProfile = {
  description: 'Short-notice cuts and colour.',
  address: '2 Market Row, Leeds, LS1 6DL',
  category: 'Hair Salon',
  schedule: defaultWeeklySchedule(),
};

/**
 * Collects console errors (except Chromium's note of a 4xx answer) and uncaught exceptions; the
 * journey asserts the list is empty.
 */
export function watchErrors(page: Page, errors: string[]) {
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // A 4xx is an answer the page shows (wrong password, used link), which Chromium also logs.
    if (/Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) return;
    errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
}

/** Opens `path` in a new context with JavaScript off, expects a 200, and runs `check` on the page. */
export async function withoutJavaScript(browser: Browser, path: string, check: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    expect((await page.goto(path))?.status()).toBe(200);
    await check(page);
  } finally {
    await context.close();
  }
}

/**
 * The scripts a page whose app loads at the first interaction requests until then (by `scriptsOf`
 * name): the boot script alone (client/boot.ts, with what it imports).
 */
export const BOOT_SCRIPTS = ['boot'];

/** The scripts `page` requests from now on, by file name without the hash. */
export function scriptsOf(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() !== 'script') return;
    const file = new URL(request.url()).pathname.split('/').pop() ?? '';
    scripts.push(file.replace(/-[\w-]{8}\.js$/, ''));
  });
  return scripts;
}

/**
 * Whether the app has taken over the page: the root route has then taken what the page's head held
 * before it ran (client/lib/hold-before-start.ts `takeHeld`, client/lib/tap-before-start.ts).
 */
export function appHasStarted(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as { lastslotHeld?: { done?: boolean } }).lastslotHeld?.done === true);
}

/**
 * On a page whose app loads at the first interaction: moves the mouse, the first interaction that
 * loads the app, and waits until the app has hydrated the page (`appHasStarted`). `tick`, when
 * given, runs between checks (a test with an installed clock moves it there).
 */
export async function startApp(page: Page, tick?: () => Promise<void>) {
  await page.mouse.move(10, 10);
  await expect
    .poll(
      async () => {
        await tick?.();
        return appHasStarted(page);
      },
      { intervals: [20], timeout: 20_000 },
    )
    .toBe(true);
}

/** Waits until the app has hydrated the page (the root route marks the document). */
export async function waitForApp(page: Page) {
  await page.locator('html[data-app-running]').waitFor({ state: 'attached', timeout: 20_000 });
}

/**
 * Loads `path` with an installed clock (running in real time) and, once the app runs there, moves
 * the clock past the guards' 30 s: the next in-app navigation asks auth.me again over the network,
 * where a journey can delay, fail or rewrite it (a page the server renders comes with its answer).
 */
export async function openAndAge(page: Page, path: string) {
  await page.clock.install();
  await page.goto(path);
  await waitForApp(page);
  await page.clock.fastForward(31_000);
}

/**
 * Follows a link to `path` inside the running app, as from a dashboard: the browser's router loads
 * the page, so its guards and screens ask the API themselves (a page the server renders has its
 * answers inside its HTML). The app must already run on `page`. Returns when (Date.now()) the page
 * was asked for.
 */
export async function navigateInApp(page: Page, path: string): Promise<number> {
  await waitForApp(page);
  const asked = Date.now();
  await page.evaluate((to) => {
    const index = ((window.history.state as { __TSR_index?: number } | null)?.__TSR_index ?? 0) + 1;
    const key = Math.random().toString(36).slice(2, 10);
    window.history.pushState({ __TSR_index: index, key, __TSR_key: key }, '', to);
  }, path);
  await expect.poll(() => new URL(page.url()).pathname).toBe(path);
  return asked;
}

/**
 * Runs `during` (e.g. a page load) while the server's reads of sessions wait: a transaction of the
 * test's own on the suite's PostgreSQL database (E2E_DATABASE_URL) holds the sessions table locked
 * (ACCESS EXCLUSIVE) until `during` settles, or `maxMs` (ms) have passed, then ends; it ends nothing
 * else. Returns what `during` returns. Throws without E2E_DATABASE_URL (PGlite is in the server's
 * process): such a test skips first.
 */
export async function withSessionsLocked<T>(during: () => Promise<T>, maxMs = 5_000): Promise<T> {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error('withSessionsLocked needs PostgreSQL (E2E_DATABASE_URL)');
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  let running: Promise<T> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await sql.begin(async (tx) => {
      // The server's reads hold the table for milliseconds; waiting longer for it is a fault.
      await tx`set local lock_timeout = '5s'`;
      await tx`lock table sessions in access exclusive mode`;
      running = during();
      const limit = new Promise((resolve) => (timer = setTimeout(resolve, maxMs)));
      await Promise.race([running.catch(() => undefined), limit]);
    });
  } finally {
    clearTimeout(timer);
    await sql.end();
  }
  return running!;
}

/** Opens the dev mailbox of `origin`, follows the confirmation link to `email`, lands signed in. */
export async function confirmFromMailbox(page: Page, email: string, origin = '') {
  await page.goto(`${origin}/dev/mailbox`);
  const message = page.getByRole('article').filter({ hasText: `To: ${email}` });
  await expect(message.first()).toBeVisible();
  await message.first().getByRole('link', { name: 'Confirm my email' }).click();
  await expect(page.getByText('Welcome!', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * The href of the newest message to `email` in the dev mailbox with a link matching `href` (fails
 * when there is none).
 */
export async function mailboxLink(page: Page, email: string, href: RegExp): Promise<string> {
  await page.goto('/dev/mailbox');
  const messages = page.getByRole('article').filter({ hasText: `To: ${email}` });
  await expect(messages.first()).toBeVisible();
  const hrefs = await messages.locator('a[href]').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  const target = hrefs.find((h) => href.test(h));
  expect(target, `a link matching ${href} in mail to ${email}`).toBeTruthy();
  return target!;
}

/** Submits the /login form with `email` and `password` (what follows is the caller's to check). */
export async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** Picks `option` (default: the first) in the Mantine select labelled `label`. */
export async function pick(page: Page, label: string, option?: string) {
  // A select's list opens only once the app runs (a server-rendered page shows it before).
  await waitForApp(page);
  await page.getByRole('combobox', { name: label }).click();
  const options = page.getByRole('listbox', { name: label }).getByRole('option');
  await (option ? options.filter({ hasText: option }).first() : options.first()).click();
}

/** /register as a business, then /complete-business-profile, ending on /check-email. */
export async function signUpBusiness(page: Page, account: BusinessAccount, origin = '') {
  await page.goto(`${origin}/register`);
  await page.getByLabel('Full name').fill(account.name);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await expect(page.getByRole('radio', { name: 'Business' })).toBeChecked();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/complete-business-profile$/);
  await page.getByLabel('Business name').fill(account.businessName);
  await page.getByLabel('Description').fill(BUSINESS_PROFILE.description);
  await page.getByLabel('Address').fill(BUSINESS_PROFILE.address);
  await page.getByLabel('Username').fill(account.slug);
  await expect(page.getByText(/available/i).first()).toBeVisible();
  await page.getByRole('button', { name: 'Complete Profile' }).click();
  await expect(page).toHaveURL(/\/check-email/);
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
}

/** Fills and submits the customer sign-up form (already on /register with Customer chosen). */
export async function fillCustomerSignUp(page: Page, account: CustomerAccount) {
  await expect(page.getByRole('radio', { name: 'Customer' })).toBeChecked();
  await page.getByLabel('Full name').fill(account.name);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/check-email/);
}

/**
 * Adds a slot on the business dashboard on the last offered date with its first start and end:
 * days ahead, so it cannot start (and leave the public page) while a suite runs, as a slot on
 * today's first free time could a few minutes after it was added.
 */
export async function addFirstSlot(page: Page, description: string) {
  await pickExact(page, 'Date', 'last');
  await pick(page, 'Start time');
  await pick(page, 'End time');
  await page.getByRole('textbox', { name: 'Description' }).fill(description);
  await page.getByRole('button', { name: 'Add Slot' }).click();
  await expect(page.getByText('Slot added successfully')).toBeVisible();
  await expect(page.getByTestId('slot-row').filter({ hasText: description })).toBeVisible();
}

/**
 * Requests the slot described `description` from the public page currently open, as a person with
 * a mouse does: the pointer moves first, which loads the page's app (`startApp`), then the slot's
 * Request button is clicked.
 */
export async function requestSlot(page: Page, description: string) {
  await startApp(page);
  const slot = page.getByTestId('public-slot').filter({ hasText: description });
  await slot.getByRole('button', { name: /^Request/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Notes (optional)').fill('First visit');
  await dialog.getByRole('button', { name: 'Send Request' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Booking request submitted!').first()).toBeVisible();
  await expect(page.getByTestId('public-slot').filter({ hasText: description })).toHaveCount(0);
}

/** A 1 x 1 transparent PNG: the map images every journey's browser gets (`people`). */
export const BLANK_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** How `people(...).open` starts a person's browser context. */
export interface OpenOptions {
  /**
   * Whether the cookie choice is already made (default true), so the consent banner does not
   * cover the page; the consent journeys start without one.
   */
  cookieChoice?: boolean;
  /** A saved browser state (cookies, local storage) to start from, e.g. a signed-in owner's. */
  storageState?: BrowserContextOptions['storageState'];
  /** More of the context's options: e.g. a `geolocation` with `permissions: ['geolocation']`. */
  context?: Omit<BrowserContextOptions, 'storageState'>;
}

/**
 * A person waits for a page to be ready before typing into it: `page.goto` and `page.reload` return
 * once the app has hydrated the page, or at once on a page whose app loads at the first interaction.
 * (The server's HTML shows a screen before the app runs; a step taken then, such as clearing the
 * cookies, would race the app's first requests.)
 */
function readyOnLoad(page: Page) {
  const ready = () =>
    page.waitForFunction(
      (entry) =>
        document.documentElement.hasAttribute('data-app-running') ||
        document.querySelector(`script[${entry}]`) !== null ||
        document.contentType !== 'text/html',
      APP_ENTRY_ATTRIBUTE,
      { timeout: 20_000 },
    );
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    await ready();
    return response;
  };
  const reload = page.reload.bind(page);
  page.reload = async (options) => {
    const response = await reload(options);
    await ready();
    return response;
  };
}

/**
 * Opens pages in separate browser contexts (separate people) that record console errors into
 * `errors`; `closeAll` ends them. Journeys get one as the `people` fixture (fixtures.ts).
 */
export function people(browser: Browser) {
  const errors: string[] = [];
  const contexts: BrowserContext[] = [];
  return {
    errors,
    async open({ cookieChoice = true, storageState, context: options }: OpenOptions = {}): Promise<Page> {
      const context = await browser.newContext({ ...options, ...(storageState ? { storageState } : {}) });
      if (cookieChoice) {
        // Where a saved choice lives: local storage, and the cookie a server-rendered page reads.
        await context.addInitScript(() => {
          if (!window.localStorage.getItem('cookiePreferences')) {
            window.localStorage.setItem('cookiePreferences', '{"necessary":true,"analytics":false,"marketing":false}');
          }
        });
        await context.addCookies([
          {
            name: 'cookiePreferences',
            value: encodeURIComponent('{"necessary":true,"analytics":false,"marketing":false}'),
            url: process.env.E2E_BASE_URL!,
          },
        ]);
      }
      // No internet here: the default tile server's images are a blank PNG, unless a journey routes them itself.
      await context.route(`${mapTileSource(DEFAULT_MAP_TILES.url)}/**`, (route) =>
        route.fulfill({ status: 200, contentType: 'image/png', body: BLANK_PNG }),
      );
      contexts.push(context);
      context.on('page', readyOnLoad);
      const page = await context.newPage();
      watchErrors(page, errors);
      return page;
    },
    async closeAll() {
      for (const c of contexts) await c.close();
    },
  };
}

export type People = ReturnType<typeof people>;

/**
 * Picks, in the Mantine select labelled `label` (inside `scope`, e.g. a dialog, when given), the
 * option labelled exactly `option`, the one matching a RegExp, or the last one. The listbox opens
 * in a portal, so it is looked up on the page.
 */
export async function pickExact(
  page: Page,
  label: string,
  option: string | RegExp | 'last',
  scope: Page | Locator = page,
) {
  await waitForApp(page);
  await scope.getByRole('combobox', { name: label }).click();
  const options = page.getByRole('listbox', { name: label }).getByRole('option');
  if (option === 'last') return options.last().click();
  return options.filter({ hasText: typeof option === 'string' ? new RegExp(`^${option}$`) : option }).click();
}

/**
 * Adds a slot on the business dashboard on the last offered date (a whole opening day) from
 * `start` to `end` (12-hour labels, e.g. '9:00 am'), and waits for it in the Available tab.
 */
export async function addSlotOnLastDate(page: Page, start: string, end: string, description: string) {
  await pickExact(page, 'Date', 'last');
  await pickExact(page, 'Start time', start);
  await pickExact(page, 'End time', end);
  await page.getByRole('textbox', { name: 'Description' }).fill(description);
  await page.getByRole('button', { name: 'Add Slot' }).click();
  await expect(page.getByText('Slot added successfully').last()).toBeVisible();
  await expect(page.getByTestId('slot-row').filter({ hasText: description })).toBeVisible();
}

/**
 * Makes `account` (a business when it has a slug, its profile `profile` over BUSINESS_PROFILE) as a
 * confirmed account through the development server's dev.createAccount (docs/decisions/0040), and
 * signs `page`'s browser context in as it: the answer's session cookie lands in the context's
 * cookie jar. No screen is visited. `origin`: the server asked (default: the suite's baseURL).
 */
export async function signIn(
  page: Page,
  account: CustomerAccount | BusinessAccount,
  options: { profile?: Partial<BusinessProfile>; origin?: string } = {},
) {
  const origin = options.origin ?? process.env.E2E_BASE_URL!;
  const input: DevAccountInput =
    'slug' in account
      ? { role: 'business', ...account, ...BUSINESS_PROFILE, ...options.profile }
      : { role: 'customer', ...account };
  // A mutation must carry this app's Origin (the server's CSRF check).
  const response = await page.request.post(`${origin}/trpc/dev.createAccount`, {
    headers: { origin },
    data: { json: input },
  });
  expect(response.status(), `dev.createAccount answered: ${await response.text()}`).toBe(200);
}

/**
 * How long the first dashboard after `signIn` may take to show: the page boots the whole app, asks
 * who is signed in and loads the dashboard's lists, which on a busy machine takes longer than one
 * step's 10 s.
 */
const FIRST_DASHBOARD_MS = 30_000;

/** A new customer `account`, signed in (`signIn`), on its dashboard at `origin` (default: baseURL). */
export async function customerOnDashboard(page: Page, account: CustomerAccount, origin?: string) {
  await signIn(page, account, { origin });
  await page.goto(`${origin ?? ''}/dashboard`);
  await expect(page.getByRole('heading', { name: 'Your Appointments' })).toBeVisible({ timeout: FIRST_DASHBOARD_MS });
}

/**
 * A new business `account` (its profile `profile` over BUSINESS_PROFILE), signed in (`signIn`),
 * on its dashboard headed by its business name. Returns `account`.
 */
export async function businessOnDashboard(
  page: Page,
  account: BusinessAccount,
  profile?: Partial<BusinessProfile>,
): Promise<BusinessAccount> {
  await signIn(page, account, { profile });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: account.businessName })).toBeVisible({ timeout: FIRST_DASHBOARD_MS });
  return account;
}

/**
 * Starts recording the text of every toast (role=alert) `page` shows from now on, however briefly:
 * one the app closes at once (a session that ended on its own closes them all) is still seen.
 * Returns a reader of the texts recorded so far, for `expect.poll`.
 */
export async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seenToasts: string[] }).seenToasts = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[role="alert"]')) {
        const text = el.textContent ?? '';
        if (text && !seen.includes(text)) seen.push(text);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { seenToasts: string[] }).seenToasts);
}
