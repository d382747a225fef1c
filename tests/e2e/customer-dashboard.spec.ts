/**
 * The customer side in real Chromium: a new customer's empty tabs; a pending request cancelled
 * ('Request cancelled'), offered again on the public page and gone from the business's Current
 * Requests without a reload; a confirmed appointment that can only be cancelled by contacting the
 * business; 'Update Name' changing the header's greeting; and, once the customer deletes the
 * account, the business keeping the booking without the customer's name or email.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  addFirstSlot,
  addSlotOnLastDate,
  businessOnDashboard,
  customerOnDashboard,
  newBusiness,
  newCustomer,
  requestSlot,
} from './helpers';

const tag = Date.now().toString(36);
const business = newBusiness(`cd${tag}`);
const customer = newCustomer(`cd${tag}`);
const cancelled = `Fringe trim ${tag}`;
const kept = `Colour ${tag}`;

async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
}

test('a customer cancels a request, keeps a confirmed one, renames, and deletes the account', async ({
  people: { open, errors },
}) => {
  // Two accounts, four requests, a rejection and a deletion in one journey: more than the default
  // 90 s allows on a busy two-core machine.
  test.slow();
  // A business with two slots.
  const biz = await open();
  await businessOnDashboard(biz, business);
  await addFirstSlot(biz, cancelled);
  await addSlotOnLastDate(biz, '9:30 am', '10:00 am', kept);

  // A new customer: every tab and the favourites panel are empty.
  const cust = await open();
  await customerOnDashboard(cust, customer);
  await expect(cust.getByText('No confirmed appointments')).toBeVisible();
  for (const [tab, empty] of [
    ['Pending', 'No pending requests'],
    ['Declined', 'No declined bookings'],
    ['Archive', 'No past appointments'],
    ['Confirmed', 'No confirmed appointments'],
  ]) {
    await openTab(cust, tab!);
    await expect(cust.getByText(empty!, { exact: true })).toBeVisible();
  }
  await expect(cust.getByText('No favourite businesses yet')).toBeVisible();

  // The customer requests the first slot; the business sees it arrive.
  await cust.goto(`/${business.slug}`);
  await requestSlot(cust, cancelled);
  const request = biz.getByTestId('booking-request').filter({ hasText: cancelled });
  await expect(request).toContainText(customer.email);

  // ... and cancels it from the Pending tab, after confirming in a dialog.
  await cust.goto('/dashboard');
  await openTab(cust, 'Pending');
  const row = cust.getByTestId('appointment-row').filter({ hasText: cancelled });
  await expect(row).toContainText(business.businessName);
  await row.getByRole('button', { name: /^Cancel request/ }).click();
  const dialog = cust.getByRole('dialog', { name: 'Cancel this request?' });
  await expect(dialog).toContainText(cancelled);
  await dialog.getByRole('button', { name: 'Keep Request' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: /^Cancel request/ }).click();
  await dialog.getByRole('button', { name: 'Yes, cancel request' }).click();
  await expect(cust.getByText('Request cancelled', { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect(cust.getByText('No pending requests', { exact: true })).toBeVisible();
  // What became of it stays visible: in Archive, badged Cancelled.
  await openTab(cust, 'Archive');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Cancelled');

  // The business's Current Requests empties without a reload; the slot is offered again.
  await expect(request).toHaveCount(0);
  await expect(biz.getByText('No pending requests', { exact: true })).toBeVisible();
  await expect(biz.getByTestId('slot-row').filter({ hasText: cancelled })).toBeVisible();
  await cust.goto(`/${business.slug}`);
  await expect(cust.getByTestId('public-slot').filter({ hasText: cancelled })).toBeVisible();

  // Requested again and rejected inline on the business's slot card: the customer, watching the
  // dashboard, is told and finds it in Archive.
  await requestSlot(cust, cancelled);
  await cust.goto('/dashboard');
  await openTab(cust, 'Pending');
  await expect(row).toHaveCount(1);
  await biz
    .getByTestId('requested-slots')
    .getByTestId('slot-row')
    .filter({ hasText: cancelled })
    .getByRole('button', { name: 'Reject' })
    .click();
  await expect(cust.getByText(`at ${business.businessName} was cancelled. It is now in Archive.`)).toBeVisible();
  await expect(row).toHaveCount(0);
  await openTab(cust, 'Archive');
  await expect(row).toHaveCount(2);
  await expect(row.filter({ hasText: 'Cancelled' })).toHaveCount(2);
  await cust.goto(`/${business.slug}`);

  // A confirmed appointment has no Cancel button, only the contact-the-business text (and 'Add to
  // calendar', docs/decisions/0052).
  await requestSlot(cust, kept);
  const second = biz.getByTestId('booking-request').filter({ hasText: kept });
  await second.getByRole('button', { name: 'Confirm Booking' }).click();
  await biz.getByRole('dialog').getByRole('button', { name: 'Yes, confirm' }).click();
  await expect(biz.getByText('Booking confirmed!', { exact: true })).toBeVisible();
  await cust.goto('/dashboard');
  const confirmed = cust.getByTestId('appointment-row').filter({ hasText: kept });
  await expect(confirmed).toContainText('Booked');
  await expect(confirmed).toContainText(`Need to cancel? Please contact ${business.businessName} directly.`);
  await expect(confirmed.getByRole('button')).toHaveText(['Add to calendar']);

  // Update Name: required, then saved; the header greets the new name.
  await cust.goto('/settings');
  const card = cust.getByRole('region', { name: 'Personal Information' });
  const fullName = card.getByRole('textbox', { name: 'Full name' });
  await expect(fullName).toHaveValue(customer.name);
  await fullName.fill('   ');
  await card.getByRole('button', { name: 'Update Name' }).click();
  await expect(card.getByText('Full name is required')).toBeVisible();
  await fullName.fill('Cleo Renamed');
  await card.getByRole('button', { name: 'Update Name' }).click();
  await expect(cust.getByText('Profile updated', { exact: true })).toBeVisible();
  await expect(cust.getByRole('banner').getByText('Cleo Renamed')).toBeVisible();
  await cust.reload();
  await expect(cust.getByRole('region', { name: 'Personal Information' }).getByRole('textbox')).toHaveValue(
    'Cleo Renamed',
  );

  // The business's Booked tab shows the customer ...
  await biz.getByRole('tab', { name: 'Booked', exact: true }).click();
  const booked = biz.getByTestId('slot-row').filter({ hasText: kept });
  await expect(booked).toContainText(customer.email);

  // ... until the customer deletes the account: the booking stays, the personal data goes.
  await cust.getByRole('button', { name: 'Delete Account' }).click();
  const deletion = cust.getByRole('dialog', { name: 'Delete account' });
  await deletion.getByLabel('Type DELETE to confirm').fill('DELETE');
  await deletion.getByLabel('Current password').fill(customer.password);
  await deletion.getByRole('button', { name: 'Delete Account' }).click();
  await expect(cust).toHaveURL(/\/$/);
  await expect(cust.getByText('Your account has been deleted successfully')).toBeVisible();

  await expect(booked).toContainText('Deleted customer'); // live, without a reload
  await biz.reload();
  await biz.getByRole('tab', { name: 'Booked', exact: true }).click();
  await expect(booked).toContainText('Deleted customer');
  await expect(biz.getByText(customer.email)).toHaveCount(0);
  await expect(biz.getByText(customer.name)).toHaveCount(0);
  await expect(biz.getByText('Cleo Renamed')).toHaveCount(0);

  expect(errors).toEqual([]);
});
