/**
 * Cookie consent (dashboards spec §2 "Cookie banner", §3, §9) and the footer's legal dialogs
 * (accounts spec §1), in real Chromium, starting without a saved cookie choice.
 */
import { expect, test, type Page } from '@playwright/test';
import { watchErrors } from './helpers';

const ONE_YEAR_S = 365 * 24 * 60 * 60;

async function storedChoice(page: Page) {
  return page.evaluate(() => ({
    local: window.localStorage.getItem('cookiePreferences'),
    session: window.sessionStorage.getItem('cookiePreferences'),
  }));
}

test('the cookie banner saves a customised choice in local storage, session storage and a one-year cookie', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const errors: string[] = [];
  try {
    const page = await context.newPage();
    watchErrors(page, errors);
    await page.goto('/');
    const banner = page.getByRole('region', { name: 'Cookie consent' });
    await expect(banner.getByText('We use cookies')).toBeVisible();
    expect(await storedChoice(page)).toEqual({ local: null, session: null });
    expect((await context.cookies()).find((c) => c.name === 'cookiePreferences')).toBeUndefined();

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
    const expected = '{"necessary":true,"analytics":true,"marketing":false}';
    expect(await storedChoice(page)).toEqual({ local: expected, session: expected });
    const cookie = (await context.cookies()).find((c) => c.name === 'cookiePreferences');
    expect(decodeURIComponent(cookie!.value)).toBe(expected);
    const lifetime = cookie!.expires - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(ONE_YEAR_S - 3600);
    expect(lifetime).toBeLessThan(ONE_YEAR_S + 3600);

    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('We use cookies')).toHaveCount(0);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

test('Accept All turns every kind on', async ({ browser }) => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Accept All' }).click();
    await expect(page.getByText('We use cookies')).toHaveCount(0);
    expect((await storedChoice(page)).local).toBe('{"necessary":true,"analytics":true,"marketing":true}');
  } finally {
    await context.close();
  }
});
