/**
 * The whole booking loop in real Chromium, as two people would do it (issue 2 §11): a business
 * signs up, confirms its email from the mailbox and publishes a slot; a customer signs up,
 * confirms, and requests the slot from the public page; the business sees the request arrive
 * without reloading and confirms it; the customer sees Pending turn into Confirmed without
 * reloading.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';

const run = Date.now().toString(36);
const business = {
  name: 'Bea Owner',
  email: `owner-${run}@example.test`,
  password: 'owner-password-1',
  businessName: `Studio ${run}`,
  slug: `studio-${run}`,
};
const customer = { name: 'Cam Customer', email: `cam-${run}@example.test`, password: 'customer-password-1' };
const slotDescription = `Cut and finish ${run}`;

/** Fails the test on any console error or uncaught exception in the page. */
function watchErrors(page: Page, errors: string[]) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
}

async function confirmFromMailbox(page: Page, email: string) {
  await page.goto('/dev/mailbox');
  const message = page.getByRole('article').filter({ hasText: `To: ${email}` });
  await expect(message.first()).toBeVisible();
  await message.first().getByRole('link', { name: 'Confirm my email' }).click();
  await expect(page.getByText('Welcome!', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function pick(page: Page, label: string, option?: string) {
  await page.getByRole('combobox', { name: label }).click();
  const options = page.getByRole('listbox', { name: label }).getByRole('option');
  await (option ? options.filter({ hasText: option }).first() : options.first()).click();
}

test('a business publishes a slot, a customer requests it, the business confirms, both see it live', async ({
  browser,
}) => {
  const errors: string[] = [];
  const contexts: BrowserContext[] = [];
  const open = async () => {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    watchErrors(page, errors);
    return page;
  };

  try {
    // --- The business signs up, completes its profile and confirms its email.
    const biz = await open();
    await biz.goto('/register');
    await biz.getByLabel('Full name').fill(business.name);
    await biz.getByLabel('Email').fill(business.email);
    await biz.getByLabel('Password').fill(business.password);
    await expect(biz.getByRole('radio', { name: 'Business' })).toBeChecked();
    await biz.getByRole('button', { name: 'Continue' }).click();

    await expect(biz).toHaveURL(/\/complete-business-profile$/);
    await biz.getByLabel('Business name').fill(business.businessName);
    await biz.getByLabel('Description').fill('Short-notice cuts and colour.');
    await biz.getByLabel('Address').fill('2 Market Row, Leeds, LS1 6DL');
    await biz.getByLabel('Username').fill(business.slug);
    await expect(biz.getByText(/available/i).first()).toBeVisible();
    await biz.getByRole('button', { name: 'Complete Profile' }).click();

    await expect(biz).toHaveURL(/\/check-email/);
    await expect(biz.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await confirmFromMailbox(biz, business.email);
    await expect(biz.getByRole('heading', { name: business.businessName })).toBeVisible();

    // --- It publishes a slot (first offered date, first start, first end).
    await pick(biz, 'Date');
    await pick(biz, 'Start time');
    await pick(biz, 'End time');
    await biz.getByRole('textbox', { name: 'Description' }).fill(slotDescription);
    await biz.getByRole('button', { name: 'Add Slot' }).click();
    await expect(biz.getByText('Slot added successfully')).toBeVisible();
    await expect(biz.getByTestId('slot-row').filter({ hasText: slotDescription })).toBeVisible();

    // --- A visitor sees the slot but is asked to sign in to request it.
    const cust = await open();
    await cust.goto(`/${business.slug}`);
    await expect(cust.getByRole('heading', { name: business.businessName })).toBeVisible();
    await expect(cust.getByTestId('public-slot').filter({ hasText: slotDescription })).toBeVisible();
    await cust.getByRole('button', { name: 'Login or Sign Up to Request' }).first().click();
    await cust.getByRole('dialog').getByRole('link', { name: 'Create an Account' }).click();

    // --- The customer signs up (role preselected) and confirms.
    await expect(cust).toHaveURL(/\/register\?role=customer/);
    await expect(cust.getByRole('radio', { name: 'Customer' })).toBeChecked();
    await cust.getByLabel('Full name').fill(customer.name);
    await cust.getByLabel('Email').fill(customer.email);
    await cust.getByLabel('Password').fill(customer.password);
    await cust.getByRole('button', { name: 'Create Account' }).click();
    await expect(cust).toHaveURL(/\/check-email/);
    await confirmFromMailbox(cust, customer.email);

    // --- The customer requests the slot from the public page.
    await cust.goto(`/${business.slug}`);
    const slot = cust.getByTestId('public-slot').filter({ hasText: slotDescription });
    await slot.getByRole('button', { name: /^Request/ }).click();
    const dialog = cust.getByRole('dialog');
    await dialog.getByLabel('Notes (optional)').fill('First visit');
    await dialog.getByRole('button', { name: 'Send Request' }).click();
    await expect(cust.getByText('Booking request submitted!')).toBeVisible();
    await expect(cust.getByTestId('public-slot').filter({ hasText: slotDescription })).toHaveCount(0);

    // --- The business sees it arrive without reloading.
    const request = biz.getByTestId('booking-request').filter({ hasText: customer.email });
    await expect(request).toBeVisible();
    await expect(request).toContainText(customer.name);
    await expect(request).toContainText(slotDescription);

    // --- The customer's dashboard shows it pending.
    await cust.goto('/dashboard');
    await cust.getByRole('tab', { name: /Pending/ }).click();
    const pending = cust.getByTestId('appointment-row').filter({ hasText: slotDescription });
    await expect(pending).toBeVisible();

    // --- The business confirms; the customer sees it confirmed without reloading.
    await request.getByRole('button', { name: 'Confirm Booking' }).click();
    await biz.getByRole('dialog').getByRole('button', { name: 'Yes, confirm' }).click();
    await expect(biz.getByText('Booking confirmed!', { exact: true })).toBeVisible();
    await expect(request).toHaveCount(0);
    await biz.getByRole('tab', { name: 'Booked', exact: true }).click();
    await expect(biz.getByTestId('slot-row').filter({ hasText: slotDescription })).toBeVisible();

    await expect(pending).toHaveCount(0);
    await cust.getByRole('tab', { name: /Confirmed/ }).click();
    await expect(cust.getByTestId('appointment-row').filter({ hasText: slotDescription })).toBeVisible();
    await expect(cust.getByTestId('appointment-row').filter({ hasText: slotDescription })).toContainText(
      business.businessName,
    );

    expect(errors).toEqual([]);
  } finally {
    for (const c of contexts) await c.close();
  }
});
