/**
 * The whole booking loop in real Chromium, as two people would do it, sign-up included: a business
 * signs up, confirms its email from the mailbox and publishes a slot; a customer signs up,
 * confirms, and requests the slot from the public page; the business sees the request arrive
 * without reloading and confirms it; the customer sees Pending turn into Confirmed without
 * reloading.
 */
import { expect, test } from './fixtures';
import {
  addFirstSlot,
  confirmFromMailbox,
  fillCustomerSignUp,
  newBusiness,
  newCustomer,
  requestSlot,
  signUpBusiness,
} from './helpers';

const tag = Date.now().toString(36);
const business = newBusiness(tag);
const customer = newCustomer(tag);
const slotDescription = `Cut and finish ${tag}`;

test('a business publishes a slot, a customer requests it, the business confirms, both see it live', async ({
  people: { open, errors },
}) => {
  // Two sign-ups through the screens and the whole loop in one journey: more than the default 90 s
  // allows on a busy two-core machine.
  test.slow();
  // The business signs up, completes its profile, confirms its email and publishes a slot.
  const biz = await open();
  await biz.goto('/');
  await biz.getByRole('link', { name: 'Sign Up' }).first().click();
  await expect(biz).toHaveURL(/\/register$/);
  await signUpBusiness(biz, business);
  await confirmFromMailbox(biz, business.email);
  await expect(biz.getByRole('heading', { name: business.businessName })).toBeVisible();
  await addFirstSlot(biz, slotDescription);

  // A visitor sees the slot but is asked to sign in to request it.
  const cust = await open();
  await cust.goto(`/${business.slug}`);
  await expect(cust.getByRole('heading', { name: business.businessName })).toBeVisible();
  await expect(cust.getByTestId('public-slot').filter({ hasText: slotDescription })).toBeVisible();
  await cust.getByRole('button', { name: 'Login or Sign Up to Request' }).first().click();
  await cust.getByRole('dialog').getByRole('link', { name: 'Create an Account' }).click();

  // The customer signs up (role preselected), confirms, and requests the slot.
  await expect(cust).toHaveURL(/\/register\?role=customer/);
  await fillCustomerSignUp(cust, customer);
  await confirmFromMailbox(cust, customer.email);
  await cust.goto(`/${business.slug}`);
  await requestSlot(cust, slotDescription);

  // The business sees it arrive without reloading.
  const request = biz.getByTestId('booking-request').filter({ hasText: customer.email });
  await expect(request).toBeVisible();
  await expect(request).toContainText(customer.name);
  await expect(request).toContainText(slotDescription);

  // The customer's dashboard shows it pending.
  await cust.goto('/dashboard');
  await cust.getByRole('tab', { name: /Pending/ }).click();
  const pending = cust.getByTestId('appointment-row').filter({ hasText: slotDescription });
  await expect(pending).toBeVisible();

  // The business confirms; the customer sees it confirmed without reloading.
  await request.getByRole('button', { name: 'Confirm Booking' }).click();
  await biz.getByRole('dialog').getByRole('button', { name: 'Yes, confirm' }).click();
  await expect(biz.getByText('Booking confirmed!', { exact: true })).toBeVisible();
  await expect(request).toHaveCount(0);
  await biz.getByRole('tab', { name: 'Booked', exact: true }).click();
  await expect(biz.getByTestId('slot-row').filter({ hasText: slotDescription })).toBeVisible();

  await expect(pending).toHaveCount(0);
  await cust.getByRole('tab', { name: /Confirmed/ }).click();
  const confirmed = cust.getByTestId('appointment-row').filter({ hasText: slotDescription });
  await expect(confirmed).toBeVisible();
  await expect(confirmed).toContainText(business.businessName);

  expect(errors).toEqual([]);
});
