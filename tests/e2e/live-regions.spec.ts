/**
 * Live regions (accessibility): the business dashboard announces a new request and the customer
 * dashboard announces the business's decision, in their polite live region, while the page stays
 * open; and at most three notifications show at once.
 */
import { expect, test } from './fixtures';
import {
  addFirstSlot,
  businessOnDashboard,
  customerOnDashboard,
  newBusiness,
  newCustomer,
  requestSlot,
} from './helpers';

const tag = `l${Date.now().toString(36)}`;

test('new requests and confirmations are announced to screen readers; three toasts at most', async ({
  people: { open, errors },
  baseURL,
}) => {
  test.setTimeout(150_000);
  const business = newBusiness(tag);
  const customer = newCustomer(tag);
  const slot = `Colour refresh ${tag}`;
  const biz = await open();
  await businessOnDashboard(biz, business);
  await addFirstSlot(biz, slot);
  const bizAnnouncer = biz.getByTestId('live-announcer');
  await expect(bizAnnouncer).toHaveAttribute('aria-live', 'polite');
  await expect(bizAnnouncer).toHaveText('');

  // The customer requests the slot: the open business dashboard announces it.
  const cust = await open();
  await customerOnDashboard(cust, customer);
  await cust.goto(`/${business.slug}`);
  await requestSlot(cust, slot);
  await expect(bizAnnouncer).toHaveText('New booking request');

  // The business confirms: the open customer dashboard announces it.
  await cust.goto('/dashboard');
  const custAnnouncer = cust.getByTestId('live-announcer');
  await cust.getByRole('tab', { name: /Pending/ }).click();
  await expect(cust.getByTestId('appointment-row').filter({ hasText: slot })).toBeVisible();
  await expect(custAnnouncer).toHaveText('');
  const request = biz.getByTestId('booking-request').filter({ hasText: customer.email });
  await request.getByRole('button', { name: 'Confirm Booking' }).click();
  await biz.getByRole('dialog').getByRole('button', { name: 'Yes, confirm' }).click();
  await expect(custAnnouncer).toHaveText(`Booking confirmed by ${business.businessName}`);

  // Notifications: never more than three on screen.
  await biz.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  await biz.goto('/qrcode');
  const copy = biz.getByRole('button', { name: 'Copy' });
  for (let i = 0; i < 5; i += 1) await copy.click();
  const copied = biz.getByText('Link Copied', { exact: true });
  await expect(copied).toHaveCount(3);
  await biz.waitForTimeout(500);
  await expect(copied).toHaveCount(3);
  expect(errors).toEqual([]);
});
