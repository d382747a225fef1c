/**
 * Business settings in real Chromium: a business edits its information and Business URL (with the
 * URL check's states), its hours, downloads its data and deletes its account; a customer's
 * settings offer the same download and deletion.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { addFirstSlot, businessOnDashboard, customerOnDashboard, logIn, newBusiness, newCustomer } from './helpers';

const tag = Date.now().toString(36);
const business = newBusiness(`set${tag}`);
const renamed = `${business.businessName} Renamed`;
const newSlug = `${business.slug}-new`;

async function chooseOption(page: Page, combobox: string, option: string) {
  await page.getByRole('combobox', { name: combobox }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a business edits its information, URL and hours, downloads its data and deletes its account', async ({
  people: { open, errors },
}) => {
  const page = await open();
  await businessOnDashboard(page, business);
  await addFirstSlot(page, `Settings journey ${tag}`);

  await page.goto('/dashboard/settings');
  await expect(page).toHaveURL(/\/settings$/);
  const info = page.getByRole('region', { name: 'Business Information' });
  await expect(info.getByLabel('Business name')).toHaveValue(business.businessName);
  await expect(info.getByLabel('Business URL')).toHaveValue(business.slug);

  // The Business URL: typed input is lower-cased and stripped; checked 500 ms after typing.
  const url = info.getByLabel('Business URL');
  await url.fill('No Way!');
  await expect(url).toHaveValue('noway');
  await url.fill('ab');
  await expect(info.getByText('URL must be 3-50 characters long and contain only lowercase letters')).toBeVisible();
  await info.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Please fix the URL validation errors before saving')).toBeVisible();
  await url.fill(newSlug);
  await expect(info.getByText('URL is available!')).toBeVisible();

  // A required field left empty is named under 'Validation Error'; nothing is saved.
  await info.getByLabel('Business name').fill('');
  await info.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Business name is required').first()).toBeVisible();

  await info.getByLabel('Business name').fill(renamed);
  await info.getByLabel('Phone number').fill('  0113 496 0000  ');
  await chooseOption(page, 'Category', 'Barber Shop');
  await info.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Business URL Updated')).toBeVisible();
  await expect(page.getByText(`Your booking page is now at`)).toContainText(`/${newSlug}`);
  await expect(info.getByLabel('Business URL')).toHaveValue(newSlug);

  // Saving again without a URL change says 'Profile updated'.
  await info.getByLabel('Address').fill('');
  await info.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated').first()).toBeVisible();

  // Business Hours: open on Saturday until midnight.
  const hours = page.getByRole('region', { name: 'Business Hours' });
  await hours.getByRole('switch', { name: 'Saturday' }).check({ force: true });
  await chooseOption(page, 'Saturday opening time', '8:00 am');
  await chooseOption(page, 'Saturday closing time', 'Midnight');
  await hours.getByRole('button', { name: 'Save Hours' }).click();
  await expect(page.getByText('Your business hours are saved.')).toBeVisible();

  // The public page follows: new address, name, phone, hours; no address any more.
  const visitor = await open();
  await visitor.goto(`/${newSlug}`);
  await expect(visitor.getByRole('heading', { name: renamed })).toBeVisible();
  await expect(visitor.getByText('0113 496 0000')).toBeVisible();
  await expect(visitor.getByText('Open in Maps')).toHaveCount(0);
  await expect(visitor.getByText(/8:00 am/)).toBeVisible();
  await visitor.goto(`/${business.slug}`);
  await expect(visitor.getByText('Business Not Found')).toBeVisible();

  // Download Your Data: a JSON file in the 2.0 format.
  await page.getByRole('button', { name: 'Download Your Data' }).click();
  const dialog = page.getByRole('dialog', { name: 'Download your data' });
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^business-data-\d{4}-\d{2}-\d{2}\.json$/);
  const file = JSON.parse(await readFile((await download.path())!, 'utf8'));
  expect(file).toMatchObject({
    version: '2.0',
    userType: 'business',
    profile: {
      businessName: renamed,
      slug: newSlug,
      businessType: 'Barber Shop',
      phoneNumber: '0113 496 0000',
      address: null,
      openingHours: { saturday: { open: '08:00', close: '24:00' } },
      account: { email: business.email, role: 'business' },
    },
    slots: [{ description: `Settings journey ${tag}` }],
    bookings: [],
    likes: [],
    metadata: { email: business.email, dataVersion: '2.0', totalSlots: 1, totalBookings: 0, totalLikes: 0 },
  });
  await expect(page.getByText('Your data is ready to download.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  // Delete Account: DELETE must be typed; then signed out to / with its own text.
  await page.getByRole('button', { name: 'Delete Account' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete account' });
  await confirm.getByLabel('Type DELETE to confirm').fill('delete');
  await confirm.getByLabel('Current password').fill(business.password);
  await confirm.getByRole('button', { name: 'Delete Account' }).click();
  await expect(confirm.getByText('Please type DELETE to confirm account deletion')).toBeVisible();
  await confirm.getByLabel('Type DELETE to confirm').fill('DELETE');
  await confirm.getByRole('button', { name: 'Delete Account' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Your account has been deleted successfully')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/login$/);
  await visitor.goto(`/${newSlug}`);
  await expect(visitor.getByText('Business Not Found')).toBeVisible();

  expect(errors).toEqual([]);
});

test("a customer's settings: account cards, data download and deletion", async ({ people: { open, errors } }) => {
  const customer = newCustomer(`set${tag}`);
  const page = await open();
  await customerOnDashboard(page, customer);

  await page.goto('/dashboard/customer/settings');
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('heading', { name: 'Change Email Address' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Business Information' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Download Your Data' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('dialog').getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^customer-data-\d{4}-\d{2}-\d{2}\.json$/);
  const file = JSON.parse(await readFile((await download.path())!, 'utf8'));
  expect(file).toMatchObject({
    version: '2.0',
    userType: 'customer',
    profile: { fullName: customer.name, email: customer.email },
    bookings: [],
    likes: [],
    metadata: { email: customer.email, dataVersion: '2.0', totalBookings: 0, totalLikes: 0 },
  });
  expect(file).not.toHaveProperty('slots');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).last().click();

  await page.getByRole('button', { name: 'Delete Account' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete account' });
  await confirm.getByLabel('Type DELETE to confirm').fill('DELETE');
  await confirm.getByLabel('Current password').fill('wrong-password-1');
  await confirm.getByRole('button', { name: 'Delete Account' }).click();
  await expect(page.getByText('Failed to delete account: Your current password is incorrect.')).toBeVisible();
  await confirm.getByLabel('Current password').fill(customer.password);
  await confirm.getByRole('button', { name: 'Delete Account' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Your account has been deleted successfully')).toBeVisible();

  // The account is gone: logging in again fails.
  await logIn(page, customer.email, customer.password);
  await expect(page.getByText('Invalid email or password').first()).toBeVisible();
  await expect(page).toHaveURL(/\/login/);

  expect(errors).toEqual([]);
});
