/**
 * The data download's failure texts: a business gets one text for anything it could not read; a
 * customer's texts tell the profile from the booking data; a lost connection reads as a network
 * error. account.exportData's answer is replaced in the browser (trpc-stubs.ts); the dialog's own
 * retry then succeeds against the real server.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { MSG } from '../../shared/messages';
import { businessOnDashboard, customerOnDashboard, newBusiness, newCustomer } from './helpers';
import { failProcedure } from './trpc-stubs';

const tag = Date.now().toString(36);

/** Opens the download dialog on /settings and presses Download; returns the dialog. */
async function download(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Download your data' });
  if (!(await dialog.isVisible())) await page.getByRole('button', { name: 'Download Your Data' }).click();
  await dialog.getByRole('button', { name: /^(Download|Try again)$/ }).click();
  return dialog;
}

test("a customer's download failures name what could not be read; a business's use one text", async ({
  people: { open, errors },
}) => {
  const cust = await open();
  await customerOnDashboard(cust, newCustomer(`${tag}x`));
  await cust.goto('/settings');

  let failure: 'profile' | 'bookings' | 'network' | null = 'profile';
  await failProcedure(cust, 'account.exportData', () => failure === 'profile', {
    code: 'NOT_FOUND',
    httpStatus: 404,
    message: 'Account not found',
  });
  await failProcedure(cust, 'account.exportData', () => failure === 'bookings');
  await cust.route('**/trpc/account.exportData**', (route) =>
    failure === 'network' ? route.abort('connectionrefused') : route.fallback(),
  );

  let dialog = await download(cust);
  await expect(dialog.getByText(MSG.exportProfileFailed)).toBeVisible({ timeout: 15_000 });
  failure = 'bookings';
  dialog = await download(cust);
  await expect(dialog.getByText(MSG.exportBookingsFailed)).toBeVisible({ timeout: 15_000 });
  failure = 'network';
  dialog = await download(cust);
  await expect(dialog.getByText(MSG.exportNetwork)).toBeVisible({ timeout: 15_000 });
  failure = null;
  const downloading = cust.waitForEvent('download');
  await download(cust);
  expect((await downloading).suggestedFilename()).toMatch(/^customer-data-\d{4}-\d{2}-\d{2}\.json$/);

  const biz = await open();
  await businessOnDashboard(biz, newBusiness(`${tag}x`));
  await biz.goto('/settings');
  await failProcedure(biz, 'account.exportData', () => true, { code: 'NOT_FOUND', httpStatus: 404 });
  dialog = await download(biz);
  await expect(dialog.getByText(MSG.exportBusinessFailed)).toBeVisible({ timeout: 15_000 });

  expect(errors.filter((e) => !/status of 5\d\d|ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
});
