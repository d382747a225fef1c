/**
 * Automated accessibility check: axe-core over every screen group, with data (a slot, a
 * pending request, a confirmed booking), the cookie banner and its dialog, the legal dialogs and
 * the phone menu, at desktop and phone width: zero serious or critical violations, and at 375 px
 * no page wider than the screen. Plus one keyboard-only login with a visible focus indicator.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  addFirstSlot,
  addSlotOnLastDate,
  confirmFromMailbox,
  customerOnDashboard,
  newBusiness,
  newCustomer,
  people,
  pick,
  pickExact,
  requestSlot,
  signUpBusiness,
  type People,
} from './helpers';

const tag = `a${Date.now().toString(36)}`;
const VIEWPORTS = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 375, height: 740 }],
] as const;

/** Zero serious or critical axe violations on `page` (or inside `scope`), and no sideways scrolling. */
async function expectAccessible(page: Page, name: string, scope?: string) {
  await page.waitForLoadState('networkidle');
  // A dialog, menu or toast still fading in would be measured half-transparent (false contrast
  // failures). No running animation is not enough: a Mantine transition first renders its start
  // (opacity 0, nothing animating yet) and starts the fade a frame or two later. So wait for the
  // end: every shown element that Mantine animates (its transition is in its inline style) fully
  // opaque (a computed opacity is 1 only once its fade is over), and no finite animation running.
  await page.waitForFunction(() => {
    const running = document
      .getAnimations()
      .some((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity);
    const fading = [...document.querySelectorAll<HTMLElement>('[style*="transition-property"]')].some(
      (el) => el.checkVisibility() && getComputedStyle(el).opacity !== '1',
    );
    return !running && !fading;
  });
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (scope) builder = builder.include(scope);
  const results = await builder.analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  const width = page.viewportSize()?.width;
  expect.soft(serious, `${name} at ${width} px: serious or critical axe violations`).toEqual([]);
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
  );
  expect.soft(sideways, `${name} at ${width} px: wider than the screen`).toBe(false);
}

/** Visits `path` and checks it at each width; `ready` is what shows once the page has loaded. */
async function checkAtBothWidths(
  page: Page,
  path: string,
  ready: (page: Page) => Locator,
  extra?: () => Promise<void>,
) {
  for (const [, viewport] of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.goto(path);
    await expect(ready(page)).toBeVisible();
    await expectAccessible(page, path);
    if (extra) await extra();
  }
}

test('the cookie banner and its dialog have no serious accessibility violations', async ({
  people: { open, errors },
}) => {
  const page = await open({ cookieChoice: false }); // no saved choice: the banner shows
  await checkAtBothWidths(
    page,
    '/',
    (p) => p.getByRole('region', { name: 'Cookie consent' }),
    async () => {
      await page.getByRole('button', { name: 'Customize' }).click();
      await expect(page.getByRole('dialog', { name: 'Cookie preferences' })).toBeVisible();
      await expectAccessible(page, 'cookie preferences dialog');
      await page.getByRole('button', { name: 'Cancel' }).click();
    },
  );
  expect(errors).toEqual([]);
});

test('the 404 page has no serious accessibility violations', async ({ people: { open, errors } }) => {
  const page = await open();
  await checkAtBothWidths(page, `/no-such-page/${tag}`, (p) =>
    p.getByRole('heading', { name: 'Oops! Page not found' }),
  );
  expect(errors).toEqual([]);
});

test.describe.serial('every page, with data, at desktop and 375 px', () => {
  let crowd: People;
  const business = newBusiness(tag);
  const customer = newCustomer(tag);
  const pendingSlot = `Pending cut ${tag}`;
  const bookedSlot = `Booked colour ${tag}`;
  const freeSlot = `Free trim ${tag}`;
  let biz: Page;
  let cust: Page;
  const heading = (name: string | RegExp) => (p: Page) => p.getByRole('heading', { name }).first();

  test.beforeAll(({ browser }) => {
    crowd = people(browser);
  });
  test.afterAll(async () => {
    expect(crowd.errors).toEqual([]);
    await crowd.closeAll();
  });

  test("visitors' pages, the legal dialogs and the phone menu", async () => {
    test.setTimeout(360_000);
    const visitor = await crowd.open();
    await checkAtBothWidths(visitor, '/', heading(/Fill your/), async () => {
      for (const dialog of ['Terms & Conditions', 'Privacy Policy']) {
        await visitor.getByRole('contentinfo').getByRole('button', { name: dialog }).click();
        await expect(visitor.getByRole('dialog', { name: dialog })).toBeVisible();
        await expectAccessible(visitor, `${dialog} dialog`);
        await visitor.keyboard.press('Escape');
        await expect(visitor.getByRole('dialog')).toBeHidden();
      }
      if ((visitor.viewportSize()?.width ?? 0) < 500) {
        await visitor.getByRole('button', { name: 'Open menu' }).click();
        await expect(visitor.locator('#mobile-menu')).toBeVisible();
        await expectAccessible(visitor, 'phone menu');
      }
    });
    await checkAtBothWidths(visitor, '/login', (p) => p.getByLabel('Email'));
    await checkAtBothWidths(visitor, '/register', (p) => p.getByLabel('Full name'));
    await checkAtBothWidths(visitor, '/register?role=customer', (p) => p.getByLabel('Full name'));
    await checkAtBothWidths(visitor, '/forgot-password', (p) => p.getByLabel('Email'));
    await checkAtBothWidths(visitor, '/reset-password', (p) => p.getByRole('heading').first());
    await checkAtBothWidths(visitor, '/check-email', (p) => p.getByRole('heading').first());
    await checkAtBothWidths(visitor, '/discover', heading('Discover'));
    await checkAtBothWidths(visitor, '/demo-salon', (p) => p.getByRole('heading').first());
    await checkAtBothWidths(visitor, `/unsubscribe/not-a-token-${tag}`, heading('Email preferences'));
  });

  test('a business with a pending request, a booked slot and a free one: check-email, dashboard, settings, QR code, contact, public page', async () => {
    test.setTimeout(240_000);
    // A business signs up through the screens (for /check-email), confirms, and publishes two slots.
    biz = await crowd.open();
    await signUpBusiness(biz, business);
    await checkAtBothWidths(biz, '/check-email', heading('Check your email'));
    await biz.setViewportSize(VIEWPORTS[0][1]);
    await confirmFromMailbox(biz, business.email);
    await addFirstSlot(biz, pendingSlot);
    // The same day as the first slot (the last offered date), after it.
    await pickExact(biz, 'Date', 'last');
    await pickExact(biz, 'Start time', '11:00 am');
    await pick(biz, 'End time');
    await biz.getByRole('textbox', { name: 'Description' }).fill(bookedSlot);
    await biz.getByRole('button', { name: 'Add Slot' }).click();
    await expect(biz.getByTestId('slot-row').filter({ hasText: bookedSlot })).toBeVisible();

    // A customer requests both; the business confirms one.
    cust = await crowd.open();
    await customerOnDashboard(cust, customer);
    await cust.goto(`/${business.slug}`);
    await requestSlot(cust, pendingSlot);
    await requestSlot(cust, bookedSlot);
    const request = biz.getByTestId('booking-request').filter({ hasText: bookedSlot });
    await request.getByRole('button', { name: 'Confirm Booking' }).click();
    await biz.getByRole('dialog').getByRole('button', { name: 'Yes, confirm' }).click();
    await expect(request).toHaveCount(0);
    await expect(biz.getByTestId('booking-request').filter({ hasText: pendingSlot })).toBeVisible();

    await checkAtBothWidths(
      biz,
      '/dashboard',
      (p) => p.getByTestId('booking-request').first(),
      async () => {
        await biz.getByRole('tab', { name: 'Booked', exact: true }).click();
        await expect(biz.getByTestId('slot-row').filter({ hasText: bookedSlot })).toBeVisible();
        await expectAccessible(biz, 'business dashboard, Booked tab');
        if ((biz.viewportSize()?.width ?? 0) < 500) {
          await biz.getByRole('button', { name: 'Open menu' }).click();
          await expect(biz.locator('#mobile-menu')).toBeVisible();
          await expectAccessible(biz, 'signed-in phone menu');
        }
      },
    );
    await checkAtBothWidths(biz, '/settings', heading('Settings'));
    await checkAtBothWidths(biz, '/qrcode', (p) => p.getByRole('button', { name: 'Copy' }));
    await checkAtBothWidths(biz, '/contact', (p) => p.getByLabel('Subject'));
    // A free slot too, so the public page shows its list of requestable slots under their day's
    // heading, as /demo-salon does (colour contrast of the day headings).
    await biz.goto('/dashboard');
    await addSlotOnLastDate(biz, '2:00 pm', '2:30 pm', freeSlot);
    await checkAtBothWidths(biz, `/${business.slug}`, (p) =>
      p.getByTestId('public-slot').filter({ hasText: freeSlot }),
    );
  });

  test('the customer with a pending request and a confirmed booking: dashboard, settings, contact, public page', async () => {
    test.setTimeout(180_000);
    await checkAtBothWidths(
      cust,
      '/dashboard',
      (p) => p.getByRole('tab', { name: /Pending/ }),
      async () => {
        await cust.getByRole('tab', { name: /Pending/ }).click();
        await expect(cust.getByTestId('appointment-row').filter({ hasText: pendingSlot })).toBeVisible();
        await expectAccessible(cust, 'customer dashboard, Pending tab');
        await cust.getByRole('tab', { name: /Confirmed/ }).click();
        await expect(cust.getByTestId('appointment-row').filter({ hasText: bookedSlot })).toBeVisible();
        await expectAccessible(cust, 'customer dashboard, Confirmed tab');
      },
    );
    await checkAtBothWidths(cust, '/settings', heading('Settings'));
    await checkAtBothWidths(cust, '/contact', (p) => p.getByLabel('Subject'));
    await checkAtBothWidths(cust, `/${business.slug}`, heading(business.businessName));
  });

  test('keyboard only: Tab to the login fields, type, submit with Enter; focus is visible', async () => {
    const page = await crowd.open();
    await page.goto('/login');
    const email = page.getByLabel('Email');
    await expect(email).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    const unfocusedBorder = await email.evaluate((el) => getComputedStyle(el).borderColor);
    await tabTo(page, email);
    expect(await email.evaluate((el) => el.matches(':focus-visible'))).toBe(true);
    expect(await email.evaluate((el) => getComputedStyle(el).borderColor)).not.toBe(unfocusedBorder);
    await page.keyboard.type(customer.email);
    await tabTo(page, page.getByLabel('Password'));
    await page.keyboard.type(customer.password);
    const submit = page.getByRole('button', { name: 'Log In' });
    await tabTo(page, submit);
    const ring = await submit.evaluate((el) => {
      const style = getComputedStyle(el);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    expect(ring.style).not.toBe('none');
    expect(ring.width).toBeGreaterThan(0);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('tab', { name: /Pending/ })).toBeVisible();
  });
});

/** Presses Tab (at most 30 times) until `target` has the focus. */
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 30; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}
