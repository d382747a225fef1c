/**
 * Cookie consent (the banner, its preferences dialog and the footer's 'Cookie settings') and the
 * footer's legal dialogs, in real Chromium, starting without a saved cookie choice.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const ONE_YEAR_S = 365 * 24 * 60 * 60;

async function storedChoice(page: Page) {
  return page.evaluate(() => ({
    local: window.localStorage.getItem('cookiePreferences'),
    session: window.sessionStorage.getItem('cookiePreferences'),
  }));
}

/** Asserts `expected` is saved in local storage, session storage and the cookie; returns the cookie. */
async function expectSavedEverywhere(page: Page, expected: string) {
  expect(await storedChoice(page)).toEqual({ local: expected, session: expected });
  const cookie = (await page.context().cookies()).find((c) => c.name === 'cookiePreferences');
  expect(decodeURIComponent(cookie!.value)).toBe(expected);
  return cookie!;
}

test('the cookie banner saves a customised choice in local storage, session storage and a one-year cookie', async ({
  people: { open, errors },
}) => {
  const page = await open({ cookieChoice: false });
  await page.goto('/');
  const banner = page.getByRole('region', { name: 'Cookie consent' });
  await expect(banner.getByText('We use cookies')).toBeVisible();
  expect(await storedChoice(page)).toEqual({ local: null, session: null });
  expect((await page.context().cookies()).find((c) => c.name === 'cookiePreferences')).toBeUndefined();

  await banner.getByRole('button', { name: 'Customize' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cookie preferences' });
  await expect(dialog.getByRole('switch', { name: 'Necessary' })).toBeChecked();
  await expect(dialog.getByRole('switch', { name: 'Necessary' })).toBeDisabled();
  await expect(dialog.getByRole('switch', { name: 'Analytics' })).not.toBeChecked();
  await expect(dialog.getByRole('switch', { name: 'Marketing' })).not.toBeChecked();

  // Cancel changes nothing and the banner comes back.
  await dialog.getByRole('switch', { name: 'Analytics' }).click();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(banner).toBeVisible();
  expect(await storedChoice(page)).toEqual({ local: null, session: null });

  await banner.getByRole('button', { name: 'Customize' }).click();
  await dialog.getByRole('switch', { name: 'Analytics' }).click();
  await dialog.getByRole('button', { name: 'Save Preferences' }).click();
  await expect(banner).toBeHidden();
  const cookie = await expectSavedEverywhere(page, '{"necessary":true,"analytics":true,"marketing":false}');
  const lifetime = cookie.expires - Date.now() / 1000;
  expect(lifetime).toBeGreaterThan(ONE_YEAR_S - 3600);
  expect(lifetime).toBeLessThan(ONE_YEAR_S + 3600);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('We use cookies')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('Accept All turns every kind on', async ({ people: { open } }) => {
  const page = await open({ cookieChoice: false });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Accept All' }).click();
  await expect(page.getByText('We use cookies')).toHaveCount(0);
  expect((await storedChoice(page)).local).toBe('{"necessary":true,"analytics":true,"marketing":true}');
});

test('before any cookie choice the pages request nothing from another host', async ({
  people: { open, errors },
  baseURL,
}) => {
  const page = await open({ cookieChoice: false });
  const elsewhere: string[] = [];
  const origin = new URL(baseURL!).origin;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== origin) elsewhere.push(request.url());
  });
  for (const path of ['/', '/login', '/register', '/forgot-password', '/no-such-page/here']) {
    await page.goto(path);
    await expect(page.getByRole('region', { name: 'Cookie consent' })).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'Pricing' }).click();
  await page.getByRole('contentinfo').getByRole('button', { name: 'Privacy Policy' }).click();
  await page.getByRole('dialog', { name: 'Privacy Policy' }).getByRole('button', { name: 'Close' }).click();
  await page.waitForLoadState('networkidle');
  expect(elsewhere).toEqual([]);
  expect(errors).toEqual([]);
});

test('the footer opens the Terms & Conditions (16 sections) and the Privacy Policy', async ({
  people: { open, errors },
}) => {
  const page = await open();
  await page.goto('/');
  const footer = page.getByRole('contentinfo');

  await footer.getByRole('button', { name: 'Terms & Conditions' }).click();
  const terms = page.getByRole('dialog', { name: 'Terms & Conditions' });
  const termsHeadings = terms.getByRole('heading', { level: 3 });
  await expect(termsHeadings).toHaveCount(16);
  const topics = [
    /acceptance/i,
    /description of the service/i,
    /accounts/i,
    /businesses/i,
    /customers/i,
    /booking and cancellation/i,
    /payment and fees/i,
    /prohibited uses/i,
    /intellectual property/i,
    /privacy/i,
    /liability/i,
    /disclaimers/i,
    /termination/i,
    /changes/i,
    /governing law/i,
    /contact/i,
  ];
  for (const [i, topic] of topics.entries()) {
    await expect(termsHeadings.nth(i)).toHaveText(new RegExp(`^${i + 1}\\. .*${topic.source}`, 'i'));
  }
  await expect(terms).toContainText('subject to approval by the business');
  await expect(terms).toContainText('the cancellation policy is set by each business');
  await expect(terms).toContainText('law of England and Wales');
  await expect(terms).toContainText('Subscription payments are processed by Stripe, our payment processor');
  await expect(terms).toContainText('support@');
  await terms.getByRole('button', { name: 'Close' }).click();
  await expect(terms).toBeHidden();

  await footer.getByRole('button', { name: 'Privacy Policy' }).click();
  const privacy = page.getByRole('dialog', { name: 'Privacy Policy' });
  for (const heading of [
    'Data we collect',
    'Legal basis',
    'Sharing',
    'Security',
    'Retention',
    'Your rights',
    'Cookies',
    'Minimum age',
    'Data protection officer',
  ]) {
    await expect(privacy.getByRole('heading', { level: 3, name: heading, exact: true })).toBeVisible();
  }
  await expect(privacy).toContainText('at least 16 years old');
  await expect(privacy).toContainText('privacy@');
  await expect(privacy).toContainText('Information Commissioner’s Office');
  await page.keyboard.press('Escape');
  await expect(privacy).toBeHidden();
  expect(errors).toEqual([]);
});

test("'Cookie settings' in the footer reopens the choice, and a change is saved in all three places", async ({
  people: { open, errors },
}) => {
  const page = await open({ cookieChoice: false });
  await page.goto('/');
  await page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Accept All' }).click();
  await expect(page.getByText('We use cookies')).toHaveCount(0);

  // Withdraw marketing consent from the footer.
  await page.getByRole('contentinfo').getByRole('button', { name: 'Cookie settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cookie preferences' });
  await expect(dialog.getByRole('switch', { name: 'Analytics' })).toBeChecked();
  await expect(dialog.getByRole('switch', { name: 'Marketing' })).toBeChecked();
  await dialog.getByRole('switch', { name: 'Marketing' }).click();
  await dialog.getByRole('button', { name: 'Save Preferences' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('We use cookies')).toHaveCount(0);

  await expectSavedEverywhere(page, '{"necessary":true,"analytics":true,"marketing":false}');

  // The dialog shows the saved choice when opened again after a reload.
  await page.reload();
  await page.getByRole('contentinfo').getByRole('button', { name: 'Cookie settings' }).click();
  await expect(dialog.getByRole('switch', { name: 'Analytics' })).toBeChecked();
  await expect(dialog.getByRole('switch', { name: 'Marketing' })).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(errors).toEqual([]);
});
