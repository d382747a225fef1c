/**
 * The landing page and its header: the typing headline and its pause control, reduced motion, the
 * #how-it-works and #pricing sections reached from the header, the pricing texts and feature
 * lists, and the sign-up buttons.
 */
import { expect, test } from './fixtures';
import { BOOT_SCRIPTS, scriptsOf, startApp, withoutJavaScript } from './helpers';

const FIRST_PHRASE = 'cancelled appointments';
const SECOND_PHRASE = 'last-minute gaps';
const THIRD_PHRASE = 'quiet afternoons';
/** Polls that move the page's clock a step at a time: asked again at once, for many steps. */
const POLL = { intervals: [10], timeout: 20_000 };

test('the headline shows the first phrase whole, then types the next letter by letter, and can be paused', async ({
  people: { open, errors },
}) => {
  const page = await open();
  // The page's timers only move when the test says so.
  await page.clock.install({ time: new Date('2026-11-21T09:00:00') });
  await page.clock.pauseAt(new Date('2026-11-21T09:00:01'));
  await page.goto('/');
  const typed = page.getByTestId('typed-phrase');
  const heading = page.getByRole('heading', {
    level: 1,
    name: 'Fill your cancelled appointments and last-minute gaps',
    exact: true,
  });
  // Screen readers get one steady sentence; the moving text is hidden from them.
  await expect(heading).toBeVisible();
  // The server's render, before any script: the first phrase whole.
  await expect(typed).toHaveText(FIRST_PHRASE);
  // The headline is as tall with any phrase, or none: the page below it never jumps.
  const headline = page.locator('h1');
  const height = async () => (await headline.boundingBox())?.height;
  const wholeHeight = await height();
  expect(wholeHeight).toBeGreaterThan(0);

  // The app starts at the first interaction; once it runs, the 2 s pause on the whole phrase,
  // then deleting, then the second phrase letter by letter, one more each 100 ms.
  await startApp(page, () => page.clock.runFor(10));
  await expect(typed).toHaveText(FIRST_PHRASE);
  await page.clock.runFor(1900);
  await expect(typed).toHaveText(FIRST_PHRASE);
  // Deleted 50 ms a letter, after the pause.
  await expect
    .poll(async () => {
      await page.clock.runFor(50);
      return typed.textContent();
    }, POLL)
    .toBe('');
  expect(await height()).toBe(wholeHeight);
  await expect
    .poll(async () => {
      await page.clock.runFor(50);
      return typed.textContent();
    }, POLL)
    .toBe(SECOND_PHRASE.slice(0, 1));
  let shown = SECOND_PHRASE.slice(0, 1);
  while (shown.length < SECOND_PHRASE.length) {
    await page.clock.runFor(100);
    shown = SECOND_PHRASE.slice(0, shown.length + 1);
    await expect(typed).toHaveText(shown);
  }
  expect(await height()).toBe(wholeHeight);

  // Pause: it stands still on the whole phrase; Play: it moves on to the next phrase.
  await page.getByRole('button', { name: 'Pause headline animation' }).click();
  await page.clock.runFor(10_000);
  await expect(typed).toHaveText(SECOND_PHRASE);
  await page.getByRole('button', { name: 'Play headline animation' }).click();
  for (let i = 0; i < 60 && !(await typed.textContent())?.startsWith('q'); i += 1) await page.clock.runFor(100);
  const next = (await typed.textContent()) ?? '';
  expect(next.length).toBeGreaterThan(0);
  expect(THIRD_PHRASE.startsWith(next)).toBe(true);
  expect(errors).toEqual([]);
});

test("a visitor without a session gets the landing page whole in its HTML; the app's script comes at the first interaction", async ({
  people: { open, errors },
  browser,
}) => {
  // With JavaScript off: the headline with its first phrase, the sections, the calls to action,
  // the title and (no choice saved) the cookie banner, from the HTML alone.
  await withoutJavaScript(browser, '/', async (still) => {
    await expect(still).toHaveTitle('Last-minute appointment booking | LastSlot');
    await expect(still.getByRole('heading', { level: 1 })).toHaveText(/Fill your cancelled appointments/);
    await expect(still.getByTestId('typed-phrase')).toHaveText(FIRST_PHRASE);
    await expect(still.getByRole('heading', { name: 'How it works' })).toBeVisible();
    await expect(still.getByRole('heading', { name: 'Pricing', exact: true })).toBeAttached();
    await expect(still.getByRole('link', { name: 'Get started free' })).toHaveAttribute('href', '/register');
    await expect(still.getByRole('region', { name: 'Cookie consent' })).toBeVisible();
  });

  // A visitor who only looks loads the boot script, then nothing more.
  const page = await open({ cookieChoice: false });
  const scripts = scriptsOf(page);
  await page.goto('/');
  const banner = page.getByRole('region', { name: 'Cookie consent' });
  await expect(banner).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts).toEqual(BOOT_SCRIPTS);

  // A tap before the app has run is answered once it has: the choice is saved, the banner goes.
  await banner.getByRole('button', { name: 'Accept All' }).click();
  await expect(banner).toHaveCount(0);
  expect(scripts[0]).toBe('boot');
  expect(scripts).toContain('app');
  expect(await page.evaluate(() => window.localStorage.getItem('cookiePreferences'))).toBe(
    '{"necessary":true,"analytics":true,"marketing":true}',
  );
  expect(errors).toEqual([]);
});

test('a visitor who scrolls before the app runs stays where they scrolled to once it has', async ({
  people: { open, errors },
}) => {
  const page = await open();
  await page.setViewportSize({ width: 375, height: 700 });
  await page.goto('/');
  // The scroll is the first interaction: it loads the app, which must not scroll the page back.
  await page.evaluate(() => window.scrollTo(0, 900));
  await startApp(page);
  expect(await page.evaluate(() => window.scrollY)).toBe(900);
  expect(errors).toEqual([]);
});

test('with reduced motion the first phrase stands still from the first frame, without a pause button', async ({
  people: { open, errors },
}) => {
  const page = await open();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  // Record every text the phrase ever shows, from its first render.
  await page.addInitScript(() => {
    const texts: string[] = [];
    (window as unknown as { typedTexts: string[] }).typedTexts = texts;
    new MutationObserver(() => {
      const el = document.querySelector('[data-testid="typed-phrase"]');
      if (el && texts.at(-1) !== el.textContent) texts.push(el.textContent ?? '');
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto('/');
  const typed = page.getByTestId('typed-phrase');
  await expect(typed).toHaveText(FIRST_PHRASE);
  await page.waitForTimeout(600); // long enough for several typing steps, were it moving
  await expect(typed).toHaveText(FIRST_PHRASE);
  expect(await page.evaluate(() => (window as unknown as { typedTexts: string[] }).typedTexts)).toEqual([FIRST_PHRASE]);
  await expect(page.getByRole('button', { name: /headline animation/ })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('About and Pricing scroll to their sections; pricing and features are listed', async ({
  people: { open, errors },
}) => {
  const page = await open();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.goto('/');
  await expect(page).toHaveTitle('Last-minute appointment booking | LastSlot');
  // Before the app runs the links are plain in-page links; the scrolling and focus are the app's.
  await startApp(page);
  const header = page.getByRole('banner');

  const howItWorks = page.locator('#how-it-works');
  await expect(howItWorks.getByRole('heading', { name: 'How it works' })).not.toBeInViewport();
  await header.getByRole('link', { name: 'About' }).click();
  await expect(howItWorks.getByRole('heading', { name: 'How it works' })).toBeInViewport({ ratio: 1 });
  await expect(howItWorks).toBeFocused();

  const pricing = page.locator('#pricing');
  await header.getByRole('link', { name: 'Pricing' }).click();
  await expect(pricing.getByRole('heading', { name: 'Pricing', exact: true })).toBeInViewport({ ratio: 1 });
  await expect(pricing).toBeFocused();
  await expect(page).toHaveURL(/\/$/);

  // Businesses: free during launch, then 9.95 GBP a month for life (list 19.95); customers free.
  const businesses = pricing
    .locator('.mantine-Card-root')
    .filter({ has: page.getByRole('heading', { name: 'Businesses' }) });
  await expect(businesses).toContainText('Free');
  await expect(businesses).toContainText('during launch');
  await expect(businesses).toContainText('£9.95 a month for life');
  await expect(businesses).toContainText('£19.95');
  await expect(businesses).toContainText('No card needed');
  for (const feature of [
    'Unlimited slots',
    'A dedicated booking page',
    'Email notifications',
    'QR code sharing',
    'One dashboard for slot and booking tracking, separate from your main schedule',
  ]) {
    await expect(businesses.getByRole('listitem').filter({ hasText: feature })).toBeVisible();
  }
  const customers = pricing
    .locator('.mantine-Card-root')
    .filter({ has: page.getByRole('heading', { name: 'Customers' }) });
  await expect(customers).toContainText('Free');
  await expect(customers).toContainText('always');
  for (const feature of [
    /Find slots/,
    'Bookmark favourites',
    'Quick booking',
    'Email confirmations',
    'Booking history',
  ]) {
    await expect(customers.getByRole('listitem').filter({ hasText: feature })).toBeVisible();
  }

  // The audiences: every business type named.
  for (const type of ['MedSpas', 'Aesthetic clinics', 'Hairdressers', 'Barbers', 'Tattoo artists']) {
    await expect(page.getByText(type, { exact: true })).toBeVisible();
  }
  // The sample slot card.
  await expect(page.getByText('Cut & blow-dry')).toBeVisible();
  expect(errors).toEqual([]);
});

test('every sign-up button leads to /register', async ({ people: { open, errors } }) => {
  const page = await open();
  const buttons: Array<[string, RegExp]> = [
    ['Get started free', /\/register$/],
    ['Sign up your business', /\/register$/],
    ['Sign up as a customer', /\/register\?role=customer$/],
    ['Create your booking page', /\/register$/],
    ['Sign Up', /\/register$/],
  ];
  for (const [name, url] of buttons) {
    await page.goto('/');
    await page.getByRole('link', { name, exact: true }).first().click();
    await expect(page).toHaveURL(url);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  expect(errors).toEqual([]);
});

test('every public route names the page in the title', async ({ people: { open, errors } }) => {
  const page = await open();
  const routes: Array<[string, string]> = [
    ['/', 'Last-minute appointment booking | LastSlot'],
    ['/login', 'Log in | LastSlot'],
    ['/register', 'Create account | LastSlot'],
    ['/forgot-password', 'Reset your password | LastSlot'],
    ['/reset-password', 'Set a new password | LastSlot'],
    ['/no-such-page/at-all', 'Page not found | LastSlot'],
  ];
  for (const [path, title] of routes) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(title);
  }
  // Signed-in pages send a visitor to log in, whose title follows.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login/);
  await expect(page).toHaveTitle('Log in | LastSlot');
  expect(errors).toEqual([]);
});
