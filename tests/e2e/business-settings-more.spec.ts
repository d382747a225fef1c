/**
 * More of the business settings in real Chromium: a Business URL taken by another business or not
 * checkable, a week with every day off ('No available dates...', ADR 0025), the business's own
 * password change, and the Billing card with 'Manage Billing'.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { MSG } from '../../shared/messages';
import { businessOnDashboard, logIn, newBusiness, type BusinessAccount } from './helpers';
import { failProcedure, rewriteAnswer } from './trpc-stubs';

const tag = Date.now().toString(36);

async function businessOnSettings(page: Page, suffix: string): Promise<BusinessAccount> {
  const account = await businessOnDashboard(page, newBusiness(`${tag}${suffix}`));
  await page.goto('/settings');
  await expect(page.getByRole('region', { name: 'Business Information' })).toBeVisible();
  return account;
}

test("another business's URL is refused, a failed check says so, and a week with every day off offers no dates", async ({
  people: { open, errors },
}) => {
  const first = await open();
  const taken = await businessOnSettings(first, 'a');
  const page = await open();
  await businessOnSettings(page, 'b');
  const info = page.getByRole('region', { name: 'Business Information' });
  const url = info.getByLabel('Business URL');

  await url.fill(taken.slug);
  await expect(info.getByText(MSG.slugTaken)).toBeVisible();
  await info.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Please fix the URL validation errors before saving')).toBeVisible();

  await page.route('**/trpc/settings.checkSlug**', (route) => route.abort('connectionrefused'));
  await url.fill(`${taken.slug}-x`);
  await expect(info.getByText(MSG.slugCheckFailed)).toBeVisible();
  await page.unroute('**/trpc/settings.checkSlug**');

  // Every day off: saved as closed all week; the slot form has no dates, the page says Closed.
  await page.reload();
  const hours = page.getByRole('region', { name: 'Business Hours' });
  for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
    await hours.getByRole('switch', { name: day }).uncheck({ force: true });
  }
  await hours.getByRole('button', { name: 'Save Hours' }).click();
  await expect(page.getByText('Your business hours are saved.')).toBeVisible();
  await page.goto('/dashboard');
  await expect(page.getByText(MSG.noDates)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Slot' })).toHaveCount(0);

  expect(errors.filter((e) => !/ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
});

test('a business changes its password; Billing shows only with a billing account and reports a portal failure', async ({
  people: { open, errors },
}) => {
  const page = await open();
  const business = await businessOnSettings(page, 'c');

  // No billing account: no Billing card.
  await expect(page.getByRole('region', { name: 'Account Settings' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Billing' })).toHaveCount(0);

  // Account Settings: the password change, then a login with the new password.
  const account = page
    .getByRole('region', { name: 'Account Settings' })
    .locator('form')
    .filter({ has: page.getByRole('button', { name: 'Change Password' }) });
  const newPassword = 'a-new-password-2';
  await account.getByLabel('Current password').fill(business.password);
  await account.getByLabel('New password', { exact: true }).fill(newPassword);
  await account.getByLabel('Confirm new password').fill(newPassword);
  await account.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText(MSG.passwordChangedTitle, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await logIn(page, business.email, newPassword);
  await expect(page).toHaveURL(/\/dashboard$/);

  // When the settings answer says there is a billing account, the card shows; the server itself
  // knows there is none, and 'Manage Billing' says so in its own words.
  await rewriteAnswer<{ showBilling: boolean }>(page, 'settings.business', (s) => ({ ...s, showBilling: true }));
  await page.goto('/settings');
  const billing = page.getByRole('region', { name: 'Billing' });
  await expect(billing).toBeVisible();
  await billing.getByRole('button', { name: 'Manage Billing' }).click();
  await expect(page.getByRole('alert').filter({ hasText: MSG.billingNotSetUp })).toBeVisible();

  // An unexpected failure reads its own text.
  await failProcedure(page, 'billing.portalSession', () => true);
  await billing.getByRole('button', { name: 'Manage Billing' }).click();
  await expect(page.getByRole('alert').filter({ hasText: MSG.billingPortalFailed })).toBeVisible();

  expect(errors.filter((e) => !/status of 5\d\d/.test(e))).toEqual([]);
});
