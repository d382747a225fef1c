/**
 * A tap before the app runs, as on a slow phone: the CPU throttled 6x and the app's script held
 * back until the test has looked, so every tap lands before the app runs; on the pages whose app
 * loads at the first interaction (/, /{slug} and /discover; client/boot.ts, ADR 0080) and on a page
 * whose app loads at once (the business dashboard). The page's head holds the tap
 * (client/lib/hold-before-start.ts): a button's tap is shown as taken at once (data-tap-pending
 * and aria-busy on it, data-tap-pending on <html>: the page's progress bar); once the app has
 * hydrated the page the tap takes effect exactly once and the marks go
 * (client/lib/tap-before-start.ts). A link works as a link meanwhile: the browser follows it
 * without the app.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  addFirstSlot,
  appHasStarted,
  BOOT_SCRIPTS,
  businessOnDashboard,
  newBusiness,
  newCustomer,
  people,
  requestSlot,
  scriptsOf,
  signIn,
  startApp,
  type CustomerAccount,
  type OpenOptions,
} from './helpers';
import { HYDRATED_MS, pageHeardTaps, PENDING, replayedClicks, slowPhone } from './slow-phone';
import { proceduresOf } from './trpc-stubs';

// A page hydrates slowly on a CPU throttled 6x; each worker (a new one after a failure) has its
// own business.
test.describe.configure({ timeout: 180_000 });
const tag = `t${Date.now().toString(36)}`;
const business = newBusiness(tag);
const slotDescription = `Tap slot ${tag}`;
/** A business whose dashboard has a pending request: a customer requested its slot `requested`. */
const owner = newBusiness(`${tag}-dash`);
const requested = `Requested slot ${tag}`;
/** The owner's signed-in browser state. */
let ownerSignedIn: OpenOptions['storageState'];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const { open, closeAll, errors } = people(browser);
  try {
    const biz = await open();
    await businessOnDashboard(biz, business);
    await addFirstSlot(biz, slotDescription);
    const ownerPage = await open();
    await businessOnDashboard(ownerPage, owner);
    await addFirstSlot(ownerPage, requested);
    ownerSignedIn = await ownerPage.context().storageState();
    const customer = await open();
    await signIn(customer, newCustomer(`${tag}-dash`));
    await customer.goto(`/${owner.slug}`);
    await requestSlot(customer, requested);
    expect(errors).toEqual([]);
  } finally {
    await closeAll();
  }
});

/** A button tapped before the app runs, and what the tap does once the app has come. */
interface ButtonTap {
  /** The page's address. */
  path: string;
  /** How the person's browser starts (e.g. without a cookie choice, or signed in as a business). */
  options?: OpenOptions;
  /** The customer the person is signed in as, if any. */
  customer?: CustomerAccount;
  /** The button tapped. */
  control: (page: Page) => Locator;
  /** How the button shows it was taken, when not dimmed: a tab shows as pressed (its background). */
  taken?: { opacity: string; background: string };
  /**
   * Checks the tap's effect once the app runs (waiting up to HYDRATED_MS for it); returns the
   * button as it then stands on the page, unless the tap took it away.
   */
  answered: (page: Page) => Promise<Locator | undefined>;
}

/**
 * On a slow phone (`slowPhone`), taps `tap.control` on `tap.path` before the app runs and checks
 * that the tap was taken at once: the button marked pending and busy, dimmed (or as `tap.taken`
 * says); <html> marked, its progress bar showing; the app asked for but not yet running. Then lets
 * the app come and checks the tap's effect (`tap.answered`), that the app clicked the button again
 * exactly once, and that the marks are gone. Returns the page.
 */
async function tapBeforeStart(open: (options?: OpenOptions) => Promise<Page>, tap: ButtonTap): Promise<Page> {
  const phone = await slowPhone(open, tap.options);
  const { page } = phone;
  if (tap.customer) await signIn(page, tap.customer);
  // The frame's own goto: the page's (helpers.ts) waits for the app, whose script is held back.
  await page.mainFrame().goto(tap.path, { waitUntil: 'commit' });
  const control = tap.control(page);
  await expect(control).toBeVisible();
  // The app's script is asked for at once, or the boot script that asks for it at the first tap has run.
  await expect.poll(() => phone.appAsked() || page.evaluate(() => document.readyState === 'complete')).toBe(true);
  expect(await appHasStarted(page)).toBe(false);
  await control.click();
  // Read at once: the head's script marks the button while the click is dispatched.
  const marks = await control.evaluate((el, pending) => {
    const bar = getComputedStyle(document.documentElement, '::before');
    return {
      control: el.getAttribute(pending),
      busy: el.getAttribute('aria-busy'),
      opacity: getComputedStyle(el).opacity,
      background: getComputedStyle(el).backgroundColor,
      html: document.documentElement.getAttribute(pending),
      bar: { content: bar.content, height: bar.height },
    };
  }, PENDING);
  expect(marks).toMatchObject({ control: '', busy: 'true', html: '', bar: { content: '""', height: '3px' } });
  // Dimmed, or as `tap.taken` says.
  expect(marks).toMatchObject(tap.taken ?? { opacity: '0.7' });
  expect(phone.appAsked()).toBe(true);
  expect(await appHasStarted(page)).toBe(false);
  expect(await replayedClicks(page)).toEqual([]);
  // Held at the window: nothing of the page, React included once it hydrates, answers it as well.
  expect(await pageHeardTaps(page)).toEqual([]);

  phone.release();
  await expect.poll(() => appHasStarted(page), { timeout: HYDRATED_MS }).toBe(true);
  const left = await tap.answered(page);
  expect(await replayedClicks(page)).toHaveLength(1);
  await expect(page.locator('html')).not.toHaveAttribute(PENDING);
  await expect(page.locator(`[${PENDING}]`)).toHaveCount(0);
  if (left) await expect(left).not.toHaveAttribute('aria-busy');
  return page;
}

/**
 * Taps `link` on `path` before the app runs: the browser follows it as a link, at once, while the
 * app's script is still held back, to `url` (one navigation each), where the page, once its app
 * has come, shows `arrived`. `options`: how the person's browser starts.
 */
async function followLinkBeforeStart(
  open: (options?: OpenOptions) => Promise<Page>,
  path: string,
  link: (page: Page) => Locator,
  url: RegExp,
  arrived: (page: Page) => Locator,
  options?: OpenOptions,
) {
  const phone = await slowPhone(open, options);
  const { page } = phone;
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname);
  });
  // The frame's own goto: the page's (helpers.ts) waits for the app, whose script is held back.
  await page.mainFrame().goto(path, { waitUntil: 'commit' });
  const target = link(page);
  await expect(target).toBeVisible();
  const href = await target.getAttribute('href');
  await target.click();
  await expect(page).toHaveURL(url);
  phone.release();
  await expect(arrived(page)).toBeVisible({ timeout: HYDRATED_MS });
  expect(documents).toEqual([path, new URL(href!, 'http://x').pathname]);
}

test.describe('/{slug}', () => {
  const path = `/${business.slug}`;
  const slotOf = (page: Page) => page.getByTestId('public-slot').filter({ hasText: slotDescription });

  test("the cookie banner's Accept All: the choice is saved and the banner goes", async ({
    people: { open, errors },
  }) => {
    const banner = (page: Page) => page.getByRole('region', { name: 'Cookie consent' });
    await tapBeforeStart(open, {
      path,
      options: { cookieChoice: false },
      control: (page) => banner(page).getByRole('button', { name: 'Accept All' }),
      answered: async (page) => {
        await expect(banner(page)).toHaveCount(0, { timeout: HYDRATED_MS });
        expect(await page.evaluate(() => window.localStorage.getItem('cookiePreferences'))).toBe(
          '{"necessary":true,"analytics":true,"marketing":true}',
        );
        return undefined;
      },
    });
    expect(errors).toEqual([]);
  });

  test("a visitor's tap on a slot's request button opens the sign-in dialog", async ({ people: { open, errors } }) => {
    const request = (page: Page) => slotOf(page).getByRole('button', { name: 'Login or Sign Up to Request' });
    await tapBeforeStart(open, {
      path,
      control: request,
      answered: async (page) => {
        const dialog = page.getByRole('dialog', { name: 'Sign in to request' });
        await expect(dialog.getByText('Please log in to book an appointment')).toBeVisible({ timeout: HYDRATED_MS });
        await expect(page.getByRole('dialog')).toHaveCount(1);
        return request(page);
      },
    });
    expect(errors).toEqual([]);
  });

  test("a visitor's tap on the favourite button opens the sign-in dialog", async ({ people: { open, errors } }) => {
    const favourite = (page: Page) => page.getByRole('button', { name: 'Favourite · 0' });
    await tapBeforeStart(open, {
      path,
      control: favourite,
      answered: async (page) => {
        const dialog = page.getByRole('dialog', { name: 'Sign in to save favourites' });
        await expect(dialog.getByText('Please log in to save your favourite businesses')).toBeVisible({
          timeout: HYDRATED_MS,
        });
        await expect(page.getByRole('dialog')).toHaveCount(1);
        return favourite(page);
      },
    });
    expect(errors).toEqual([]);
  });

  test("a signed-in customer's tap on a slot's request button opens the request dialog", async ({
    people: { open, errors },
  }) => {
    await tapBeforeStart(open, {
      path,
      customer: newCustomer(`${tag}-request`),
      // The slot's one button, whatever the page says on it before the app runs.
      control: (page) => slotOf(page).getByRole('button'),
      answered: async (page) => {
        const dialog = page.getByRole('dialog', { name: 'Request this appointment' });
        await expect(dialog.getByRole('button', { name: 'Send Request' })).toBeVisible({ timeout: HYDRATED_MS });
        await expect(dialog).toContainText(slotDescription);
        await expect(page.getByRole('dialog')).toHaveCount(1);
        return slotOf(page).getByRole('button', { name: /^Request/ });
      },
    });
    expect(errors).toEqual([]);
  });

  test("a signed-in customer's tap on the favourite button favourites the business", async ({
    people: { open, errors },
  }) => {
    const favourited = (page: Page) => page.getByRole('button', { name: /^Favourited · \d+$/ });
    const page = await tapBeforeStart(open, {
      path,
      customer: newCustomer(`${tag}-favourite`),
      control: (page) => page.getByRole('button', { name: /^Favourite/ }),
      answered: async (page) => {
        // Once: a second click would have taken the favourite back.
        await expect(favourited(page)).toHaveAttribute('aria-pressed', 'true', { timeout: HYDRATED_MS });
        await expect(page.getByRole('dialog')).toHaveCount(0);
        return favourited(page);
      },
    });
    // Saved: the page, asked again, says so.
    await page.reload();
    await expect(favourited(page)).toHaveAttribute('aria-pressed', 'true');
    expect(errors).toEqual([]);
  });

  test("the header's Login link is followed at once, without the app", async ({ people: { open, errors } }) => {
    await followLinkBeforeStart(
      open,
      path,
      (page) => page.getByRole('banner').getByRole('link', { name: 'Login' }),
      /\/login$/,
      (page) => page.getByRole('button', { name: 'Log In' }),
    );
    expect(errors).toEqual([]);
  });
});

test.describe('/', () => {
  test("the headline's pause button pauses the typing", async ({ people: { open, errors } }) => {
    await tapBeforeStart(open, {
      path: '/',
      control: (page) => page.getByRole('button', { name: 'Pause headline animation' }),
      answered: async (page) => {
        // Once: a second click would have set it playing again.
        const play = page.getByRole('button', { name: 'Play headline animation' });
        await expect(play).toBeVisible({ timeout: HYDRATED_MS });
        await expect(page.getByRole('button', { name: 'Pause headline animation' })).toHaveCount(0);
        return play;
      },
    });
    expect(errors).toEqual([]);
  });

  const register = (page: Page) => page.getByRole('button', { name: /^(Continue|Create Account)$/ });
  const links: Array<[name: string, url: RegExp, arrived: (page: Page) => Locator]> = [
    ['Get started free', /\/register$/, register],
    ['Log in', /\/login$/, (page) => page.getByRole('button', { name: 'Log In' })],
    ['Sign up your business', /\/register$/, register],
    ['Sign up as a customer', /\/register\?role=customer$/, register],
    ['Create your booking page', /\/register$/, register],
  ];
  for (const [name, url, arrived] of links) {
    test(`the landing page's '${name}' link is followed at once, without the app`, async ({
      people: { open, errors },
    }) => {
      await followLinkBeforeStart(
        open,
        '/',
        (page) => page.getByRole('main').getByRole('link', { name, exact: true }),
        url,
        arrived,
      );
      expect(errors).toEqual([]);
    });
  }
});

test.describe('/discover', () => {
  test('a time chip tapped before the app is taken at once, then moves the search to its window', async ({
    people: { open, errors },
  }) => {
    const phone = await slowPhone(open);
    const { page } = phone;
    await page.goto('/discover?place=Manchester');
    const chip = page.getByRole('radio', { name: 'Tomorrow' });
    await expect(page.locator('label', { hasText: 'Tomorrow' })).toBeVisible();
    await expect(chip).not.toBeChecked();
    expect(await appHasStarted(page)).toBe(false);
    await page.locator('label', { hasText: 'Tomorrow' }).click();
    // The radio itself is hidden: its label shows the tap as taken.
    const marks = await chip.evaluate(
      (el, pending) => ({
        control: el.getAttribute(pending),
        busy: el.getAttribute('aria-busy'),
        label: (el as HTMLInputElement).labels?.[0]
          ? getComputedStyle((el as HTMLInputElement).labels![0]!).opacity
          : null,
        html: document.documentElement.getAttribute(pending),
      }),
      PENDING,
    );
    expect(marks).toEqual({ control: '', busy: 'true', label: '0.7', html: '' });
    await expect(chip).not.toBeChecked();
    expect(await appHasStarted(page)).toBe(false);

    phone.release();
    await expect.poll(() => appHasStarted(page), { timeout: HYDRATED_MS }).toBe(true);
    await expect(page).toHaveURL(/[?&]window=tomorrow/, { timeout: HYDRATED_MS });
    await expect(chip).toBeChecked();
    expect(await replayedClicks(page)).toHaveLength(1);
    await expect(page.locator(`[${PENDING}]`)).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  // A shared link's distance changed before the app runs, with the mouse and with the keyboard.
  for (const how of ['mouse', 'keyboard'] as const) {
    test(`a distance picked before the app (${how}) is the one searched`, async ({ people: { open, errors } }) => {
      const phone = await slowPhone(open);
      const { page } = phone;
      const searched: number[] = [];
      page.on('request', (request) => {
        const url = request.url();
        if (!new URL(url).pathname.startsWith('/trpc/')) return;
        const at = proceduresOf(url).indexOf('discovery.search');
        if (at === -1) return;
        const input = JSON.parse(new URL(url).searchParams.get('input') ?? '{}') as Record<
          string,
          { json: { miles: number } }
        >;
        searched.push(input[at]!.json.miles);
      });
      await page.goto('/discover?lat=51.507&lng=-0.128&miles=10');
      const distance = page.getByLabel('Distance');
      await expect(distance).toHaveValue('10');
      expect(await appHasStarted(page)).toBe(false);
      if (how === 'mouse') await distance.selectOption('2');
      else {
        // From 10 miles, two up: 5, then 2.
        await distance.focus();
        await page.keyboard.press('ArrowUp');
        await page.keyboard.press('ArrowUp');
      }
      await expect(distance).toHaveValue('2');
      expect(await appHasStarted(page)).toBe(false);

      phone.release();
      await expect.poll(() => appHasStarted(page), { timeout: HYDRATED_MS }).toBe(true);
      await expect(page).toHaveURL(/[?&]miles=2(&|$)/, { timeout: HYDRATED_MS });
      await expect(distance).toHaveValue('2');
      // The list is the one for 2 miles: the last search asked is for 2 miles.
      await expect.poll(() => searched.at(-1), { timeout: HYDRATED_MS }).toBe(2);
      await expect(page.getByTestId('discover-summary')).not.toHaveText(/Searching/, { timeout: HYDRATED_MS });
      expect(searched.at(-1)).toBe(2);
      await expect(distance).toHaveValue('2');
      await expect(page.locator(`[${PENDING}]`)).toHaveCount(0);
      expect(errors).toEqual([]);
    });
  }

  test('the app loads at the first interaction, not before', async ({ people: { open, errors } }) => {
    const page = await open();
    const scripts = scriptsOf(page);
    await page.goto('/discover?place=Manchester');
    await page.waitForLoadState('networkidle');
    expect(scripts).toEqual(BOOT_SCRIPTS);
    await startApp(page);
    expect(scripts.filter((s) => !BOOT_SCRIPTS.includes(s))).toContain('app');
    expect(errors).toEqual([]);
  });
});

// A page whose app loads at once: a signed-in business's dashboard, whole in the server's HTML.
test.describe('/dashboard', () => {
  test('the Booked tab tapped before the app runs is the tab shown', async ({ people: { open, errors } }) => {
    const booked = (page: Page) => page.getByRole('tab', { name: 'Booked', exact: true });
    await tapBeforeStart(open, {
      path: '/dashboard',
      options: { storageState: ownerSignedIn },
      control: booked,
      // Mantine's gray-0, a tab's hover colour.
      taken: { opacity: '1', background: 'rgb(248, 249, 250)' },
      answered: async (page) => {
        await expect(booked(page)).toHaveAttribute('aria-selected', 'true', { timeout: HYDRATED_MS });
        await expect(page.getByText('No booked slots')).toBeVisible();
        return booked(page);
      },
    });
    expect(errors).toEqual([]);
  });

  test("the header's Discover link is followed at once, without the app", async ({ people: { open, errors } }) => {
    await followLinkBeforeStart(
      open,
      '/dashboard',
      (page) => page.getByRole('banner').getByRole('link', { name: 'Discover' }),
      /\/discover$/,
      (page) => page.getByRole('search', { name: 'Where' }),
      { storageState: ownerSignedIn },
    );
    expect(errors).toEqual([]);
  });

  test("a pending request's Confirm Booking tapped before the app runs opens its confirmation", async ({
    people: { open, errors },
  }) => {
    const confirm = (page: Page) =>
      page
        .getByTestId('booking-request')
        .filter({ hasText: requested })
        .getByRole('button', { name: 'Confirm Booking' });
    await tapBeforeStart(open, {
      path: '/dashboard',
      options: { storageState: ownerSignedIn },
      control: confirm,
      answered: async (page) => {
        const dialog = page.getByRole('dialog', { name: 'Confirm this booking?' });
        await expect(dialog).toBeVisible({ timeout: HYDRATED_MS });
        await expect(dialog).toContainText(requested);
        await expect(page.getByRole('dialog')).toHaveCount(1);
        return confirm(page);
      },
    });
    expect(errors).toEqual([]);
  });
});
