/**
 * Two server processes on one PostgreSQL database: the customer uses one process, the business the
 * other, and each sees the other's change live. Runs only when the suite has PostgreSQL
 * (E2E_DATABASE_URL, as in CI); embedded PGlite is single-process.
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

const second = process.env.E2E_SECOND_URL;
const tag = `x${Date.now().toString(36)}`;
const business = newBusiness(tag);
const customer = newCustomer(tag);
const slotDescription = `Colour refresh ${tag}`;

test('a request made through one process appears live through the other, and back', async ({
  people: { open, errors },
}) => {
  test.skip(!second, 'needs PostgreSQL (E2E_DATABASE_URL) for a second server process');
  const biz = await open(); // on the first process (baseURL)
  await businessOnDashboard(biz, business);
  await addFirstSlot(biz, slotDescription);

  const cust = await open(); // on the second process
  await customerOnDashboard(cust, customer, second!);
  await expect(cust).toHaveURL(new RegExp(`^${second}/dashboard$`));
  await cust.getByRole('tab', { name: /Pending/ }).click();

  const cust2 = await cust.context().newPage(); // the same customer's second tab, same process
  await cust2.goto(`${second}/${business.slug}`);
  await requestSlot(cust2, slotDescription);

  const request = biz.getByTestId('booking-request').filter({ hasText: customer.email });
  await expect(request).toBeVisible();
  const pending = cust.getByTestId('appointment-row').filter({ hasText: slotDescription });
  await expect(pending).toBeVisible();

  await request.getByRole('button', { name: 'Confirm Booking' }).click();
  await biz.getByRole('dialog').getByRole('button', { name: 'Yes, confirm' }).click();
  await expect(pending).toHaveCount(0);
  await cust.getByRole('tab', { name: /Confirmed/ }).click();
  await expect(cust.getByTestId('appointment-row').filter({ hasText: slotDescription })).toBeVisible();

  expect(errors).toEqual([]);
});
